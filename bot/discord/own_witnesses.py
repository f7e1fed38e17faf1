"""The bot's own messages in a campaign's channel and turn threads, read back through Discord's API, as witnesses
for the in-bot /verify: each carries the head it posted, and its id carries the time Discord gave it. This is
Discord's word about when, not the bot's clock; the bot process itself is still the operator's, so anyone who
doubts it exports the channel themselves and runs `legatus verify --witnesses`."""
from __future__ import annotations

import logging
from typing import Any

import discord
from sqlmodel import Session, select

from bot.store.campaigns import CampaignRow
from bot.store.discord_places import TurnThreadRow
from engine.witness import Witness, message_witnesses

log = logging.getLogger("legatus.discord")

# Messages read per channel or thread: a witness needs the bot's messages after each binding, and a turn's thread
# holds a turn; the cap keeps one /verify from walking years of a busy channel (what it leaves out is counted as
# unwitnessed, never as a mismatch).
HISTORY_LIMIT = 2000


def _places(engine: Any, row: CampaignRow) -> list[str]:
    with Session(engine) as session:
        threads = session.exec(select(TurnThreadRow.thread_id).where(TurnThreadRow.campaign_id == row.id)).all()
    return [p for p in [row.channel_id, *threads] if p]


async def own_witnesses(bot: Any, row: CampaignRow, limit: int = HISTORY_LIMIT) -> tuple[list[Witness], list[str]]:
    """The heads of the bot's own messages where the campaign lives, and the places that could not be read."""
    found: list[Witness] = []
    unread: list[str] = []
    me = bot.user.id if bot.user is not None else None
    for place in _places(bot.service.engine, row):
        try:
            channel = bot.get_channel(int(place)) or await bot.fetch_channel(int(place))
            if not hasattr(channel, "history"):
                continue  # a forum: its posts are threads, read on their own
            async for message in channel.history(limit=limit, oldest_first=True):
                if message.author.id != me:
                    continue
                edited = message.edited_at.isoformat() if message.edited_at else None
                heads, _ = message_witnesses(f"message {message.id}", {"id": str(message.id), "content": message.content,
                                                                       "edited": edited})
                found.extend(heads)
        except (discord.HTTPException, ValueError) as exc:
            log.info("campaign %s: channel %s not read for witnesses: %s", row.name, place, exc)
            unread.append(place)
    return found, unread
