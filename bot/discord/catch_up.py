"""Catch-up: the posts made while the bot was away (stopped, restarting, disconnected) are read, applied and
answered, in order, as if it had been there, each answer saying it was read late.

Each campaign place (its channel, its turns' threads) has a read mark in the store, moved in the same
transaction as the posts it covers (bot/store/read_marks.py). At start-up and after every gateway resume the bot
reads each place's history after its mark (Discord's ``after=``, paged by discord.py, whose rate limiter honours
Discord's limits) and takes every post it finds there, through the same path as a live post.

A live post must neither overtake a late one nor be taken twice when the history holds it too: while a place is
being caught up its live posts wait (``admit``), and every message this process took is remembered per place by the
newest id taken (message ids are snowflakes, increasing with time within a channel).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord
from sqlmodel import Session

from bot.store.campaigns import CampaignRow, list_campaigns
from bot.store.discord_places import turn_threads
from bot.store.read_marks import Seen, read_marks, save_read_marks

log = logging.getLogger("legatus.discord")

# Said at the head of a late post's answer: the player learns why it came late, and that nothing was lost.
READ_LATE = "(Read late: this was posted while Legatus was away.)"
# Campaigns whose history is read at the same time: discord.py's rate limiter queues the rest anyway, and a few in
# flight keep a start with hundreds of campaigns from holding every live post behind all of them.
AT_ONCE = 8
RETRIES = 5  # a failed catch-up is run again after 1, 2, 4, 8 and 16 s (RETRY_PAUSE doubled), then left to the next resume
RETRY_PAUSE = 1.0


@dataclass(frozen=True)
class Place:
    """A channel or thread where a campaign's posts are read, and its stored mark (None: nothing taken there yet)."""
    campaign: CampaignRow
    place_id: int
    mark: int | None
    # An older turn's thread: read only while it is open (active), as a post there is taken like any other and a
    # post unarchives it; an archived one has had nothing posted since, and is not read (a long campaign has many).
    if_open: bool = False


def places_to_read(engine: Any, shard: Any) -> list[Place]:
    """The places a catch-up reads: each campaign's channel, its newest turn thread, and its older turns' threads
    (read where still open, ``Place.if_open``). A turn thread is marked when it is opened
    (bot/store/discord_places.py), a channel at its first post taken."""
    with Session(engine) as session:
        rows = [r for r in list_campaigns(session) if r.id is not None and r.channel_id and shard.owns(r.guild_id)]
        marks = read_marks(session, [r.id for r in rows if r.id is not None])
        places: list[Place] = []
        for row in rows:
            assert row.id is not None and row.channel_id is not None
            threads = [i for _, i in turn_threads(session, row.id)]
            places += [Place(row, int(i), marks.get(i), if_open=i in threads[:-1])
                       for i in [row.channel_id, *threads] if i.isdigit()]
    return places


def is_post(message: discord.Message, bot_user: Any) -> bool:
    """A message the bot reads as a post: a person's, with text, in a guild (the filter of ``on_message``)."""
    return not (message.author.bot or message.guild is None or not message.content or message.author == bot_user)


class CatchUp:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # place id -> the newest message id this process took there (live or late).
        self._taken: dict[int, int] = {}
        # place id -> set once its catch-up is over; its live posts wait for it.
        self._gates: dict[int, asyncio.Event] = {}
        self._begun: asyncio.Event | None = None
        self._running: asyncio.Task[None] | None = None
        self._again: str | None = None  # why another catch-up was asked for while one ran
        self._failed = False  # a campaign's catch-up failed in the current run: it is run again
        self.read_late = 0  # posts taken late by this process (tests, the log)

    def _begun_event(self) -> asyncio.Event:
        if self._begun is None:  # made on the bot's loop, not at construction (no loop runs yet then)
            self._begun = asyncio.Event()
        return self._begun

    async def admit(self, message: discord.Message) -> bool:
        """Whether a live post is to be taken now: once the first catch-up knows its places and this place's is
        over; False when a catch-up took it already."""
        begun = self._begun_event()
        if not begun.is_set():
            await begun.wait()
        gate = self._gates.get(message.channel.id)
        if gate is not None:
            await gate.wait()
        return self._take(message.channel.id, message.id)

    def _take(self, place_id: int, message_id: int) -> bool:
        if message_id <= self._taken.get(place_id, 0):
            return False
        self._taken[place_id] = message_id
        return True

    def start(self, why: str) -> None:
        """Catch up now (start-up, a gateway resume); one at a time: asked again while one runs, another follows."""
        if self.bot.stopping:
            return
        if self._running is not None and not self._running.done():
            self._again = why
            return
        self._running = asyncio.get_running_loop().create_task(self._run(why), name="legatus-catch-up")
        self.bot.track(self._running)

    async def _run(self, why: str) -> None:
        retries = 0
        while True:
            self._again = None
            self._failed = False
            try:
                await self.catch_up(why)
            except Exception:  # a live post must never wait for good on a failed catch-up: its gates are open again
                self._failed = True
                log.exception("catch-up after %s failed; it is tried again", why)
            if self.bot.stopping:
                return
            if self._again is None and self._failed and retries < RETRIES:
                # A campaign's catch-up that failed (the database busy past its timeout) would leave its posts made
                # while away unread until the next resume: read again after a pause, a bounded number of times.
                retries += 1
                await asyncio.sleep(RETRY_PAUSE * 2 ** (retries - 1))
                if self.bot.stopping:
                    return
                self._again = self._again or f"a failed catch-up (retry {retries})"
            if self._again is None:
                return
            why = self._again  # asked again meanwhile (a resume) or a retry: what came since is read now

    async def catch_up(self, why: str) -> None:
        gates: dict[int, asyncio.Event] = {}
        try:
            places = [p for p in await asyncio.to_thread(places_to_read, self.bot.service.engine, self.bot.shard)
                      if not p.if_open or self.bot.get_channel(p.place_id) is not None]  # the cache: open threads
            for place in places:
                if place.place_id not in self._gates:
                    gates[place.place_id] = self._gates[place.place_id] = asyncio.Event()
        finally:
            self._begun_event().set()  # from here on, a live post waits only for its own place
        by_campaign: dict[int, list[Place]] = {}
        for place in places:
            assert place.campaign.id is not None
            by_campaign.setdefault(place.campaign.id, []).append(place)
        at_once = asyncio.Semaphore(AT_ONCE)
        before = self.read_late
        try:
            await asyncio.gather(*(self._campaign(p, gates, at_once) for p in by_campaign.values()))
        finally:
            self._open(gates, gates)
        log.info("caught up after %s: %d campaigns, %d places read, %d posts read late", why, len(by_campaign),
                 len(places), self.read_late - before)

    def _open(self, gates: dict[int, asyncio.Event], which: Iterable[int]) -> None:
        for place_id in list(which):
            gate = gates.get(place_id)
            if gate is not None:
                gate.set()
                if self._gates.get(place_id) is gate:
                    del self._gates[place_id]

    async def _campaign(self, places: list[Place], gates: dict[int, asyncio.Event], at_once: asyncio.Semaphore) -> None:
        """Read the campaign's places, then take their unread posts in the order they were sent (across its
        channel and thread: a snowflake's order is time's)."""
        campaign = places[0].campaign
        try:
            async with at_once:
                unread: list[discord.Message] = []
                first_met: list[Seen] = []
                for place in places:
                    if self.bot.stopping:
                        return
                    found, met = await self._read(place)
                    unread += found
                    first_met += [met] if met is not None else []
                if first_met:
                    await asyncio.to_thread(save_read_marks, self.bot.service.engine, first_met)
            unread.sort(key=lambda m: m.id)
            taken = [m for m in unread if self._take(m.channel.id, m.id) and is_post(m, self.bot.user)
                     and m.content.strip().lower() != "/state"]  # a state card asked for then is not news now
            if not taken or self.bot.stopping:
                return
            log.info("campaign %s: %d posts made while away, read late", campaign.name, len(taken))
            # Queued in order (each task enters the campaign's queue before the next starts), answered as they come.
            work = [self.bot.track(asyncio.ensure_future(self._late(m, campaign))) for m in taken]
            await asyncio.gather(*work, return_exceptions=True)
        except Exception:
            self._failed = True
            log.exception("catch-up of campaign %s failed", campaign.name)
        finally:
            self._open(gates, [p.place_id for p in places])

    async def _read(self, place: Place) -> tuple[list[discord.Message], Seen | None]:
        """The messages of ``place`` after its mark and after what this process took there, oldest first. A place
        without a mark (a campaign older than the marks, or one no post was taken in yet) is marked at its newest
        message and nothing before is taken: what an earlier version applied there cannot be told apart."""
        channel = await self._channel(place.place_id)
        if channel is None or not hasattr(channel, "history"):
            return [], None  # gone, or a forum (its posts are its threads)
        assert place.campaign.id is not None
        after = max(place.mark or 0, self._taken.get(place.place_id, 0))
        try:
            if not after:
                newest = [m async for m in channel.history(limit=1)]
                mark = newest[0].id if newest else place.place_id  # empty: every message to come is after its id
                return [], Seen(place.campaign.id, str(place.place_id), mark)
            found = [m async for m in channel.history(limit=None, after=discord.Object(id=after), oldest_first=True)]
            return found, None
        except discord.HTTPException:
            log.warning("catch-up: the messages of %s (campaign %s) cannot be read", place.place_id,
                        place.campaign.name, exc_info=True)
            return [], None

    async def _channel(self, place_id: int) -> Any:
        channel = self.bot.get_channel(place_id)
        if channel is not None:
            return channel
        try:
            return await self.bot.fetch_channel(place_id)  # an archived thread is never in the cache
        except discord.HTTPException:
            return None

    async def _late(self, message: discord.Message, campaign: CampaignRow) -> None:
        if not isinstance(message.author, discord.Member) and campaign.gm_role_id and message.guild is not None:
            # A message read back from history carries its author as a user: the GM check needs their roles.
            try:
                message.author = await message.guild.fetch_member(message.author.id)
            except discord.HTTPException:
                pass  # left the server: not the campaign's GM
        self.read_late += 1
        try:
            await self.bot.handle_post(message, campaign, late=True)
        except Exception:
            log.exception("a post read late (%s in %s) was not answered", message.id, campaign.name)


async def read_missed(bot: Any, missed: dict[str, int]) -> None:
    """Channels found to host a campaign another process created, where messages were dropped before the bot knew
    (bot/discord/campaign_channels.py): each is marked just before its first dropped message, and a catch-up reads
    from there."""
    def mark() -> None:
        seen = []
        for channel_id, first in missed.items():
            row = bot.service.campaign_for_channel(channel_id)
            if row is not None and row.id is not None:
                seen.append(Seen(row.id, channel_id, first - 1))
        save_read_marks(bot.service.engine, seen)

    await asyncio.to_thread(mark)
    bot.catch_up.start("a campaign created by another process")

