"""What one shell command is: declared once, read by the parser and help (bot/service/commands.py), the dispatch
(bot/service/post_reading.py) and Discord's application commands (bot/discord/shell_tree.py).

A game's command is a bare ``CommandSpec`` (engine/ruleset.py); the shell's is the same spec with what the shell
adds: its handler, the usage when it says more than its arguments, and its Discord face. This module names no
transport: a Discord face is plain data (option kinds by name, the line its values make), which the Discord side
turns into app commands.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.service.replies import LineAnswer
from engine.ruleset import CommandSpec

if TYPE_CHECKING:
    from bot.service.post_reading import PostReading, _Posting


@dataclass(frozen=True)
class Command:
    """A typed command line, split: its name (one or two words), its arguments, the line as typed."""

    name: str
    args: list[str]
    text: str
    usage: str = ""  # the command's usage line, for the handler's messages


class CommandError(ValueError):
    """A command line that cannot be read: the message quotes what was wrong and says what would be right."""


# (the service reading the post, the post, the line's number, the command) -> the line's answer. A handler raises
# CommandError for a line it cannot read and engine.events.Rejection for one the rules or the shell refuse.
Handler = Callable[["PostReading", "_Posting", int, Command], LineAnswer]
# The option values of a Discord command (None when left out; a member or role as its mention) -> the line it posts.
LineOf = Callable[[Mapping[str, Any]], str]


def done(line_no: int, command: Command, message: str, details: Sequence[str] = ()) -> LineAnswer:
    """The answer of a command carried out."""
    return LineAnswer(line_no, command.text, True, message, list(details))


def quoted(text: str) -> str:
    """One argument of a command line, kept whole by the service's shlex split."""
    return '"' + text.replace('"', "'") + '"'


@dataclass(frozen=True)
class Option:
    """One option of a Discord command. ``kind``: "text", "number", "integer", "flag" (true or false), "member",
    "role", "choice" (then ``choices``, each (shown, value)), or a vocabulary autocompleted: a game's
    (``ruleset.names(kind)``, e.g. "seat") or the registered games ("ruleset")."""

    name: str
    kind: str = "text"
    description: str = ""  # empty: none given (Discord shows its own placeholder)
    optional: bool = False
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class DiscordFace:
    """How a shell command shows on Discord. ``name`` may differ from the typed one ("gm confirm-draw" for
    "lotto confirm"); ``line`` makes the typed line from the option values (None: ``/<name> "<value>" ...`` as a
    game's command); ``action`` names a Discord-only handler instead (a picture, the state card, a campaign's
    creation), found in bot/discord/shell_actions.py."""

    name: str
    description: str
    options: tuple[Option, ...] = ()
    line: LineOf | None = None
    action: str | None = None
    private: bool | Callable[[Mapping[str, Any]], bool] = False  # the answer for the author alone (ephemeral)
    embed_title: str | None = None
    offer_undo: bool = False

    def is_private(self, values: Mapping[str, Any]) -> bool:
        return self.private(values) if callable(self.private) else self.private


# A shell command with no Discord command of its own (typed only: /help, /status beside /turn status).
TYPED_ONLY = "typed only"


@dataclass(frozen=True)
class ShellCommand:
    """One shell command: its spec (name, help, arguments, GM only, example), its handler (None: Discord only, e.g.
    /campaign create, /map), its usage when the arguments alone do not say it, and its Discord face: given, or
    TYPED_ONLY, or None for one built from the spec's arguments as a game's command is."""

    spec: CommandSpec
    handler: Handler | None = None
    usage_text: str = ""
    discord: DiscordFace | str | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def typed(self) -> bool:
        return self.handler is not None

    def usage(self) -> str:
        return self.usage_text or self.spec.usage()
