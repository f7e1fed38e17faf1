"""The in-bot /verify reads the bot's own messages in the campaign's channel and threads back from Discord as
witnesses: the heads they carry, at the times Discord gave them."""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from pathlib import Path

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.discord.bot import LegatusBot
from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.discord.test_turn_threads import SEATS, driven_scheduler, with_bot  # noqa: F401  (a fixture)

UTC = timezone.utc
OPERATOR_CLOCK = datetime(2026, 9, 1, 6, 0, tzinfo=UTC)


def _verified(tmp_path: Path, discord_time: datetime) -> str:
    """A live campaign whose turn the GM opens on Discord, its draw recorded by the scheduler, then /verify; the bot
    runs on the operator's clock, Discord stamps its messages with its own."""
    clock = FixedClock(OPERATOR_CLOCK)
    service = Legatus(open_engine(tmp_path / "live.db"), clock=clock)
    said: list[str] = []

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0, start=discord_time) as fake:
            world = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base, fake.gateway_url):

                async def run(bot: LegatusBot) -> None:
                    channel = str(world.channels["mare-nostrum"].id)
                    made = await fake.invoke_slash(None, channel, "gm", "campaign",
                                                   {"name": "live", "gm_role": str(world.roles["GM"].id),
                                                    "clock": "live"}, subcommand="create")
                    assert "created" in (await made.wait_reply(timeout=10))["content"]
                    row = service.campaign_for_channel_name("live")
                    assert row is not None
                    for nation, user in SEATS.items():
                        service.post(row.gm, f"/campaign assign {nation} <@{fake.user(user).id}>", "live")
                    await fake.user_says(channel, "gm", "/turn open")
                    await fake.wait_for_message(channel, lambda m: "Log head after this post" in m["content"],
                                                timeout=10)
                    await S.run_due(bot.scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
                    await fake.wait_until(lambda: any("Lottery draw of 2026-09-01 recorded" in m["content"]
                                                      for c in list(fake.world.channels.values())
                                                      for m in fake.messages_in(str(c.id))), 10, "the draw's message")
                    asked = await fake.invoke_slash(None, channel, "gm", "verify", {})
                    said.append((await asked.wait_reply(timeout=20))["content"])

                await with_bot(fake, world, service, run)

    asyncio.run(asyncio.wait_for(scenario(), 60))
    return said[0]


def test_verify_on_discord_counts_the_bots_own_messages_as_witnesses(tmp_path: Path, driven_scheduler: None) -> None:
    """No attacker (the control): the operator's clock and Discord's agree, and the bot's messages witness it."""
    text = _verified(tmp_path, OPERATOR_CLOCK)
    assert "witness(es) of the log's head matched the log" in text, text
    assert "no anchor given" not in text and "✗" not in text, text


def test_verify_on_discord_catches_the_operators_clock_set_back(tmp_path: Path, driven_scheduler: None) -> None:
    """Attacker: the operator with the clock, a day behind Discord's: the turn was bound, by Discord's time, after
    its draw was held."""
    text = _verified(tmp_path, datetime(2026, 9, 2, 6, 0, tzinfo=UTC))
    assert "✗" in text and "first witnessed by Discord message" in text, text
    assert ("after 2026-09-01T17:50:00Z (the margin before its lottery value 2026-09-01, public at "
            "2026-09-01T18:00:00Z): nothing outside the bot shows it bound in advance") in text, text
