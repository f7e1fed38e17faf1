"""Slash commands written as text (``/turn open 2010-04-13``): split into a name and arguments.

The console and plain messages use this; Discord's own slash commands arrive already split and go to
the same handlers in bot/service/legatus.py.
"""
from __future__ import annotations

import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from engine.quote import quote

from engine.ruleset import CommandSpec, RefusesShellCommands, Ruleset

# name -> (usage, who may use it)
COMMANDS: dict[str, tuple[str, str]] = {
    "turn open": ("/turn open [YYYY-MM-DD]", "gm"),
    "turn close": ("/turn close", "gm"),
    "turn status": ("/turn status", "anyone"),
    "status": ("/status", "anyone"),
    "order": ("/order <nation> <order>", "anyone"),
    "gm undo": ("/gm undo [reason]", "gm"),
    "gm void": ("/gm void <reason>", "gm"),
    "gm lock": ("/gm lock [reason]", "gm"),
    "gm extend": ("/gm extend <nation> <hours>", "gm"),
    "gm deadline": ("/gm deadline <nation> <YYYY-MM-DD HH:MM, in the campaign's time zone>", "gm"),
    "gm unlock": ("/gm unlock [reason]", "gm"),
    "campaign assign": ("/campaign assign <nation> <player>", "gm"),
    "campaign settings": ("/campaign settings [timezone=Europe/Rome] [player_hours=48] [remind_hours_before=12] [on_timeout=pass|wait]", "gm"),
    "campaign reveal": ("/campaign reveal", "gm"),
    "roll": ("/roll <dice> [label]", "gm"),
    "ledger": ("/ledger", "anyone"),
    "lotto confirm": ("/lotto confirm <YYYY-MM-DD> <WHEEL n1 n2 n3 n4 n5; WHEEL ...>", "gm"),
    "lotto cancelled": ("/lotto cancelled <YYYY-MM-DD> <reason>", "gm"),
    "state": ("/state", "anyone"),
    "private": ("/private", "anyone"),
    "settings": ("/settings [heads-up on|off]", "anyone"),
    "undo": ("/undo [order number]", "anyone"),
    "help": ("/help", "anyone"),
}


@dataclass(frozen=True)
class Command:
    name: str
    args: list[str]
    text: str


class CommandError(ValueError):
    pass


def _table(game: Sequence[CommandSpec] = ()) -> dict[str, tuple[str, str]]:
    """The shell's commands and the game's (``ruleset.commands()``), by name."""
    table = dict(COMMANDS)
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
        return Command(f"{first} {second}", words[2:], text)
    if first in table:
        return Command(first, words[1:], text)
    subs = [table[n][0] for n in table if n.startswith(first + " ")]
    if subs:
        shown = f"/{first} {second}".strip()
        raise CommandError(f"'{quote(shown)}' is not a command; try {', '.join(subs)}")
    raise CommandError(f"unknown command '/{quote(first)}'; {help_text(game)}")


def usage(name: str, game: Sequence[CommandSpec] = ()) -> str:
    return _table(game)[name][0]


def help_text(game: Sequence[CommandSpec] = (), leave_out: Collection[str] = ()) -> str:
    """Every command a campaign takes: the shell's but those its game has no use for (``leave_out``), and the game's,
    each with an example where the game gives one."""
    examples = {spec.name: spec.example for spec in game if spec.example}
    return "commands: " + ", ".join(
        u + (f" (e.g. {examples[name]})" if name in examples else "")
        for name, (u, _) in _table(game).items() if name not in leave_out)


def shell_refusals(ruleset: Ruleset, state: Any) -> dict[str, str]:
    """The shell's commands the game has no use for, with what to do instead (``Ruleset.shell_refusals``, optional)."""
    return dict(ruleset.shell_refusals(state)) if isinstance(ruleset, RefusesShellCommands) else {}
