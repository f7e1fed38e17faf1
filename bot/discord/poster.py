"""Posting the scheduler's messages (reminders, timeouts, draws, results) to a campaign's Discord channel."""
from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from bot.discord.output import split_message
from bot.store.campaigns import CampaignRow

log = logging.getLogger("legatus.scheduler")


def discord_nonce(key: str) -> int:
    """Discord nonces are at most 25 characters; a stable 63-bit hash of the key fits."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


class DiscordPoster:
    """Posts to the campaign's channel. Mentions stay off except the identities in ``ping``."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _turn_thread(self, forum: Any, campaign: str) -> Any:
        """A forum takes no messages itself: post in the campaign's current turn post (the newest 'Turn ...')."""
        known = getattr(self.bot, "turn_threads", {}).get(campaign)
        if known is not None:
            thread = self.bot.get_channel(known)
            if thread is not None:
                return thread
        threads = [t for t in forum.threads if t.name.startswith("Turn ")]
        return max(threads, key=lambda t: t.id) if threads else None

    async def post(self, campaign_id: int, text: str, *, ping: list[str] = [], key: str,  # noqa: B006
                   files: Sequence[tuple[str, bytes]] = ()) -> str | None:
        import io

        import discord

        with Session(self.bot.service.engine) as session:
            campaign = session.get(CampaignRow, campaign_id)
        if campaign is None or not campaign.channel_id:
            log.warning("campaign %s has no channel; not posted: %s", campaign_id, text)
            return None
        channel = self.bot.get_channel(int(campaign.channel_id))
        if channel is None:
            channel = await self.bot.fetch_channel(int(campaign.channel_id))
        if isinstance(channel, discord.ForumChannel):
            channel = await self._turn_thread(channel, campaign.name)
        if channel is None or not hasattr(channel, "send"):
            log.warning("campaign %s has nowhere to post (a forum without a turn post yet?); not posted: %s",
                        campaign_id, text)
            return None
        users = [discord.Object(id=int(p[2:-1])) for p in ping if p.startswith("<@") and not p.startswith("<@&") and p[2:-1].isdigit()]
        roles = [discord.Object(id=int(p[3:-1])) for p in ping if p.startswith("<@&") and p[3:-1].isdigit()]
        allowed = discord.AllowedMentions(everyone=False, users=users or False, roles=roles or False, replied_user=False)
        first: Any = None
        chunks = split_message(text)
        for i, chunk in enumerate(chunks):
            attachments = [discord.File(io.BytesIO(data), filename=name) for name, data in files] if i == len(chunks) - 1 else []
            message = await channel.send(
                chunk, allowed_mentions=allowed if i == 0 else discord.AllowedMentions.none(),
                nonce=discord_nonce(f"{key}#{i}"), files=attachments,
            )
            first = first or message
        return str(first.id) if first is not None else None
