"""An open window's countdown on Discord: while the game asks seats in a ``WINDOW`` prompt (every seat acts at
once until a deadline or until all are done), one message in the turn's thread says who trades and when the
window closes, as a live Discord timestamp (``<t:…:R>``: every reader sees it count down in their own time zone);
it is edited in place as seats finish, and edited a last time to say the window is closed when the prompts end.

An observer of the service's changes, like the status board: the edit is handed to the bot's loop, one campaign
at a time, in order. The message is remembered in memory: after a restart the next window gets a new one. The
console and ``legatus post`` show the same deadline in /status ("Deadlines").
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

import discord
from sqlmodel import Session, select

from bot.discord.turn_threads import NowhereToPost
from bot.service.deadlines import discord_when
from bot.store.schedule_tables import ACTIVE, PLAYER_TURN, DeadlineRow
from engine.ruleset import WINDOW

log = logging.getLogger("legatus.discord")

CLOSED = "⌛ **The window is closed.**"


def countdown_text(seats: tuple[str, ...], due: datetime | None) -> str:
    who = ", ".join(seats)
    when = f"closes {discord_when(due)}" if due is not None else "has no deadline set"
    return f"⏳ **Open window**: {who} still trading. It {when}, or when everyone says done."


def window_due(engine: Any, campaign_id: int, seats: tuple[str, ...]) -> datetime | None:
    """The latest running deadline of the seats in the window (they are asked together, so they share it)."""
    with Session(engine) as session:
        rows = session.exec(select(DeadlineRow).where(DeadlineRow.campaign_id == campaign_id,
                                                      DeadlineRow.kind == PLAYER_TURN)).all()
    due = [d.due_at for d in rows if d.state in ACTIVE and d.seat in seats]
    return max(due) if due else None


class WindowCountdowns:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._messages: dict[int, Any] = {}  # campaign id -> the countdown message shown now
        self._texts: dict[int, str] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def observe(self, change: Any) -> None:
        if change.ruleset is None:
            return
        seats = tuple(p.seat for p in change.ruleset.prompts(change.state) if p.mode == WINDOW)
        if not seats and change.campaign_id not in self._messages:
            return  # no window, none shown: nothing to do (most changes of most games)
        loop: asyncio.AbstractEventLoop | None = getattr(self.bot, "loop", None)
        if loop is None or loop.is_closed():
            return
        coroutine = self.bot.tracked(self.show(change.campaign_id, seats))
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        future: Any = loop.create_task(coroutine) if running is loop else asyncio.run_coroutine_threadsafe(coroutine, loop)
        future.add_done_callback(_log_failure)

    async def show(self, campaign_id: int, seats: tuple[str, ...]) -> Any:
        """Post, edit or close the campaign's countdown for the seats in the window now (none: closed)."""
        async with self._locks[campaign_id]:
            shown = self._messages.get(campaign_id)
            if not seats:
                self._messages.pop(campaign_id, None)
                self._texts.pop(campaign_id, None)
                return await shown.edit(content=CLOSED) if shown is not None else None
            # The deadlines are written by the scheduler's observer of the same change: give it a moment.
            due = None
            for _ in range(10):
                due = await asyncio.to_thread(window_due, self.bot.service.engine, campaign_id, seats)
                if due is not None:
                    break
                await asyncio.sleep(0.1)
            text = countdown_text(seats, due)
            if shown is not None:
                if self._texts.get(campaign_id) != text:
                    self._texts[campaign_id] = text
                    await shown.edit(content=text)
                return shown
            try:
                target = await self.bot.turn_places.destination(campaign_id)
            except NowhereToPost:
                return None
            message = await target.send(text, allowed_mentions=discord.AllowedMentions.none())
            self._messages[campaign_id], self._texts[campaign_id] = message, text
            return message


def _log_failure(future: Any) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.error("a window's countdown was not shown", exc_info=exc)
