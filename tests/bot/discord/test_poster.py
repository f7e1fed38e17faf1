"""The Discord poster (bot/discord/poster.py): whom a scheduled post pings, and the nonce that makes it idempotent."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
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


def test_a_claimed_message_found_since_its_claim_is_not_sent_again_and_only_its_missing_parts_are(
        tmp_path: Path) -> None:
    """An earlier attempt sent the first part of a long message and was killed: the resend takes that part (found by
    its first line, the rest of its words may differ), sends the part it did not find, and reads the history only
    from a little before the claim, only the bot's own messages."""
    from bot.discord.made_once import CLOCK_SLACK
    from bot.discord.output import split_message

    service = Legatus(open_engine(tmp_path / "c.db"), clock=FixedClock(MOMENT))
    service.create_campaign("c", "mare-nostrum", "<@&9>", {}, channel_id="42")
    text = "Time is up for the Gauls.\n" + "\n".join(f"line {i}" for i in range(300))
    chunks = split_message(text)
    assert len(chunks) == 2
    me, player = type("User", (), {"id": 1})(), type("User", (), {"id": 2})()

    def message(i: int, author: object, content: str) -> object:
        return type("Message", (), {"id": i, "author": author, "content": content})()

    history = [message(10, player, "Time is up for the Gauls."), message(11, me, "Time is up for the Gauls.\nold"),
               message(12, me, "another")]
    calls: list[str] = []
    asked: list[dict[str, object]] = []

    class Channel:
        id = 42

        async def send(self, text: str, **kwargs: object) -> object:
            calls.append(text)
            return message(99, me, text)

        async def history(self, **kwargs: object) -> AsyncIterator[object]:  # an async generator, as discord.py's
            asked.append(kwargs)
            for m in history:
                yield m

    bot = type("Bot", (), {"service": service, "user": me,
                           "get_channel": lambda self, i: Channel() if i == 42 else None})()
    claimed = datetime(2026, 9, 1, 5, 0, tzinfo=timezone.utc)
    message_id = asyncio.run(DiscordPoster(bot).post(1, text, key="k", since=claimed))
    assert message_id == "11" and calls == [chunks[1]]
    assert asked == [{"limit": 100, "after": claimed - CLOCK_SLACK, "oldest_first": True}]
    # No earlier attempt (no ``since``): no history read, every part sent.
    calls.clear()
    assert asyncio.run(DiscordPoster(bot).post(1, text, key="k2")) == "99" and calls == chunks and len(asked) == 1
