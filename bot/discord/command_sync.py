"""Registering the slash commands with Discord only when they changed.

A sync is a bulk overwrite of the application's commands; Discord rate-limits it hard (about 200 a day per
guild) and clients reload their command list after each. So the bot hashes the payload it would send for each
scope (the global commands, or one guild's) and syncs a scope only when the hash differs from the one stored
after the last successful sync of the same application.

With DISCORD_GUILD_ID (development), the commands live in that guild and the global scope is emptied: once,
because its stored hash is then the empty list's, so clients show no command twice.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger("legatus.discord")

STATE_SETTING = "LEGATUS_COMMANDS_STATE"
STATE_FILE = "legatus-commands.json"


def state_path(engine: Any) -> Path:
    """Where the hashes are kept: LEGATUS_COMMANDS_STATE, or beside a SQLite database, or the working folder."""
    chosen = os.environ.get(STATE_SETTING, "").strip()
    if chosen:
        return Path(chosen)
    url = getattr(engine, "url", None)
    database = getattr(url, "database", None)
    if getattr(url, "drivername", "").startswith("sqlite") and database and database != ":memory:":
        return Path(database).with_name(Path(database).name + ".commands.json")
    return Path(STATE_FILE)


def payload_hash(payload: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class SyncState:
    """The hash of the last synced payload per (application, scope), in a small JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # never synced, or unreadable: sync again, which is always safe
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, key: str) -> str | None:
        return self._read().get(key)

    def put(self, key: str, digest: str) -> None:
        data = self._read()
        data[key] = digest
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            temporary.replace(self.path)  # atomic: a crash leaves the old file or the new one
        except OSError:
            log.warning("could not store the command hash in %s: the commands will be synced again at next start",
                        self.path, exc_info=True)


async def sync_commands(tree: app_commands.CommandTree[Any], application_id: int | None, state: SyncState,
                        guild: discord.abc.Snowflake | None) -> list[str]:
    """Sync each scope whose payload changed; returns the scopes synced ("global", "guild <id>")."""
    synced: list[str] = []
    scopes: list[tuple[str, discord.abc.Snowflake | None]] = []
    if guild is not None:
        tree.copy_global_to(guild=guild)
        tree.clear_commands(guild=None)  # the global scope is emptied: no command shown twice
        scopes.append((f"guild {guild.id}", guild))
    scopes.append(("global", None))
    for label, scope in scopes:
        payload = [command.to_dict(tree) for command in tree.get_commands(guild=scope)]
        digest = payload_hash(payload)
        key = f"{application_id}:{label}"
        if state.get(key) == digest:
            log.info("slash commands (%s) unchanged: not synced", label)
            continue
        await tree.sync(guild=scope)
        state.put(key, digest)
        synced.append(label)
        log.info("slash commands (%s) synced: %d command(s)", label, len(payload))
    return synced
