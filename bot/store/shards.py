"""Which campaigns a bot process serves when the bot runs sharded (one process per shard, one database).

Discord splits a bot's guilds between gateway connections ("shards"): a guild belongs to shard
``(guild_id >> 22) % shard_count`` and only that shard receives its events. A Legatus process started as shard
``i`` of ``n`` therefore answers only that shard's guilds, and its scheduler acts only for their campaigns.
A campaign with no guild (made on the command line or the console) belongs to shard 0, as a DM does on Discord.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

SHARD_ID = "LEGATUS_SHARD_ID"
SHARD_COUNT = "LEGATUS_SHARD_COUNT"
# Discord allows 2,500 guilds per shard; no bot needs more shards than this to be served.
MAX_SHARDS = 65_536


def shard_of(guild_id: str | int | None, count: int) -> int:
    """The shard Discord delivers a guild's events on (discord.Guild.shard_id computes the same)."""
    if guild_id is None or str(guild_id).strip() == "":
        return 0
    return (int(guild_id) >> 22) % count


@dataclass(frozen=True)
class Shard:
    """``id`` None: every shard of ``count`` (one process runs them all, discord.py's AutoShardedClient)."""

    id: int | None = None
    count: int = 1

    def owns(self, guild_id: str | int | None) -> bool:
        return self.id is None or shard_of(guild_id, self.count) == self.id

    @property
    def whole(self) -> bool:
        """True when this process serves every guild (unsharded, or all shards in one process)."""
        return self.id is None or self.count == 1

    @property
    def name(self) -> str:
        """A label for logs and for the names of what the shard owns (its job table, its scheduler lease)."""
        return "all" if self.whole else f"{self.id}-of-{self.count}"

    def describe(self) -> str:
        if self.id is None:
            return "all shards" if self.count == 1 else f"all {self.count} shards"
        return f"shard {self.id} of {self.count}"


ALL = Shard()


def shard_from(shard_id: str | int | None, shard_count: str | int | None) -> Shard:
    """The shard of ``legatus run`` from its options or environment; ValueError quoting what was wrong."""
    def number(what: str, value: str | int) -> int:
        text = str(value).strip()
        if not text.isdigit():
            raise ValueError(f"{what} must be a whole number, not {text!r} (e.g. {what}=0)")
        return int(text)

    has_id = shard_id is not None and str(shard_id).strip() != ""
    has_count = shard_count is not None and str(shard_count).strip() != ""
    if not has_id and not has_count:
        return ALL
    if has_id and not has_count:
        raise ValueError(f"a shard id ({str(shard_id).strip()!r}) needs the shard count too: set {SHARD_COUNT} "
                         "(or --shard-count) to the number of shards all processes share")
    count = number(SHARD_COUNT, shard_count)  # type: ignore[arg-type]  # has_count: not None
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"{SHARD_COUNT} must be between 1 and {MAX_SHARDS}, not {count}")
    if not has_id:
        return Shard(None, count)
    sid = number(SHARD_ID, shard_id)  # type: ignore[arg-type]  # has_id: not None
    if sid >= count:
        raise ValueError(f"{SHARD_ID} must be below the shard count: shards of {count} are numbered 0 to {count - 1}, "
                         f"not {sid}")
    return Shard(sid, count)


def shard_from_env(env: Mapping[str, str] | None = None) -> Shard:
    env = os.environ if env is None else env
    return shard_from(env.get(SHARD_ID), env.get(SHARD_COUNT))
