"""Hole 9: "heads are not posted after events the scheduler records". Every message of the scheduler that follows a
change of the chain (a draw recorded, a seat timed out) carries the head, and each head is the log's at that SEQ."""
from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.schedule import scheduler_drive as drive
from tests.games.mediterranean_empires_players import standard_set_up

HEAD = re.compile(r"Log head after this post: (\d+):([0-9a-f]{64})")


def test_draws_and_timeouts_the_scheduler_posts_carry_the_head(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the operator with the database, rewriting what the scheduler recorded while nobody posted."""
    monkeypatch.setattr(drive, "END", datetime(2026, 9, 9, 0, 0, tzinfo=timezone.utc))
    asyncio.run(drive.main(tmp_path / "c.db", tmp_path / "posts.jsonl"))
    sent = [json.loads(line) for line in (tmp_path / "posts.jsonl").read_text().splitlines()]
    changing = [p for p in sent if str(p["key"]).startswith("lotto:") or ":timeout:" in str(p["key"])]
    assert len(changing) >= 4, [p["key"] for p in sent]
    log = [json.loads(line) for line in Legatus(open_engine(tmp_path / "c.db")).export().splitlines()]
    hashes = {e["seq"]: e["hash"] for e in log}
    for post in changing:
        heads = HEAD.findall(str(post["text"]))
        assert heads, post
        seq, digest = heads[-1]
        assert hashes[int(seq)] == digest, post["key"]


def test_a_beacon_the_scheduler_records_is_posted_with_the_head(tmp_path: Path) -> None:
    """Attacker: the operator with the database, rewriting a drand roll the bot recorded while nobody posted."""
    from datetime import timedelta

    from bot.schedule import scheduler as S
    from bot.schedule.clock import FixedClock
    from tests.bot.drand.drand_fakes import FakeRelay, serving
    from tests.bot.schedule.test_beacon_pump import PLAYERS, _service
    from tests.games.mediterranean_empires_players import START

    clock = FixedClock(START)
    relay = FakeRelay()

    async def scenario() -> None:
        service = _service(tmp_path / "me.db", clock, relay)
        assert service.create_campaign("sea", "mediterranean-empires", "gm", dict(PLAYERS)).changed
        standard_set_up(service, "sea")
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=drive.fake_fetch, run=False)
        try:
            assert "Waiting for the roll" in service.post("ann", "draw").render()
            await S.run_due(scheduler, clock.now() + timedelta(seconds=20), clock)
            [sent] = poster.sent
            last = json.loads(service.export("sea").splitlines()[-1])
            assert f"Log head after this post: {last['seq']}:{last['hash']}" in sent.text, sent.text
        finally:
            S.install(None)
            scheduler.shutdown(wait=False)

    with serving(relay):
        asyncio.run(scenario())
