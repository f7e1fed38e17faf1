"""Finding on Discord what an earlier attempt made and never saved (the process killed between the call and the
save), by its marker: a turn's thread by its name and the bot as its owner, a status board by its heading and the
bot as its author, a scheduled message or a heads-up by its first line among the bot's messages since its claim.
Asked only when a claim is still open (bot/store/creations.py, bot/store/posted.py), so a thread named like a turn by
a player, an old board or an older message of the same words is never taken for it.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import discord

log = logging.getLogger("legatus.discord")

BOARD_HEADING = "📋 **Status board"
# How far back a lost board is looked for: the board is sent right after its claim, so it is among the channel's
# newest messages unless that many came after it while the bot was away.
BOARD_SEARCH = 100
THREAD_SEARCH = 50  # the channel's most recently archived threads a lost turn thread is looked for among
# A lost message is sent right after its claim, so it is among the first messages after it, unless that many came
# in the same seconds; one page of history.
MESSAGE_SEARCH = 100
# The look-up starts this long before the claim: the claim's time is the bot's clock, a message's id Discord's.
CLOCK_SLACK = timedelta(minutes=2)


def opened_unsaved(channel: Any, name: str, me: Any) -> Any:
    """The active thread named ``name`` the bot itself opened in ``channel``, if any (from the gateway's cache: free).
    Only asked when no thread of the turn is saved; turn labels are unique within a campaign, and a channel hosts
    one campaign."""
    if me is None:
        return None
    return next((t for t in getattr(channel, "threads", []) if t.name == name and t.owner_id == me.id), None)


async def lost_thread(channel: Any, name: str, me: Any) -> Any:
    """A thread an earlier attempt opened: active, or archived since (the bot was away longer than its idle time)."""
    found = opened_unsaved(channel, name, me)
    if found is not None or me is None or not hasattr(channel, "archived_threads"):
        return found
    try:
        async for thread in channel.archived_threads(limit=THREAD_SEARCH):
            if thread.name == name and thread.owner_id == me.id:
                return thread
    except discord.HTTPException:
        log.warning("channel %s: its archived threads cannot be read; a lost turn thread is not looked for",
                    getattr(channel, "id", "?"), exc_info=True)
    return None


async def lost_board(channel: Any, me: Any, replaced: str | None) -> Any:
    """A board an earlier attempt sent: the bot's message with the board's heading, newer than the board it replaced."""
    if me is None:
        return None
    after = discord.Object(id=int(replaced)) if replaced and replaced.isdigit() else None
    try:
        async for message in channel.history(limit=BOARD_SEARCH, after=after, oldest_first=False):
            if message.author.id == me.id and message.content.startswith(BOARD_HEADING):
                return message
    except discord.HTTPException:
        log.warning("channel %s: its history cannot be read; a lost status board is not looked for",
                    getattr(channel, "id", "?"), exc_info=True)
    return None


async def own_since(channel: Any, me: Any, since: datetime) -> list[Any]:
    """The bot's messages in ``channel`` made since ``since`` (a claim's time), oldest first: where a message an
    earlier attempt sent and never recorded is. Discord stores no nonce (only the answer to the send carries it), so
    the caller knows its message by its words."""
    if me is None or not hasattr(channel, "history"):
        return []
    try:
        return [m async for m in channel.history(limit=MESSAGE_SEARCH, after=since - CLOCK_SLACK, oldest_first=True)
                if m.author.id == me.id]
    except discord.HTTPException:
        log.warning("channel %s: its history cannot be read; a message an earlier attempt sent is not looked for",
                    getattr(channel, "id", "?"), exc_info=True)
        return []


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]
