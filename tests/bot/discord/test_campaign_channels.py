"""A message outside every campaign's channel costs no database read: the bot knows the campaign channels in memory,
and learns a new one the moment its campaign is created."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table

CHATTER = 20


def test_chatter_outside_campaigns_reads_nothing_and_a_new_campaign_is_heard_at_once(tmp_path: Path) -> None:
    asked: list[str] = []
    places: list[str] = []

    async def scenario(t: Table) -> None:
        read = t.service.campaign_for_channel

        def spied(channel_id: str) -> Any:  # the one database read on_message could make
            asked.append(channel_id)
            return read(channel_id)

        t.service.campaign_for_channel = spied  # type: ignore[method-assign]
        channel = str(t.dev.channels["mare-nostrum"].id)
        places.append(channel)
        # No campaign here yet: table talk, each message reaching on_message.
        for i in range(CHATTER):
            await t.fake.user_says(channel, "sam", f"anyone for dice tonight? ({i})")
        await set_up_campaign(t)
        # Created a moment ago by the slash command: a post here is read at once. Gateway events are handled in
        # order, so its answer also proves every message of the chatter went through on_message before it.
        sent = await t.fake.user_says(channel, "sam", "/state")
        card = await t.fake.wait_for_message(channel, lambda m: m.get("message_reference", {}).get("message_id")
                                             == sent["id"], timeout=10)
        assert len(card["embeds"]) == 1, card  # the state card

    run(lambda: table(tmp_path, scenario))
    assert asked == places, f"{len(asked)} reads: {asked[:3]}..."
