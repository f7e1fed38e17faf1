"""Hole 9: "heads are not posted after events the scheduler records". The draw the scheduler fetches and records is
posted on Discord with the log's head, so the channel itself witnesses every change of the chain."""
from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timezone
from pathlib import Path

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.discord.bot import LegatusBot
from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.verify import verify
from engine.witness import read_witnesses
from tests.bot.discord.test_turn_threads import SEATS, driven_scheduler, with_bot  # noqa: F401  (a fixture)

UTC = timezone.utc
HEAD = re.compile(r"Log head after this post: (\d+):([0-9a-f]{64})")


def test_a_draw_the_scheduler_records_is_posted_with_the_head(tmp_path: Path, driven_scheduler: None) -> None:
    """Attacker: the operator with the database, who would rewrite the log after the draw came in and re-hash it;
    the draw's own Discord message fixes the head right after it."""
    clock = FixedClock(datetime(2026, 9, 1, 6, 0, tzinfo=UTC))
    service = Legatus(open_engine(tmp_path / "live.db"), clock=clock)

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            world = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base, fake.gateway_url):

                async def run(bot: LegatusBot) -> None:
                    channel = str(world.channels["mare-nostrum"].id)
                    gm_role = str(world.roles["GM"].id)
                    made = await fake.invoke_slash(None, channel, "gm", "campaign",
                                                   {"name": "live", "gm_role": gm_role, "clock": "live"},
                                                   subcommand="create")
                    assert "created" in (await made.wait_reply(timeout=10))["content"]
                    row = service.campaign_for_channel_name("live")
                    assert row is not None
                    for nation, user in SEATS.items():
                        service.post(row.gm, f"/campaign assign {nation} <@{fake.user(user).id}>", "live")
                    service.post(row.gm, "/turn open", "live")
                    await S.run_due(bot.scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
                    thread = await fake.wait_until(lambda: next(
                        (c for c in fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 10,
                        "the turn's thread")
                    draw = await fake.wait_for_message(
                        str(thread.id), lambda m: "Lottery draw of 2026-09-01 recorded" in m["content"], timeout=10)
                    events = [json.loads(line) for line in service.export("live").splitlines()]
                    seq, digest = HEAD.findall(draw["content"])[-1]
                    assert (int(seq), digest) == (events[-1]["seq"], events[-1]["hash"]), draw["content"]
                    # The channel as a verifier would export it: the draw's message matches the log.
                    witnesses, _ = read_witnesses(json.dumps({"messages": fake.messages_in(str(thread.id))}))
                    assert any(w.seq == int(seq) for w in witnesses)
                    from bot.cli import read_log

                    log = tmp_path / "live.log"
                    log.write_text(service.export("live"))
                    ruleset = service.ruleset_of("live")
                    draws = {"2026-09-01": {w: list(n) for w, n in events[-1]["data"]["numbers"].items()}} \
                        if events[-1]["kind"] == "draw.recorded" else {}
                    found = verify(ruleset, read_log(log), draws, witnesses=witnesses)
                    assert not [f for f in found.findings if f.purpose == "witness"], found.findings

                await with_bot(fake, world, service, run)

    asyncio.run(asyncio.wait_for(scenario(), 60))
