"""Each turn's own thread (text channel) or forum post: opened when the turn first becomes playing, whatever
made it so (a player's post, a slash command, a lottery draw the scheduler recorded), and stored, so that a
restart finds it even once Discord auto-archived it. Everything of a turn goes there: its announcement, its
pings, its reminders, its draws and its results.

The opener is an observer of the service (``Change``): observers run in the thread that made the change
(usually an ``asyncio.to_thread`` worker), so it hands the work to the bot's event loop.
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import timedelta
from typing import Any

import discord
from sqlmodel import Session

from bot.discord.made_once import lost_thread, opened_unsaved
from bot.discord.output import split_message, turn_announcement
from bot.site.links import page_url
from bot.schedule.scheduler import NotPosted, resume_unsent, schedule_turn_thread
from bot.store.campaigns import CampaignRow
from bot.store.creations import begin
from bot.store.discord_places import latest_turn_thread, save_turn_thread, turn_thread
from engine.ruleset import Summary

log = logging.getLogger("legatus.discord")

# A thread that could not be opened (Discord down, a permission missing) is tried again this much later.
RETRY_OPEN = timedelta(minutes=5)


class NowhereToPost(NotPosted):
    """A forum campaign with no turn post to put a message in yet: the message waits, it is not dropped."""


class TurnThreads:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # One opening at a time per campaign: the observer and a poster racing for the same new turn open one thread.
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # Caches of what the store says (rows never change place; a turn's thread id never changes once stored).
        self._rows: dict[int, CampaignRow] = {}
        self._ids: dict[tuple[int, int], str] = {}
        # Each campaign's summary after its latest change: where a ping goes, without folding the campaign again.
        self._summaries: dict[int, Summary] = {}

    # --- the observer -------------------------------------------------------------------------------------------------

    def observe(self, change: Any) -> None:
        summary = change.summary
        if summary is not None:
            self._summaries[change.campaign_id] = summary
        if summary is None or not summary.playing:
            return
        loop: asyncio.AbstractEventLoop | None = getattr(self.bot, "loop", None)
        if loop is None or loop.is_closed():
            return
        coroutine = self.open_turn(change.campaign_id, summary)
        tracked = getattr(self.bot, "tracked", None)  # a graceful stop waits for it
        if tracked is not None:
            coroutine = tracked(coroutine)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            future: Any = loop.create_task(coroutine)
        else:
            future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        future.add_done_callback(_log_failure)

    # --- where a turn's messages go -------------------------------------------------------------------------------

    async def _row(self, campaign_id: int) -> CampaignRow | None:
        row = self._rows.get(campaign_id)
        if row is None:
            row = await asyncio.to_thread(self._read_row, campaign_id)
            if row is not None:
                self._rows[campaign_id] = row
        return row

    def _read_row(self, campaign_id: int) -> CampaignRow | None:
        with Session(self.bot.service.engine) as session:
            return session.get(CampaignRow, campaign_id)

    def _read_thread_id(self, campaign_id: int, turn: int) -> str | None:
        with Session(self.bot.service.engine) as session:
            return turn_thread(session, campaign_id, turn)

    def _read_latest(self, campaign_id: int, at_most: int | None = None) -> tuple[int, str] | None:
        with Session(self.bot.service.engine) as session:
            return latest_turn_thread(session, campaign_id, at_most)

    async def channel(self, row: CampaignRow) -> Any:
        if not row.channel_id:
            return None
        channel = self.bot.get_channel(int(row.channel_id))
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(int(row.channel_id))
            except discord.HTTPException:
                log.warning("campaign %s: its channel %s cannot be read", row.name, row.channel_id, exc_info=True)
                return None
        return channel

    async def stored(self, campaign_id: int, turn: int) -> Any:
        """The stored thread of ``turn``, fetched if it is not cached (an archived thread never is)."""
        thread_id = self._ids.get((campaign_id, turn))
        if thread_id is None:
            thread_id = await asyncio.to_thread(self._read_thread_id, campaign_id, turn)
            if thread_id is not None:
                self._ids[(campaign_id, turn)] = thread_id
        return await self._thread(thread_id) if thread_id else None

    async def settled(self, campaign_id: int, turn: int) -> Any:
        """The stored thread of ``turn`` once any opening in progress is over; None if it has none. Never opens one:
        for messages that may be dropped (a heads-up), which must not be a third try at a failing opening."""
        async with self._locks[campaign_id]:
            pass
        return await self.stored(campaign_id, turn)

    async def _thread(self, thread_id: str) -> Any:
        thread = self.bot.get_channel(int(thread_id))
        if thread is not None:
            return thread
        try:
            return await self.bot.fetch_channel(int(thread_id))
        except discord.NotFound:
            return None  # deleted by a moderator: the turn's messages go to the channel (or wait, in a forum)

    async def open_turn(self, campaign_id: int, summary: Any = None) -> Any:
        """The thread of the campaign's current turn, opened (and announced) if the turn is playing and has none.
        None when there is no thread and none can be opened now; a failed opening is retried by the scheduler."""
        async with self._locks[campaign_id]:
            row = await self._row(campaign_id)
            if row is None:
                return None
            if summary is None:
                summary = await asyncio.to_thread(self.bot.service.summary, row.name)
            existing = await self.stored(campaign_id, summary.turn)
            if existing is not None or not summary.playing:
                return existing
            newest = await asyncio.to_thread(self._read_latest, campaign_id)
            if newest is not None and newest[0] > summary.turn:
                return None  # an older turn playing again (a GM undo): its thread is gone; no new one for it
            return await self._create(row, summary)

    async def _create(self, row: CampaignRow, summary: Any) -> Any:
        channel = await self.channel(row)
        name = summary.turn_label[:100]
        text = split_message(turn_announcement(summary, page_url(row.name)))
        assert row.id is not None
        # Claimed before the call, done with its save: a claim found open is an attempt cut between the two.
        replaced = self._ids.get((row.id, summary.turn)) or "first"  # a thread deleted by a moderator is replaced
        key = f"turn-thread:{row.id}:turn-{summary.turn}:{replaced}"
        try:
            creation = await asyncio.to_thread(begin, self.bot.service.engine, key, row.id, "turn-thread",
                                               row.channel_id)
            # Opened before but never saved (the process killed between the two): that thread, not a second one.
            thread: Any = (opened_unsaved(channel, name, self.bot.user) if creation.fresh
                           else await lost_thread(channel, name, self.bot.user))
            if isinstance(channel, discord.ForumChannel):
                if thread is None:
                    created = await channel.create_thread(name=name, content=text[0], applied_tags=forum_tags(channel))
                    thread = created.thread
            elif isinstance(channel, discord.TextChannel):
                if thread is None:
                    thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
                if not [m async for m in thread.history(limit=1)]:  # killed before its announcement, too
                    await thread.send(text[0])
            else:
                return None
        except discord.HTTPException:
            log.warning("could not open the thread of turn %s of %s; trying again later", summary.turn, row.name,
                        exc_info=True)
            self._retry(row, summary.turn)
            return None
        await asyncio.to_thread(save_turn_thread, self.bot.service.engine, row.id, summary.turn, str(thread.id), key)
        self._ids[(row.id, summary.turn)] = str(thread.id)
        for chunk in text[1:]:
            try:
                await thread.send(chunk)
            except discord.HTTPException:
                log.warning("turn %s of %s: part of its announcement was not posted", summary.turn, row.name)
        # Messages that waited for this thread (a forum campaign's draw, its first reminder) go out now. A read off
        # the event loop: 200 campaigns opening their turns at once would hold every other event behind it.
        await asyncio.to_thread(resume_unsent, row.id)
        return thread

    def _retry(self, row: CampaignRow, turn: int) -> None:
        assert row.id is not None
        schedule_turn_thread(row.id, turn, RETRY_OPEN)

    async def destination(self, campaign_id: int, turn: int | None = None) -> Any:
        """Where a message of ``turn`` (default: the current turn) goes: its thread; else, in a text channel, the
        channel; in a forum, the newest earlier turn's post. Raises NowhereToPost when there is none yet."""
        row = await self._row(campaign_id)
        if row is None or not row.channel_id:
            raise NowhereToPost(f"campaign {campaign_id} has no channel")
        current = self._summaries.get(campaign_id)
        if current is None:
            fetched: Summary = await asyncio.to_thread(self.bot.service.summary, row.name)
            current = fetched
            self._summaries.setdefault(campaign_id, current)
        turn = current.turn if turn is None else turn
        thread = await self.stored(campaign_id, turn)
        if thread is None and turn == current.turn and current.playing:
            thread = await self.open_turn(campaign_id, current)
        if thread is not None:
            return thread
        channel = await self.channel(row)
        if isinstance(channel, discord.ForumChannel):
            earlier = await asyncio.to_thread(self._read_latest, campaign_id, turn)
            thread = await self._thread(earlier[1]) if earlier else None
            if thread is None:
                raise NowhereToPost(f"campaign {row.name} is a forum with no turn post yet")
            return thread
        if channel is None or not hasattr(channel, "send"):
            raise NowhereToPost(f"campaign {row.name}: its channel {row.channel_id} cannot take messages")
        return channel


def _log_failure(future: Any) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("opening a turn's thread failed", exc_info=exc)


def forum_tags(forum: discord.ForumChannel) -> list[discord.ForumTag]:
    """The tag a turn's post carries where the forum requires one (Discord refuses an untagged post there, 40067):
    the first the bot may apply (a moderated tag needs Manage Threads). None where no tag is required: the server's
    own tags are its moderators' business."""
    if not forum.flags.require_tag:
        return []
    may_moderate = forum.permissions_for(forum.guild.me).manage_threads
    usable = [t for t in forum.available_tags if may_moderate or not t.moderated]
    if not usable:
        log.warning("forum %s requires a tag and has none the bot may apply: its turn posts will be refused", forum.id)
    return usable[:1]
