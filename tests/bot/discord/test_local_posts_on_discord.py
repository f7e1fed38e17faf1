"""`legatus post` while the Discord bot runs: the bot applies it through its own writer, and Discord sees its
consequences (the turn's thread opens) as for a post made in a channel (bot/service/local_posts.py)."""
from __future__ import annotations

import asyncio
from pathlib import Path

from sqlmodel import Session

from bot.cli.post_client import post_through_bot
from bot.store.campaigns import find_campaign
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def test_a_post_from_the_command_line_goes_through_the_running_discord_bot(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        with Session(t.service.engine) as session:
            campaign = find_campaign(session, "mare")
            assert campaign is not None
            gm = campaign.gm
        db = Path(str(t.service.engine.url.database))
        rounds = t.bot.posts.rounds
        # No --campaign: the file's only campaign, as on the command line.
        served = await asyncio.to_thread(post_through_bot, db, gm, "/turn open 2023-01-03", None)
        assert served is not None and served.outcome == "ok", served
        assert "Order of play: Seleucids (NA 90), Ptolemaics (GE 80)" in served.text
        assert t.bot.posts.rounds > rounds  # written by the bot's writer thread
        thread = await t.fake.wait_until(
            lambda: next((c for c in t.fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 20,
            "the turn's thread, opened by the bot for a post it took from the command line")
        await t.fake.wait_for_message(str(thread.id), lambda m: "**Turn 1 (290 BC)**" in m["content"], timeout=20)
        refused = await asyncio.to_thread(post_through_bot, db, "nobody", "/turn open 2023-01-03", "mare")
        assert refused is not None and refused.outcome == "refused"

    run(lambda: table(tmp_path, scenario))
