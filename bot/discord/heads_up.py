"""Posting the "you are next" heads-up (bot/service/heads_up.py) in the turn's thread, mentioning its player alone.

An observer of the service's changes: observers run in the worker thread of the post, so the posting is handed to
the bot's event loop, like the turn's thread (bot/discord/turn_threads.py).
"""
from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord.output import user_ids
from bot.service.post_queue import QueueClosed
from bot.service.heads_up import HeadsUp, claim_heads_ups, heads_up, heads_ups_sent

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
        ids = user_ids([told.player])
        message = await target.send(
            told.text(), allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=i) for i in ids]) if ids
            else discord.AllowedMentions.none(),
        )
        await self._write(self._sent, (told, str(message.id), str(target.id)))
        return message

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
