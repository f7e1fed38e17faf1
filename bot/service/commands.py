"""Slash commands written as text (``/turn open 2010-04-13``): split into a name and arguments.

The console and plain messages use this; Discord's own slash commands arrive already split and go to
the same handlers in bot/service/legatus.py.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from engine.quote import quote

# name -> (usage, who may use it)
COMMANDS: dict[str, tuple[str, str]] = {
    "turn open": ("/turn open [YYYY-MM-DD]", "gm"),
    "turn close": ("/turn close", "gm"),
    "turn status": ("/turn status", "anyone"),
    "status": ("/status", "anyone"),
    "battle": ("/battle <province> winner <nation or force>", "anyone"),
    "order": ("/order <nation> <order>", "anyone"),
    "gm pass": ("/gm pass <nation> [reason]", "gm"),
    "gm undo": ("/gm undo [reason]", "gm"),
    "gm void": ("/gm void <reason>", "gm"),
    "gm lock": ("/gm lock [reason]", "gm"),
    "gm extend": ("/gm extend <nation> <hours>", "gm"),
    "gm deadline": ("/gm deadline <nation> <YYYY-MM-DD HH:MM, in the campaign's time zone>", "gm"),
    "gm unlock": ("/gm unlock [reason]", "gm"),
    "gm set": ("/gm set <stability|actions|owner|fortification|suburbs|temple|fleets> <target> <value> [reason]", "gm"),
    "campaign assign": ("/campaign assign <nation> <player>", "gm"),
    "campaign settings": ("/campaign settings [timezone=Europe/Rome] [player_hours=48] [remind_hours_before=12] [on_timeout=pass|wait]", "gm"),
    "campaign reveal": ("/campaign reveal", "gm"),
    "roll": ("/roll <dice> [label]", "gm"),
    "ledger": ("/ledger", "anyone"),
    "lotto confirm": ("/lotto confirm <YYYY-MM-DD> <WHEEL n1 n2 n3 n4 n5; WHEEL ...>", "gm"),
    "state": ("/state", "anyone"),
    "help": ("/help", "anyone"),
}


@dataclass(frozen=True)
class Command:
    name: str
    args: list[str]
    text: str


class CommandError(ValueError):
    pass


def parse_command(line: str) -> Command:
    text = line.strip()
    body = text[1:]
    try:
        words = shlex.split(body)
    except ValueError:
        words = body.split()
    if not words:
        raise CommandError(f"'{quote(text)}' is not a command; {help_text()}")
    first = words[0].lower()
    second = words[1].lower() if len(words) > 1 else ""
    if f"{first} {second}" in COMMANDS:
        return Command(f"{first} {second}", words[2:], text)
    if first in COMMANDS:
        return Command(first, words[1:], text)
    subs = [COMMANDS[n][0] for n in COMMANDS if n.startswith(first + " ")]
    if subs:
        shown = f"/{first} {second}".strip()
        raise CommandError(f"'{quote(shown)}' is not a command; try {', '.join(subs)}")
    raise CommandError(f"unknown command '/{first}'; {help_text()}")


def usage(name: str) -> str:
    return COMMANDS[name][0]


def help_text() -> str:
    return "commands: " + ", ".join(u for u, _ in COMMANDS.values())
