"""``enforce_nonce`` in the fake, as on Discord: the same nonce from the same author within a few minutes returns the
first message and creates none; without ``enforce_nonce`` a nonce is only echoed."""
from __future__ import annotations

from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_a_message_sent_again_with_the_same_enforced_nonce_is_the_first_one() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            body = {"content": "Time is up for the Gauls.", "nonce": "4242", "enforce_nonce": True}
            first = await bot.post(channel, body)
            again = await bot.post(channel, {**body, "content": "a retry after a crash"})
            assert (first[0], again[0]) == (200, 200) and again[1]["id"] == first[1]["id"]
            assert [m.content for m in fake.world.channel_messages(channel)] == ["Time is up for the Gauls."]
            # Another nonce, or the same one not enforced, is another message.
            await bot.post(channel, {**body, "nonce": "4343"})
            await bot.post(channel, {"content": "echoed only", "nonce": "4242"})
            assert len(fake.world.channel_messages(channel)) == 3
            # Minutes later Discord has forgotten the nonce.
            await fake.advance_clock(301)
            late = await bot.post(channel, body)
            assert late[1]["id"] != first[1]["id"] and len(fake.world.channel_messages(channel)) == 4

    run(scenario)
