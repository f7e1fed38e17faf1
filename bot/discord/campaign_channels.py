"""Which channels and forums host a campaign, held in memory: a message elsewhere is dropped without a database read.

Every plain message in every channel the bot can see reaches ``on_message``; a query per message, on the event loop,
is what a busy server's chatter would queue the campaigns' posts behind. The set is read whole at start-up and after
every gateway resume (off the loop), and grows at once when this process creates a campaign (Legatus.created).

A campaign another process created (`legatus new`, `legatus post` with no bot, another shard) is learnt without a
restart: a message in a channel not in the set reads the set again, at most once per ``refresh`` seconds whatever
the number of such messages (the misses of one moment share one read). A miss inside that interval is dropped at
once, its channel and message remembered (a bounded few); the read due at the interval's end then tells whether the
channel hosts a campaign after all, and if so the catch-up reads it from that message (bot/discord/catch_up.py), so
a new campaign's first posts are not lost to a neighbour's chatter.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from bot.store.campaigns import CampaignRow

log = logging.getLogger("legatus.discord")

REFRESH_SECONDS = 1.0
MISSES_KEPT = 1000  # channels whose dropped message is remembered until the next read (chatter beyond: forgotten)


def hosting_channels(engine: Engine) -> set[str]:
    """The channel (or forum) id of every campaign that has one."""
    with Session(engine) as session:
        ids = session.exec(select(CampaignRow.channel_id).where(col(CampaignRow.channel_id).is_not(None))).all()
    return {i for i in ids if i}


class CampaignChannels:
    def __init__(self, engine: Engine, refresh: float = REFRESH_SECONDS) -> None:
        self._engine = engine
        self._ids: set[str] = set()
        self.refresh = refresh
        self.reads = 0  # how many reads of the set are over (tests, the log)
        # Told of channels a read revealed where a message was dropped meanwhile: channel id -> the first such message.
        self.found: Callable[[dict[str, int]], object] | None = None
        self._read_at: float | None = None  # the loop's time of the last read
        self._reading: asyncio.Task[None] | None = None
        self._later: asyncio.TimerHandle | None = None
        self._missed: dict[str, int] = {}

    async def reload(self) -> None:
        """Read the set again; a channel it reveals where a message was dropped meanwhile goes to ``found``."""
        known = set(self._ids)
        ids = await asyncio.to_thread(hosting_channels, self._engine)
        self.reads += 1
        # What ``created`` added during the read stays (the read may have begun before that campaign's commit).
        self._ids = ids | (self._ids - known)
        self._read_at = asyncio.get_running_loop().time()
        if self._later is not None:
            self._later.cancel()
            self._later = None
        missed, self._missed = self._missed, {}
        learnt = {c: m for c, m in missed.items() if c in self._ids}
        if learnt and self.found is not None:
            self.found(learnt)

    def created(self, row: CampaignRow) -> None:
        """Legatus.created's hook: called on the writer thread; a set's add is atomic under the GIL."""
        if row.channel_id:
            self._ids.add(row.channel_id)

    def hosts(self, channel_id: str) -> bool:
        return channel_id in self._ids

    async def knows(self, channel_id: str, message_id: int) -> bool:
        """Whether ``channel_id`` hosts a campaign, reading the set again on a miss (at most once per ``refresh``)."""
        if channel_id in self._ids:
            return True
        loop = asyncio.get_running_loop()
        if self._reading is None and (self._read_at is None or loop.time() - self._read_at >= self.refresh):
            self._reading = loop.create_task(self._read_now())
        if self._reading is not None:
            await asyncio.shield(self._reading)
            return channel_id in self._ids
        if channel_id in self._missed or len(self._missed) < MISSES_KEPT:
            self._missed.setdefault(channel_id, message_id)
        if self._later is None:
            assert self._read_at is not None
            self._later = loop.call_at(self._read_at + self.refresh, self._read_later)
        return False

    async def _read_now(self) -> None:
        try:
            await self.reload()
        except Exception:  # the next miss reads again; a post waiting on this read is dropped, as before
            log.exception("the campaign channels could not be read again")
        finally:
            self._reading = None

    def _read_later(self) -> None:
        self._later = None
        if self._reading is None:
            self._reading = asyncio.get_running_loop().create_task(self._read_now())
