"""A status board per campaign: one message pinned in its channel and edited in place as the turn moves.

It shows the turn, who is to play (the game's ``prompts``) with their deadline as a Discord timestamp (each
reader sees it in their own time zone), and who has finished this turn (their deadline for it ended while they
no longer act). Its message id is stored (bot/store/discord_places.py), so a restart edits the same message.

Rate-limit friendly: an observer of the service marks the campaign's board stale; one edit follows after
``COALESCE`` seconds, whatever the number of changes in between (a burst of passes is one edit). Text channels
only: a forum takes no messages of its own (each turn's post carries its announcement instead).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import discord
from sqlmodel import Session, select

from bot.discord.made_once import BOARD_HEADING, lost_board
from bot.discord.output import DISCORD_LIMIT
from bot.discord.poster import discord_nonce
from bot.service.deadlines import discord_when, seat_players
from bot.service.post_queue import QueueClosed
from bot.store.campaigns import CampaignRow
from bot.store.creations import begin
from bot.store.discord_places import save_status_board, status_board
from bot.store.schedule_tables import ACTIVE, PLAYER_TURN, DeadlineRow

log = logging.getLogger("legatus.discord")

COALESCE = 2.0  # seconds: Discord allows 5 edits per 5 s per channel; a board needs at most one per moment


@dataclass(frozen=True)
class BoardView:
    """What the board shows, taken from a change through the ruleset boundary (summary, prompts, seats)."""

    turn: int
    turn_label: str
    phase: str
    over: bool
    prompts: tuple[tuple[str, str, tuple[str, ...]], ...]  # (seat, what is asked, one-click choices)
    players: dict[str, str]  # seat -> player identity
    # seat -> (how it is asked, the order applied when its time runs out): a question is said with its default.
    asks: tuple[tuple[str, str, str | None], ...] = ()


def view_of(change: Any) -> BoardView:
    ruleset, state, summary = change.ruleset, change.state, change.summary
    players = seat_players(ruleset, state)
    asked = ruleset.prompts(state)
    prompts = tuple((p.seat, p.what, tuple(p.choices)) for p in asked)
    asks = tuple((p.seat, p.mode, p.on_timeout) for p in asked)
    return BoardView(summary.turn, summary.turn_label, summary.phase, summary.over, prompts, players, asks)


def render_board(engine: Any, campaign_id: int, view: BoardView, session: Session | None = None) -> str:
    """The board's text: deadlines from the deadline table, finished seats from this turn's ended deadlines."""
    with contextlib.nullcontext(session) if session is not None else Session(engine) as reading:
        rows = list(reading.exec(select(DeadlineRow).where(
            DeadlineRow.campaign_id == campaign_id, DeadlineRow.kind == PLAYER_TURN, DeadlineRow.turn == view.turn,
        )).all())
    acting = {seat for seat, _, _ in view.prompts}
    due = {d.seat: d.due_at for d in rows if d.state in ACTIVE}
    # A deadline of this turn that ended (the seat stopped acting, or its time ran out) while the seat no longer acts.
    finished = sorted({d.seat or "" for d in rows if d.state not in ACTIVE} - acting - {""})
    lines = [f"{BOARD_HEADING}: {view.turn_label}** ({view.phase})"]
    if view.over:
        lines.append("The game is over.")
    if view.prompts:
        lines.append("**To play:**")
        for seat, what, _ in view.prompts:
            player = view.players.get(seat) or "no player"
            when = f", until {discord_when(due[seat])}" if seat in due else ""
            lines.append(f"• {seat} ({player}): {what}{when}")
    elif not view.over:
        lines.append("Nobody is to play now.")
    if finished:
        lines.append("**Finished this turn:** " + ", ".join(f"✓ {s}" for s in finished))
    return "\n".join(lines)[:DISCORD_LIMIT]


class StatusBoards:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._views: dict[int, BoardView] = {}
        self._stale: set[int] = set()
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.coalesce = COALESCE
        self._edits: set[asyncio.Task[None]] = set()  # the delayed edits waiting or under way
        self._now = asyncio.Event()  # set by a stop: the edits waiting for the delay are made at once

    def flush(self) -> None:
        """A stop: make the waiting edits now instead of after the coalescing delay (nothing follows to coalesce)."""
        self._now.set()

    def busy(self) -> set[asyncio.Task[None]]:
        """The edits not done yet: a graceful stop waits for them (at most the coalescing delay and an edit)."""
        return {task for task in self._edits if not task.done()}

    def current(self, campaign_id: int) -> BoardView | None:
        """The view after the campaign's latest change in this process (None before any)."""
        return self._views.get(campaign_id)

    def observe(self, change: Any) -> None:
        if change.ruleset is None or change.summary is None:
            return
        self._views[change.campaign_id] = view_of(change)
        loop: asyncio.AbstractEventLoop | None = getattr(self.bot, "loop", None)
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._touch(change.campaign_id)
        else:
            loop.call_soon_threadsafe(self._touch, change.campaign_id)

    def _touch(self, campaign_id: int) -> None:
        """Mark stale; the first mark of a quiet board starts the one delayed edit that covers all the marks."""
        if campaign_id in self._stale:
            return
        self._stale.add(campaign_id)
        task = asyncio.get_running_loop().create_task(self._later(campaign_id))
        self._edits.add(task)
        task.add_done_callback(self._edits.discard)

    async def _later(self, campaign_id: int) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._now.wait(), self.coalesce)
        self._stale.discard(campaign_id)
        try:
            await self.refresh(campaign_id)
        except Exception:  # a board is a convenience: its failure must never touch the game
            if self.bot.is_closed():  # stopped while the edit waited: the board is brought up to date at the next change
                log.info("the status board of campaign %s was not updated: the bot is stopping", campaign_id)
            else:
                log.exception("the status board of campaign %s was not updated", campaign_id)

    async def refresh(self, campaign_id: int) -> Any:
        """Edit the board in place (post and pin it the first time). Returns the board's message, or None."""
        view = self._views.get(campaign_id)
        if view is None:
            return None
        async with self._locks[campaign_id]:
            engine = self.bot.service.engine
            text, row, stored = await asyncio.to_thread(_read, engine, campaign_id, view)
            if row is None or not row.channel_id:
                return None
            channel = self.bot.get_channel(int(row.channel_id))
            if channel is None:
                channel = await self.bot.fetch_channel(int(row.channel_id))
            if not isinstance(channel, discord.TextChannel):
                return None
            if stored is not None and stored.channel_id == row.channel_id:
                try:
                    return await channel.get_partial_message(int(stored.message_id)).edit(content=text)
                except discord.NotFound:
                    pass  # deleted by a moderator: a new board is posted
            # Claimed before it is sent, done with its save: a board sent but not saved (the process killed in
            # between) is found again by the next refresh, within Discord's nonce window by the same stable nonce
            # (Discord returns the first message), after it by its heading in the channel (bot/discord/made_once.py).
            replaced = stored.message_id if stored is not None else "first"
            key = f"status-board:{campaign_id}:{row.channel_id}:{replaced}"
            creation = await asyncio.to_thread(begin, engine, key, campaign_id, "status-board", row.channel_id)
            message = None if creation.fresh else await lost_board(channel, self.bot.user, replaced)
            if message is not None:
                message = await message.edit(content=text)
            else:
                message = await channel.send(text, allowed_mentions=discord.AllowedMentions.none(),
                                             nonce=discord_nonce(key))
            await self._save(engine, campaign_id, row.channel_id, str(message.id), key)
            try:
                await message.pin(reason="Legatus status board")
            except discord.HTTPException:
                log.warning("campaign %s: the status board could not be pinned (Manage Messages?)", row.name)
            return message


    async def _save(self, engine: Any, campaign_id: int, channel_id: str, message_id: str, claimed: str) -> None:
        """Through the bot's writer thread (bot/service/post_queue.py), between two rounds of posts: from a thread of
        its own the save waited for SQLite's lock behind a burst's rounds, past the busy timeout on a busy machine
        ("database is locked": the board sent, its id not saved)."""
        try:
            await asyncio.wrap_future(
                self.bot.posts.call(save_status_board, engine, campaign_id, channel_id, message_id, claimed))
        except QueueClosed:  # the bot is stopping with this board under way: saved alone
            await asyncio.to_thread(save_status_board, engine, campaign_id, channel_id, message_id, claimed)


def _read(engine: Any, campaign_id: int, view: BoardView) -> tuple[str, CampaignRow | None, Any]:
    """The board's text and where it goes, in one trip to a worker thread (a burst refreshes every board)."""
    with Session(engine) as session:
        return render_board(engine, campaign_id, view, session), session.get(CampaignRow, campaign_id), \
            status_board(session, campaign_id)
