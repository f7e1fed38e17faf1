"""The commands are synced again when their payload changed: the shell's seat options, once named "nation", are
registered anew at the first start after the rename (bot/discord/command_sync.py), and not again after it."""
from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any, cast

import discord
from discord import app_commands

from bot.discord.command_sync import SyncState, payload_hash, sync_commands
from bot.discord.shell_tree import shell_tree


class _Tree:
    """What sync_commands uses of a CommandTree: the commands of a scope, and the sync it counts."""

    def __init__(self, commands: list[Any]) -> None:
        self.commands = commands
        self.real = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        self.synced: list[Any] = []

    def get_commands(self, guild: Any = None) -> list[Any]:
        return self.commands

    async def sync(self, guild: Any = None) -> None:
        self.synced.append(guild)


class _Command:
    def __init__(self, command: Any, tree: _Tree) -> None:
        self.command, self.tree = command, tree

    def to_dict(self, tree: Any) -> dict[str, Any]:
        return dict(self.command.to_dict(self.tree.real))


def _seat_options_named(payload: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The payload with the shell's seat options renamed ``name``: what a bot before the rename registered."""
    old = copy.deepcopy(payload)
    for command in old:
        for sub in command.get("options") or []:
            for option in sub.get("options") or []:
                if option["name"] == "seat":
                    option["name"] = name
    return old


def test_the_renamed_seat_options_are_synced_once(tmp_path: Path) -> None:
    top, _, _ = shell_tree(object())
    tree = _Tree([])
    tree.commands = [_Command(c, tree) for c in top]
    payload = [c.to_dict(tree) for c in tree.commands]
    assigned = next(o for c in payload if c["name"] == "campaign" for o in c["options"] if o["name"] == "assign")
    assert [o["name"] for o in assigned["options"]] == ["seat", "player"]
    before = _seat_options_named(payload, "nation")
    assert before != payload and payload_hash(before) != payload_hash(payload)
    state = SyncState(tmp_path / "commands.json")
    state.put("7:global", payload_hash(before))  # the last sync, by a bot from before the rename
    as_tree = cast(Any, tree)  # sync_commands' part of a CommandTree
    assert asyncio.run(sync_commands(as_tree, 7, state, None)) == ["global"]
    assert asyncio.run(sync_commands(as_tree, 7, state, None)) == []
    assert tree.synced == [None] and state.get("7:global") == payload_hash(payload)
