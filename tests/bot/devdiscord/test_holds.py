"""``FakeDiscord.hold_next``: the call is carried out (the message exists, the gateway told of it) and its answer waits
for the release; a killed caller never learns the id. The control behind tests/bot/discord/test_created_once.py."""
from __future__ import annotations

import asyncio

from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_a_held_call_is_carried_out_and_answered_only_once_released() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            held = fake.hold_next("POST", f"/channels/{channel}/messages",
                                  when=lambda call: "board" in str((call.json or {}).get("content")))
            await bot.post(channel, {"content": "not held"})
            answer = asyncio.ensure_future(bot.post(channel, {"content": "the board"}))
            await fake.wait_until(held.reached.is_set, 5, "the held call")
            made = [m.content for m in fake.world.channel_messages(channel)]
            assert made == ["not held", "the board"] and not answer.done()
            await asyncio.sleep(0.2)
            assert not answer.done()
            held.release()
            status, body, _ = await asyncio.wait_for(answer, 5)
            assert status == 200 and body["id"] == held.held[0].response["id"]
            # One call per hold: the next one is answered at once.
            again = await asyncio.wait_for(bot.post(channel, {"content": "the board again"}), 5)
            assert again[0] == 200

    run(scenario)
