"""Discord's global rate limit in the fake: 50 requests per second per bot token across every route, answered 429
with ``"global": true`` and ``retry_after`` (what discord.py reads to hold all its requests); interactions' endpoints,
authenticated by their own token, are not counted."""
from __future__ import annotations

import asyncio

from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_the_51st_request_in_a_second_across_routes_is_refused_globally() -> None:
    async def scenario() -> None:
        async with fake_and_bot(channel_message_limit=None) as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            # 60 calls at once over three routes (20 each): no route's own bucket (50 per second) is full.
            calls = [bot.post(channel, {"content": f"m{i}"}) if i % 3 == 0
                     else bot.call("GET", f"/channels/{channel}") if i % 3 == 1
                     else bot.call("GET", "/users/@me") for i in range(60)]
            answers = await asyncio.gather(*calls)
            limited = [body for status, body, _ in answers if status == 429]
            assert sum(1 for status, _, _ in answers if status < 300) == 50
            assert len(limited) == 10
            for body in limited:
                assert body["global"] is True and body["message"] == "You are being rate limited."
                assert 0 < body["retry_after"] <= 1.0
            headers = [h for status, _, h in answers if status == 429]
            assert all(h["X-RateLimit-Global"] == "true" and h["X-RateLimit-Scope"] == "global" for h in headers)
            # A second later the window is open again.
            await asyncio.sleep(max(b["retry_after"] for b in limited) + 0.05)
            status, _, _ = await bot.call("GET", "/users/@me")
            assert status == 200

    run(scenario)


def test_the_global_limit_can_be_lifted() -> None:
    async def scenario() -> None:
        async with fake_and_bot(channel_message_limit=None, global_rate_limit=None) as (fake, dev, bot):
            answers = await asyncio.gather(*(bot.call("GET", "/users/@me") for _ in range(40)),
                                           *(bot.call("GET", "/gateway/bot") for _ in range(40)))
            assert {status for status, _, _ in answers} == {200}

    run(scenario)


def test_an_interaction_is_answered_while_the_bot_token_is_limited() -> None:
    """Interactions' endpoints are not bound to the global limit (Discord's documentation): a slash command is still
    acknowledged when the bot has spent its 50 requests of the second."""
    async def scenario() -> None:
        async with fake_and_bot(channel_message_limit=None) as (fake, dev, bot):
            fake.server.commands[None] = {"1:ping": {"id": "42", "name": "ping", "type": 1, "options": []}}
            command = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
            spent = await asyncio.gather(*(bot.call("GET", "/users/@me") for _ in range(51)))
            assert [status for status, _, _ in spent].count(429) == 1
            status, _, _ = await bot.call("POST", f"/interactions/{command.id}/{command.token}/callback",
                                          {"type": 5}, auth=False)
            assert status == 204
            hook = f"/webhooks/{fake.app_id}/{command.token}/messages/@original"
            assert (await bot.call("PATCH", hook, {"content": "pong"}, auth=False))[0] == 200

    run(scenario)
