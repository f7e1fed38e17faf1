"""Posting the scheduler's messages (reminders, timeouts, draws, results) to a campaign's Discord channel.

Every message of a turn goes to that turn's thread (bot/discord/turn_threads.py), whatever kind of channel
the campaign has; a forum campaign with no turn post yet raises NowhereToPost, and the scheduler keeps the
message to send later rather than record it as sent.

A message whose claim an earlier attempt left open (``since``: the claim's time) may be on Discord already: the
process died between Discord's answer and its record. Within Discord's few minutes the same nonce returns it; after,
it is looked up among the bot's messages in the thread since the claim, by its first line (bot/discord/made_once.py:
a resent text may differ after its first line, e.g. a timeout whose pass is in the log but whose reply is lost).
"""
from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import discord

from bot.discord.made_once import first_line, own_since
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
                   files: Sequence[tuple[str, bytes]] = (), turn: int | None = None,
                   since: datetime | None = None) -> str | None:
        channel = await self.threads.destination(campaign_id, turn)
        if not hasattr(channel, "send"):
            raise NowhereToPost(f"campaign {campaign_id}: {channel!r} takes no messages")
        users = [discord.Object(id=int(p[2:-1])) for p in ping if p.startswith("<@") and not p.startswith("<@&") and p[2:-1].isdigit()]
        roles = [discord.Object(id=int(p[3:-1])) for p in ping if p.startswith("<@&") and p[3:-1].isdigit()]
        allowed = discord.AllowedMentions(everyone=False, users=users or False, roles=roles or False, replied_user=False)
        first: Any = None
        chunks = split_message(text)
        made = await self._made_before(channel, key, chunks, since) if since is not None else {}
        # The players it pings get the one-click answers of what they are asked now (a reaction's, a "pass").
        chooser = getattr(self.bot, "choice_buttons", None)
        buttons = chooser(campaign_id, [p for p in ping if not p.startswith("<@&")]) if chooser and users else None
        for i, chunk in enumerate(chunks):
            if i in made:
                first = first or made[i]
                continue
            last = i == len(chunks) - 1
            attachments = [discord.File(io.BytesIO(data), filename=name) for name, data in files] if last else []
            message = await channel.send(
                chunk, allowed_mentions=allowed if i == 0 else discord.AllowedMentions.none(),
                nonce=discord_nonce(f"{key}#{i}"), files=attachments, **({"view": buttons} if last and buttons else {}),
            )
            first = first or message
        return str(first.id) if first is not None else None

    async def _made_before(self, channel: Any, key: str, chunks: list[str], since: datetime) -> dict[int, Any]:
        """Which of ``chunks`` an earlier attempt sent (by index): the first by its first line, each later one by its
        words, among the bot's messages after it."""
        mine = await own_since(channel, getattr(self.bot, "user", None), since)
        start = next((i for i, m in enumerate(mine) if first_line(m.content) == first_line(chunks[0])), None)
        if start is None:
            return {}
        made = {0: mine[start]}
        later = mine[start + 1:]
        for i, chunk in enumerate(chunks[1:], start=1):
            found = next((m for m in later if m.content == chunk), None)
            if found is not None:
                made[i] = found
        log.info("campaign %s: %s was sent by an earlier attempt (message %s); not sent again", channel.id, key,
                 mine[start].id)
        return made
