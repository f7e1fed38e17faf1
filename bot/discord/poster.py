"""Posting the scheduler's messages (reminders, timeouts, draws, results) to a campaign's Discord channel.

Every message of a turn goes to that turn's thread (bot/discord/turn_threads.py), whatever kind of channel
the campaign has; a forum campaign with no turn post yet raises NowhereToPost, and the scheduler keeps the
message to send later rather than record it as sent.
"""
from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.discord.output import split_message
from bot.discord.turn_threads import NowhereToPost, TurnThreads

log = logging.getLogger("legatus.scheduler")


def discord_nonce(key: str) -> int:
    """Discord nonces are at most 25 characters; a stable 63-bit hash of the key fits."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


class DiscordPoster:
    """Posts to the campaign's turn thread (or channel). Mentions stay off except the identities in ``ping``."""

    def __init__(self, bot: Any, threads: TurnThreads | None = None) -> None:
        self.bot = bot
        self.threads = threads or getattr(bot, "turn_places", None) or TurnThreads(bot)

    async def open_turn(self, campaign_id: int) -> Any:
        """The scheduler's retry of a turn thread that could not be opened (idempotent)."""
        return await self.threads.open_turn(campaign_id)

    async def post(self, campaign_id: int, text: str, *, ping: list[str] = [], key: str,  # noqa: B006
                   files: Sequence[tuple[str, bytes]] = (), turn: int | None = None) -> str | None:
        channel = await self.threads.destination(campaign_id, turn)
        if not hasattr(channel, "send"):
            raise NowhereToPost(f"campaign {campaign_id}: {channel!r} takes no messages")
        users = [discord.Object(id=int(p[2:-1])) for p in ping if p.startswith("<@") and not p.startswith("<@&") and p[2:-1].isdigit()]
        roles = [discord.Object(id=int(p[3:-1])) for p in ping if p.startswith("<@&") and p[3:-1].isdigit()]
        allowed = discord.AllowedMentions(everyone=False, users=users or False, roles=roles or False, replied_user=False)
        first: Any = None
        chunks = split_message(text)
        # The players it pings get the one-click answers of what they are asked now (a reaction's, a "pass").
        chooser = getattr(self.bot, "choice_buttons", None)
        buttons = chooser(campaign_id, [p for p in ping if not p.startswith("<@&")]) if chooser and users else None
        for i, chunk in enumerate(chunks):
            last = i == len(chunks) - 1
            attachments = [discord.File(io.BytesIO(data), filename=name) for name, data in files] if last else []
            message = await channel.send(
                chunk, allowed_mentions=allowed if i == 0 else discord.AllowedMentions.none(),
                nonce=discord_nonce(f"{key}#{i}"), files=attachments, **({"view": buttons} if last and buttons else {}),
            )
            first = first or message
        return str(first.id) if first is not None else None
