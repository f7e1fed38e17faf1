"""The Discord poster (bot/discord/poster.py): whom a scheduled post pings, and the nonce that makes it idempotent."""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

from bot.discord.poster import DiscordPoster, discord_nonce
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine

MOMENT = datetime(2026, 9, 1, 6, 0, tzinfo=timezone.utc)


def test_discord_poster_pings_only_the_named_player_with_the_key_as_nonce(tmp_path: Path) -> None:
    import discord

    service = Legatus(open_engine(tmp_path / "c.db"), clock=FixedClock(MOMENT))
    service.create_campaign("c", "mare-nostrum", "<@&9>", {}, channel_id="42")
    calls: list[dict[str, object]] = []

    class Channel:
        async def send(self, text: str, **kwargs: object) -> object:
            calls.append({"text": text, **kwargs})
            return type("Message", (), {"id": 777})()

    bot = type("Bot", (), {"service": service, "get_channel": lambda self, i: Channel() if i == 42 else None})()
    message_id = asyncio.run(DiscordPoster(bot).post(1, "<@5> your turn ends soon", ping=["<@5>"], key="k"))
    assert message_id == "777"
    (call,) = calls
    allowed = call["allowed_mentions"]
    assert isinstance(allowed, discord.AllowedMentions)
    assert [u.id for u in allowed.users] == [5] and allowed.roles is False and allowed.everyone is False  # type: ignore[union-attr]
    assert call["nonce"] == discord_nonce("k#0") and len(str(call["nonce"])) <= 25
