"""A campaign another process created (`legatus new`, `legatus post` with no bot, another shard) is heard by the running
bot without a restart: a message in a channel it does not know reads the campaign channels again, at most once per
``refresh`` seconds (bot/discord/campaign_channels.py). Chatter elsewhere still costs no campaign read per message."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.devdiscord import payloads
from bot.discord.catch_up import READ_LATE
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.discord.test_discord_bot import SEATS, Table, answers, run, table

CHATTER = 20


async def _channel(t: Table, name: str) -> str:
    """A text channel a server admin adds: the bot hears of it (CHANNEL_CREATE)."""
    channel = t.fake.world.add_text_channel(t.dev.guild.id, name)
    await t.fake.server.dispatch("CHANNEL_CREATE", payloads.channel_payload(t.fake.world, channel))
    return channel.id


def _elsewhere(t: Table, tmp_path: Path, name: str, channel_id: str) -> None:
    """The campaign made by another process on the same database: this bot's service hears nothing of it."""
    other = Legatus(open_engine(tmp_path / "discord.db"))
    players = {nation: f"<@{t.uid(user)}>" for nation, user in SEATS.items()}
    gm_role = str(t.dev.roles["GM"].id)
    made = other.create_campaign(name, "mare-nostrum", f"<@&{gm_role}>", players, "historical", str(t.dev.guild.id),
                                 channel_id, gm_role)
    assert made.ok, made.render()


def test_a_campaign_made_by_another_process_is_heard_and_chatter_reads_at_a_bounded_rate(tmp_path: Path) -> None:
    asked: list[str] = []

    async def scenario(t: Table) -> None:
        read = t.service.campaign_for_channel

        def spied(channel_id: str) -> Any:  # the database read on_message made per message before the set in memory
            asked.append(channel_id)
            return read(channel_id)

        t.service.campaign_for_channel = spied  # type: ignore[method-assign]
        chatter, first, second = [await _channel(t, name) for name in ("tavern", "war-east", "war-west")]
        await t.fake.wait_until(lambda: t.bot.get_channel(int(second)) is not None, 5, "the channels in the cache")
        channels = t.bot.campaign_channels
        reads, began = channels.reads, time.monotonic()
        for i in range(CHATTER):
            await t.fake.user_says(chatter, "sam", f"anyone for dice tonight? ({i})")
        await asyncio.sleep(0.2)  # the last one's handling over
        # No campaign read at all, and the channel set read at most once per interval (1 s), not per message.
        spent = time.monotonic() - began
        print(f"{CHATTER} chatter messages in {spent:.2f} s: {channels.reads - reads} reads of the channel set")
        assert channels.reads - reads <= 1 + int(spent / channels.refresh) < CHATTER and asked == []

        # Another process creates a campaign; the first post in its channel, a read's interval after the last, is
        # heard at once.
        _elsewhere(t, tmp_path, "east", first)
        channels.refresh = 0.3
        await asyncio.sleep(0.35)
        sent = await t.fake.user_says(first, "sam", "/state")
        card = await t.fake.wait_for_message(first, lambda m: m.get("message_reference", {}).get("message_id")
                                             == sent["id"], timeout=10)
        assert len(card["embeds"]) == 1, card

        # Another campaign, created just after a read made for chatter, whose first post comes within that read's
        # interval: dropped at once, then read by the catch-up when the read at the interval's end finds the campaign.
        channels.refresh = 1.0
        await asyncio.sleep(1.05)
        before = channels.reads
        await t.fake.user_says(chatter, "sam", "still nobody?")
        await t.fake.wait_until(lambda: channels.reads == before + 1, 5, "the chatter's read")
        _elsewhere(t, tmp_path, "west", second)
        opened = await t.fake.user_says(second, "gm", "/turn open 2023-01-03")
        answer = await t.fake.wait_for_message(second, answers(opened), timeout=10)
        assert answer["content"].startswith(READ_LATE) and "Turn 1 (290 BC)" in answer["content"], answer["content"]
        assert channels.reads == before + 2  # the chatter's, and the one at its interval's end

    run(lambda: table(tmp_path, scenario))
    assert len(asked) <= 4, asked  # only the two campaigns' channels are ever asked about
