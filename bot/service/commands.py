"""Slash commands written as text (``/turn open 2010-04-13``): split into a name and arguments, with the usage
lines and /help, all read from the declarations (bot/service/shell_commands/) and the game's ``CommandSpec``s.

The console and plain messages use this; Discord's own slash commands arrive already split and go to
the same handlers in bot/service/legatus.py.
"""
from __future__ import annotations

import shlex
from collections.abc import Collection, Sequence
from typing import Any

from bot.service import shell_commands
from bot.service.shell_commands.model import Command, CommandError
from engine.quote import quote
from engine.ruleset import CommandSpec, RefusesShellCommands, Ruleset

__all__ = ["COMMANDS", "Command", "CommandError", "help_text", "parse_command", "shell_refusals", "usage"]


def _shell_table() -> dict[str, tuple[str, str]]:
    """name -> (usage, who may use it) of the shell's typed commands."""
    return {c.name: (c.usage(), "gm" if c.spec.gm_only else "anyone")
            for c in shell_commands.typed_commands(shell_commands.SHELL).values()}


# The shell's typed commands as declared when this module was loaded: name -> (usage, who may use it).
COMMANDS: dict[str, tuple[str, str]] = _shell_table()


def _table(game: Sequence[CommandSpec] = ()) -> dict[str, tuple[str, str]]:
    """The shell's commands and the game's (``ruleset.commands()``), by name: a game cannot take a shell name."""
    table = _shell_table()
    for spec in game:
        table.setdefault(spec.name, (spec.usage(), "gm" if spec.gm_only else "anyone"))
    return table


def parse_command(line: str, game: Sequence[CommandSpec] = ()) -> Command:
    table = _table(game)
    text = line.strip()
    body = text[1:]
    try:
        words = shlex.split(body)
    except ValueError:
        words = body.split()
    if not words:
        raise CommandError(f"'{quote(text)}' is not a command; {help_text(game)}")
    first = words[0].lower()
    second = words[1].lower() if len(words) > 1 else ""
    if f"{first} {second}" in table:
        return Command(f"{first} {second}", words[2:], text, table[f"{first} {second}"][0])
    if first in table:
        return Command(first, words[1:], text, table[first][0])
    subs = [table[n][0] for n in table if n.startswith(first + " ")]
    if subs:
        shown = f"/{first} {second}".strip()
        raise CommandError(f"'{quote(shown)}' is not a command; try {', '.join(subs)}")
    raise CommandError(f"unknown command '/{quote(first)}'; {help_text(game)}")


def usage(name: str, game: Sequence[CommandSpec] = ()) -> str:
    return _table(game)[name][0]


def help_text(game: Sequence[CommandSpec] = (), leave_out: Collection[str] = ()) -> str:
    """Every command a campaign takes: the shell's but those its game has no use for (``leave_out``), and the game's,
    each with an example where the game gives one (the shell's examples are in their messages: a game's seats are
    not the shell's to name)."""
    examples = {spec.name: spec.example for spec in game if spec.example}
    return "commands: " + ", ".join(
        u + (f" (e.g. {examples[name]})" if name in examples else "")
        for name, (u, _) in _table(game).items() if name not in leave_out)


def shell_refusals(ruleset: Ruleset, state: Any) -> dict[str, str]:
    """The shell's commands the game has no use for, with what to do instead (``Ruleset.shell_refusals``, optional)."""
    return dict(ruleset.shell_refusals(state)) if isinstance(ruleset, RefusesShellCommands) else {}
