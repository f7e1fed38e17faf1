"""Which channels and forums host a campaign, held in memory: a message elsewhere is dropped without a database read.

Every plain message in every channel the bot can see reaches ``on_message``; a query per message, on the event loop,
is what a busy server's chatter would queue the campaigns' posts behind. The set is read whole at start-up and after
every gateway resume (off the loop), and grows at once when this process creates a campaign (Legatus.created). A
campaign created meanwhile by another process is known from the next start or resume, whose catch-up then reads the
posts it missed (bot/discord/catch_up.py)."""
from __future__ import annotations

import asyncio

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from bot.store.campaigns import CampaignRow


def hosting_channels(engine: Engine) -> set[str]:
    """The channel (or forum) id of every campaign that has one."""
    with Session(engine) as session:
        ids = session.exec(select(CampaignRow.channel_id).where(col(CampaignRow.channel_id).is_not(None))).all()
    return {i for i in ids if i}


class CampaignChannels:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._ids: set[str] = set()

    async def reload(self) -> None:
        self._ids = await asyncio.to_thread(hosting_channels, self._engine)

    def created(self, row: CampaignRow) -> None:
        """Legatus.created's hook: called on the writer thread; a set's add is atomic under the GIL."""
        if row.channel_id:
            self._ids.add(row.channel_id)

    def hosts(self, channel_id: str) -> bool:
        return channel_id in self._ids
