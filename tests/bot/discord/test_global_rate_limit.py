"""A real `legatus run` process under Discord's global rate limit: a burst of posts in several campaigns at once makes
the bot exceed it (lowered here to 10 requests per second, so that a burst of this size does); Discord's 429s with
``"global": true`` hold the bot's requests, and every post is still applied and answered exactly once."""
from __future__ import annotations

import asyncio
import signal
from datetime import timedelta
from pathlib import Path

from bot.devdiscord import FakeDiscord
from tests.bot.discord.sharded_world import build_world, start_bot
from tests.bot.discord.test_graceful_stop import ORDER, SEAT_OF, _answers, _poll, _run, _seed

GLOBAL = (10, 1.0)


def test_a_burst_over_the_global_limit_is_answered_once_per_post(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0, channel_message_limit=None,
                                     global_rate_limit=GLOBAL) as fake:
            place = build_world(fake)[0]
            db = tmp_path / "camp.db"
            service = _seed(db, fake, place.channels, place.guild, place.gm_role, tick=None,
                            due_in=timedelta(hours=47))
            bot = await start_bot(fake, f"sqlite:///{db}", tmp_path, "bot", None, None)
            try:
                await _poll(lambda: "caught up after start-up" in bot.text(), "the bot to be up")
                said = await asyncio.gather(*(fake.user_says(channel.id, SEAT_OF[nation], "pass")
                                              for nation in ORDER for channel in place.channels))
                posts = [(m["channel_id"], m["id"]) for m in said]
                await _poll(lambda: all(_answers(fake, c, p) for c, p in posts), "every post answered")
                await asyncio.sleep(2.0)  # time for a duplicate to show, were there one
                counts = {post: _answers(fake, channel, post) for channel, post in posts}
                bot.process.send_signal(signal.SIGTERM)
                code = await asyncio.wait_for(bot.process.wait(), 60)
            finally:
                await bot.stop(signal.SIGKILL)
                print(f"--- bot ---\n{bot.text()[-6000:]}")  # shown by pytest when the test fails
            refused = [r for r in fake.requests if r.status == 429 and (r.response or {}).get("global") is True]
        assert refused, "the burst never met the global limit: the test would prove nothing"
        assert counts == {post: 1 for _, post in posts}
        for channel in place.channels:
            assert service.state(f"camp-{channel.name}")["phase"] != "orders", channel.name
        log = bot.text()
        assert "Global rate limit has been hit" in log
        assert code == 0 and "Traceback" not in log, log[-3000:]

    _run(scenario())
