"""Benchmark: Legatus on the fake Discord with many campaigns and messages.

    .venv/bin/python bench/discord_latency.py [CAMPAIGNS] [MESSAGES]

Prints the time from a player's message to the bot's answer (median, 99th percentile) and the process's memory.
Everything runs on 127.0.0.1; prints figures and asserts nothing.
"""
from __future__ import annotations

import asyncio
import resource
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world  # noqa: E402
from bot.discord.bot import LegatusBot  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402

LOTTO = REPO / "tests" / "data" / "lotto"
SEATS = {"Romans": "alice", "Gauls": "bob", "Carthaginians": "carla", "Macedonians": "max", "Ptolemaics": "pat", "Seleucids": "sam"}
ORDERS = ["build suburbs in Syria", "we attack at dawn, friends", "build temple in Syira", "attack Cyprus from Cilicia"]


async def slash(fake: FakeDiscord, channel: str, user: str, command: str, sub: str, **options: str) -> str:
    invocation = await fake.invoke_slash(None, channel, user, command, options or None, subcommand=sub)
    return str((await invocation.wait_reply(timeout=20))["content"])


async def main(campaigns: int, messages: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        service = Legatus(open_engine(Path(tmp) / "bench.db"), clock=FixedClock(datetime(2026, 11, 22, 12, tzinfo=timezone.utc)))
        service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
        async with FakeDiscord.start(host="127.0.0.1", port=0, rate_limit=(10_000, 1.0)) as fake:
            world = seed_dev_world(fake.world)
            channels = [str(fake.world.add_text_channel(world.guild.id, f"campaign-{i}").id) for i in range(campaigns)]
            with point_discord_py(fake.api_base, fake.gateway_url):
                bot = LegatusBot(service, guild_id=int(world.guild.id), guild_ready_timeout=0.05)
                runner = asyncio.create_task(bot.start(fake.token))
                try:
                    await measure(fake, bot, world, channels, messages)
                finally:
                    await bot.close()
                    runner.cancel()
                    await asyncio.gather(runner, return_exceptions=True)


async def measure(fake: FakeDiscord, bot: LegatusBot, world: Any, channels: list[str], messages: int) -> None:
    campaigns = len(channels)
    await fake.wait_until(lambda: bot.is_ready() and fake.registered_commands, 20, "the bot")
    start = time.perf_counter()
    for i, channel in enumerate(channels):
        await slash(fake, channel, "gm", "campaign", "create", name=f"c{i}", gm_role=str(world.roles["GM"].id), clock="historical")
        for nation, user in SEATS.items():
            await slash(fake, channel, "gm", "campaign", "assign", nation=nation, player=str(fake.user(user).id))
        await slash(fake, channel, "gm", "turn", "open", date="2023-01-03")
    print(f"{campaigns} campaigns set up in {time.perf_counter() - start:.1f} s")
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    latencies = []
    for n in range(messages):
        channel = channels[n % len(channels)]
        text = ORDERS[n % len(ORDERS)] if n % 3 else "build suburbs in Syria\nbuild temple in Syria"
        sent_at = time.perf_counter()
        sent = await fake.user_says(channel, "sam", text)
        if "friends" in text:
            continue  # table talk: no answer to wait for
        await fake.wait_for_message(channel, lambda m: m.get("message_reference", {}).get("message_id") == sent["id"], timeout=20)
        latencies.append(time.perf_counter() - sent_at)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{len(latencies)} answered messages over {campaigns} campaigns: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"process peak RSS: {rss / 1024:.0f} MB (before the message run: {rss_before / 1024:.0f} MB); "
          "the fake Discord runs in the same process")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, int(sys.argv[2]) if len(sys.argv) > 2 else 400))
