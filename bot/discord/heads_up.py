"""Posting the "you are next" heads-up (bot/service/heads_up.py) in the turn's thread, mentioning its player alone.

An observer of the service's changes: observers run in the worker thread of the post, so the posting is handed to
the bot's event loop, like the turn's thread (bot/discord/turn_threads.py).

Sent once across a kill at any point after its claim: claimed before the send (``claim_heads_ups``), recorded after
(``heads_ups_sent``), and sent with the claim's key as its nonce, so a send repeated within Discord's few minutes (a
quick restart, two processes during a deploy) returns the first message. At start-up, every claim still open is
finished (``finish_open``): the message an earlier attempt sent is looked up in the turn's thread since the claim (by
what every heads-up to that seat says, bot/discord/made_once.py) and recorded; if none is there, it is sent if still
true, else closed unsent (telling a player they are next after they played would mislead).
"""
from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.made_once import own_since
from bot.discord.output import user_ids
from bot.discord.poster import discord_nonce
from bot.service.post_queue import QueueClosed
from bot.service.heads_up import (
    HeadsUp, OpenHeadsUp, claim_heads_ups, heads_up, heads_ups_sent, marker, open_heads_ups, record_heads_up, still_due,
)
from bot.store.schedule_tables import NOTHING_SENT

log = logging.getLogger("legatus.discord")


class HeadsUps:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # Kept, so that the heads-ups of a burst share one call (PostQueue.call_many groups by the function).
        self._claim = functools.partial(claim_heads_ups, bot.service.engine)
        self._sent = functools.partial(heads_ups_sent, bot.service.engine)

    def observe(self, change: Any) -> None:
        told = heads_up(change)
        loop: asyncio.AbstractEventLoop | None = getattr(self.bot, "loop", None)
        if told is None or loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        coroutine = self.send(told)
        tracked = getattr(self.bot, "tracked", None)  # a graceful stop waits for it
        if tracked is not None:
            coroutine = tracked(coroutine)
        future: Any = loop.create_task(coroutine) if running is loop else asyncio.run_coroutine_threadsafe(coroutine, loop)
        future.add_done_callback(_log_failure)

    async def send(self, told: HeadsUp) -> Any:
        """The heads-up in the turn's thread; None when it is not due (turned off, already sent) or has nowhere to go."""
        # The thread of this very turn, opened by the turn's own observer; a heads-up never opens one itself.
        target = await self.bot.turn_places.settled(told.campaign_id, told.turn)
        if target is None:
            log.info("heads-up for %s not posted: turn %s of campaign %s has no thread", told.seat, told.turn,
                     told.campaign_id)
            return None
        if self.outdated(told):
            return None
        # Written by the bot's one writer thread, between batches of posts (bot/service/post_queue.py): from a
        # thread of its own each write would wait for SQLite's lock behind the posts of a burst.
        if not await self._write(self._claim, told):
            return None
        return await self._deliver(target, told)

    async def _deliver(self, target: Any, told: HeadsUp) -> Any:
        ids = user_ids([told.player])
        message = await target.send(
            told.text(), allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=i) for i in ids]) if ids
            else discord.AllowedMentions.none(), nonce=discord_nonce(told.key),
        )
        await self._write(self._sent, (told, str(message.id), str(target.id)))
        return message

    async def finish_open(self) -> None:
        """The heads-ups an earlier process claimed and never recorded (this process's shard's campaigns)."""
        shard = getattr(self.bot, "shard", None)
        for claimed in await asyncio.to_thread(open_heads_ups, self.bot.service.engine):
            if shard is not None and not shard.owns(claimed.guild_id):
                continue
            try:
                await self._finish(claimed)
            except Exception:  # one heads-up that cannot be finished must not keep the others
                log.exception("heads-up %s left by an earlier process could not be finished", claimed.key)

    async def _finish(self, claimed: OpenHeadsUp) -> None:
        target = await self.bot.turn_places.settled(claimed.campaign_id, claimed.turn)
        mine = await own_since(target, getattr(self.bot, "user", None), claimed.claimed_at) if target else []
        found = next((m for m in mine if marker(claimed.seat) in m.content), None)
        if found is not None:
            log.info("heads-up %s was sent by an earlier process (message %s): recorded", claimed.key, found.id)
            await asyncio.to_thread(record_heads_up, self.bot.service.engine, claimed.key, str(found.id),
                                    str(target.id))
            return
        told = await asyncio.to_thread(still_due, self.bot.service, claimed) if target else None
        if told is None:
            log.info("heads-up %s left unsent by an earlier process is no longer true (or has no thread): closed",
                     claimed.key)
            await asyncio.to_thread(record_heads_up, self.bot.service.engine, claimed.key, NOTHING_SENT, None)
            return
        log.info("heads-up %s left unsent by an earlier process: sent now", claimed.key)
        await self._deliver(target, told)

    def outdated(self, told: HeadsUp) -> bool:
        """The seat it says plays now no longer does (the campaign's latest change in this process says so): in a burst
        of passes the heads-up would name a seat that already played, to a player whose turn may have come. Left
        unclaimed: the turn coming back to that seat (an undo) tells them then."""
        view = self.bot.boards.current(told.campaign_id)
        return view is not None and (view.turn != told.turn or told.playing not in {seat for seat, _, _ in view.prompts})

    async def _write(self, function: Callable[[list[Any]], list[Any]], item: Any) -> Any:
        try:
            return await asyncio.wrap_future(self.bot.posts.call_many(function, item))
        except QueueClosed:  # the bot is stopping with this heads-up under way: written alone
            return (await asyncio.to_thread(function, [item]))[0]


def _log_failure(future: Any) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("a heads-up was not posted", exc_info=exc)
