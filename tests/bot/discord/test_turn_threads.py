"""Each turn's thread on the fake Discord: opened whenever its turn becomes playing (a live campaign's turn opens
on a lottery draw the scheduler records), stored so a restart finds it archived, never guessed by name, and a
message with nowhere to go yet waits instead of being recorded as sent."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.devdiscord.model import DevWorld
from bot.discord.bot import LegatusBot
from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.discord_places import TurnThreadRow
from bot.store.posted import PostedRow
from bot.store.schedule_tables import NOTHING_SENT, save_settings
from tests.bot.schedule import scheduler_drive as drive

UTC = timezone.utc
START = datetime(2026, 9, 1, 6, 0, tzinfo=UTC)
SEATS = {"Romans": "alice", "Gauls": "bob", "Carthaginians": "carla", "Macedonians": "max", "Ptolemaics": "pat", "Seleucids": "sam"}


@pytest.fixture
def driven_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's scheduler paused and fed recorded draws: the test runs its jobs with ``run_due``."""
    real = S.start_scheduler

    async def paused(service: Any, poster: Any, clock: Any = None, **kw: Any) -> Any:
        kw.update(fetch=drive.fake_fetch, run=False)
        return await real(service, poster, clock, **kw)

    monkeypatch.setattr(S, "start_scheduler", paused)


async def with_bot(fake: FakeDiscord, world: DevWorld, service: Legatus, body: Callable[[LegatusBot], Awaitable[None]]) -> None:
    bot = LegatusBot(service, guild_id=int(world.guild.id), guild_ready_timeout=0.05)
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until(lambda: bot.is_ready() and fake.registered_commands, 10, "the bot to be ready")
        await body(bot)
    finally:
        await bot.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


def test_a_live_forum_turn_opens_its_post_on_the_draw_and_keeps_it_across_a_restart(tmp_path: Path, driven_scheduler: None) -> None:
    clock = FixedClock(START)
    service = Legatus(open_engine(tmp_path / "live.db"), clock=clock)

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            world = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base, fake.gateway_url):
                posts: dict[str, str] = {}

                async def first_run(bot: LegatusBot) -> None:
                    setup, _ = await fake.user_posts("campaign-forum", "gm", "Mare Nostrum: setup", "Sign-ups here")
                    here = str(setup["id"])
                    gm_role = str(world.roles["GM"].id)
                    invocation = await fake.invoke_slash(None, here, "gm", "campaign", {"name": "live", "gm_role": gm_role, "clock": "live"}, subcommand="create")
                    assert "created" in (await invocation.wait_reply(timeout=10))["content"]
                    row = service.campaign_for_channel_name("live")
                    assert row is not None and row.id is not None
                    campaign_id, gm = row.id, row.gm
                    save_settings(service.engine, campaign_id, player_hours=48, remind_hours_before=12, on_timeout="pass")
                    for nation, user in SEATS.items():
                        assert "✓" in service.post(gm, f"/campaign assign {nation} <@{fake.user(user).id}>", "live").render()
                    # The forum refuses the first tries (the observer's, the poster's) to open the turn's post: the draw's message must wait for it.
                    fake.fail_next("POST", "/channels/{channel_id}/threads", status=403, code=50013, message="Missing Permissions", times=2)
                    service.post(gm, "/turn open", "live")
                    assert not service.summary("live").playing, "a live turn waits for its draw"
                    # The draw is published: the scheduler records it; the turn becomes playing.
                    await S.run_due(bot.scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
                    assert service.summary("live").playing
                    await asyncio.sleep(0.3)
                    assert not [c for c in fake.world.channels.values() if c.name.startswith("Turn 1")]
                    with Session(service.engine) as session:
                        lotto = session.exec(select(PostedRow).where(PostedRow.kind == "lotto")).one()
                    assert lotto.message_id is None, "a message with nowhere to go is not recorded as sent"
                    # The retry job opens the post, and the waiting draw goes into it.
                    await S.run_due(bot.scheduler, datetime(2026, 9, 1, 18, 25, tzinfo=UTC), clock)
                    post = await fake.wait_until(lambda: next((c for c in fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's forum post")
                    posts["turn"] = str(post.id)
                    draw = await fake.wait_for_message(posts["turn"], lambda m: "Lottery draw of 2026-09-01 recorded" in m["content"], timeout=10)
                    assert draw["mentions"], "the first player is pinged with the news that their turn began"
                    with Session(service.engine) as session:
                        lotto = session.exec(select(PostedRow).where(PostedRow.kind == "lotto")).one()
                        stored = session.exec(select(TurnThreadRow)).all()
                    assert lotto.message_id == draw["id"]
                    assert [(r.turn, r.thread_id) for r in stored] == [(1, posts["turn"])]
                    # Discord auto-archives the quiet post; a player opens one named like a turn's.
                    await fake.archive_thread(posts["turn"])
                    decoy, _ = await fake.user_posts("campaign-forum", "carla", "Turn 1 - Carthage", "our plans")
                    posts["decoy"] = str(decoy["id"])

                await with_bot(fake, world, service, first_run)

                async def after_restart(bot: LegatusBot) -> None:
                    # The first player's reminder, 36 hours on, goes to the archived turn post (which it unarchives).
                    await S.run_due(bot.scheduler, datetime(2026, 9, 3, 7, 0, tzinfo=UTC), clock)
                    reminder = await fake.wait_for_message(posts["turn"], lambda m: "your turn ends" in m["content"], timeout=10)
                    assert reminder["mentions"]
                    assert not fake.channel(posts["turn"]).archived
                    assert not [m for m in fake.messages_in(posts["decoy"]) if m["author"]["id"] == str(fake.bot_user.id)]
                    with Session(service.engine) as session:
                        rows = session.exec(select(PostedRow)).all()
                    assert rows and all(r.message_id not in (None, NOTHING_SENT) for r in rows), [(r.key, r.message_id) for r in rows]

                await with_bot(fake, world, service, after_restart)

    asyncio.run(asyncio.wait_for(scenario(), 60))
