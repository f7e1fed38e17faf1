"""The shell's commands, each declared once (``ShellCommand``: spec, handler, usage, Discord face), grouped by concern.

The parser, the usage lines and /help (bot/service/commands.py), the dispatch (bot/service/post_reading.py) and the
Discord application commands (bot/discord/shell_tree.py) are all built from ``SHELL``: a command added to one of
these modules is typed, helped, dispatched and registered on Discord with no other edit. A game's commands are bare
``CommandSpec``s from ``Ruleset.commands()``; a game cannot take a shell command's name.
"""
from __future__ import annotations

from bot.service.shell_commands import campaign, gm, lottery, reading, turns
from bot.service.shell_commands.model import (
    TYPED_ONLY, Command, CommandError, DiscordFace, Handler, Option, ShellCommand, done, quoted,
)

SHELL: tuple[ShellCommand, ...] = (*turns.COMMANDS, *gm.COMMANDS, *campaign.COMMANDS, *lottery.COMMANDS,
                                   *reading.COMMANDS)

# The Discord groups of the shell's commands ("gm undo" is /gm undo), with their descriptions. A group whose every
# command is GM only is hidden from other members by default on Discord (a hint: the dispatch checks).
GROUPS: dict[str, str] = {
    "campaign": "Set up and staff a campaign",
    "turn": "Open, close and follow the turns",
    "settings": "Your own settings in this campaign",
    "gm": "GM tools; every use leaves a trace in the log",
}


def typed_commands(commands: tuple[ShellCommand, ...] = SHELL) -> dict[str, ShellCommand]:
    """The commands that can be typed in a post, by name."""
    return {c.name: c for c in commands if c.typed}


__all__ = ["GROUPS", "SHELL", "TYPED_ONLY", "Command", "CommandError", "DiscordFace", "Handler", "Option",
           "ShellCommand", "done", "quoted", "typed_commands"]
