"""GET /channels/{id}/messages in the fake, as strict as Discord: the limit's range, one anchor at most, newest first
whatever the anchor, ``after`` giving the oldest messages after it; no nonce on a message read back (Discord stores
none); and, with ``ids_follow_clock``, ids that are the fake's time, so a read "after this moment" finds what came
since, through discord.py's own ``history``."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import discord

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_history_pages_as_discord_does_and_refuses_what_discord_refuses() -> None:
    async def scenario() -> None:
        async with fake_and_bot(channel_message_limit=None) as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            ids = [(await bot.post(channel, {"content": f"m{i}"}))[1]["id"] for i in range(7)]
            path = f"/channels/{channel}/messages"

            async def contents(query: str) -> list[str]:
                status, body, _ = await bot.call("GET", f"{path}?{query}")
                assert status == 200, body
                return [m["content"] for m in body]

            assert await contents("limit=3") == ["m6", "m5", "m4"]
            assert await contents(f"before={ids[4]}&limit=2") == ["m3", "m2"]
            # After an id: the messages right after it, and still newest first.
            assert await contents(f"after={ids[1]}&limit=3") == ["m4", "m3", "m2"]
            assert await contents(f"after={ids[6]}") == []
            assert await contents(f"around={ids[3]}&limit=3") == ["m4", "m3", "m2"]
            assert await contents("") == [f"m{i}" for i in reversed(range(7))]  # the default limit, 50, holds all
            for query, field, code in (("limit=101", "limit", "NUMBER_TYPE_MAX"), ("limit=0", "limit", "NUMBER_TYPE_MIN"),
                                       ("limit=ten", "limit", "NUMBER_TYPE_COERCE"),
                                       (f"after={ids[1]}&before={ids[5]}", "after", "BASE_TYPE_BAD_VALUE"),
                                       ("after=yesterday", "after", "NUMBER_TYPE_COERCE")):
                status, body, _ = await bot.call("GET", f"{path}?{query}")
                assert (status, body["code"], body["errors"][field]["_errors"][0]["code"]) == (400, 50035, code), query

    run(scenario)


def test_a_nonce_comes_back_with_the_message_made_and_never_from_a_read() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            status, made, _ = await bot.post(channel, {"content": "hello", "nonce": "77", "enforce_nonce": True})
            assert status == 200 and made["nonce"] == "77"
            again = (await bot.post(channel, {"content": "hello", "nonce": "77", "enforce_nonce": True}))[1]
            assert again["id"] == made["id"] and again["nonce"] == "77"
            listed = (await bot.call("GET", f"/channels/{channel}/messages"))[1]
            fetched = (await bot.call("GET", f"/channels/{channel}/messages/{made['id']}"))[1]
            assert [m["id"] for m in listed] == [made["id"]] and "nonce" not in listed[0] and "nonce" not in fetched

    run(scenario)


def test_ids_that_follow_the_clock_let_discord_py_read_the_messages_since_a_moment() -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(ids_follow_clock=True, channel_message_limit=None) as fake:
            dev = seed_dev_world(fake.world)
            channel_id = dev.channels["mare-nostrum"].id
            await fake.user_says(channel_id, "alice", "before the moment")
            await fake.advance_clock(3600)
            moment = datetime.now(timezone.utc) + timedelta(seconds=1800)  # the fake's clock is an hour ahead
            later = [await fake.user_says(channel_id, "bob", f"after {i}") for i in range(3)]
            assert discord.utils.snowflake_time(int(later[0]["id"])) > moment
            client = discord.Client(intents=discord.Intents.none())
            with point_discord_py(fake.api_base):
                await client.login(fake.token)
                try:
                    channel = await client.fetch_channel(int(channel_id))
                    assert isinstance(channel, discord.TextChannel)
                    seen = [m.content async for m in channel.history(after=moment, limit=2)]
                    assert seen == ["after 0", "after 1"]  # oldest first after a moment, as discord.py asks
                    assert [m.content async for m in channel.history(limit=None)] == [
                        "after 2", "after 1", "after 0", "before the moment"]
                finally:
                    await client.close()

    run(scenario)
