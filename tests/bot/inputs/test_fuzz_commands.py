"""Issue 12's proof: every command and setting, shell's and game's, fed hostile numbers, dates and bytes, as the GM
and as a player. No answer is an internal error, nothing refused is applied, and the bot still starts afterwards
(a new process: the store opens, the log folds, the scheduler reconciles every stored row)."""
from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.commands import COMMANDS
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.schedule.scheduler_drive import START, fake_fetch
from tests.conftest import PLAYERS

HOSTILE = [
    "nan", "NaN", "inf", "-inf", "1e308", "-1e308", "99999999999999999999", "-1", "0", "-0", "1.5", "1e-320",
    "0001-01-01", "9999-12-31", "2026-02-30", "2026-13-01", "0001-01-01 00:00", "9999-12-31 23:59",
    "\x00", "\udcff", "\ufffd\ufffd", "🐘", "'", '"', "\\", "%s", "{}", "@everyone", "<@&1>", "x" * 5000,
    "player_hours=nan", "player_hours=inf", "player_hours=1e308", "remind_hours_before=-5", "timezone=Mars/Olympus",
    "on_timeout=explode", "timezone=" + "A" * 300,
]


def test_every_command_survives_hostile_arguments_and_the_bot_still_starts(tmp_path: Path) -> None:
    db = tmp_path / "fuzz.db"
    clock = FixedClock(START)
    service = Legatus(open_engine(db), clock=clock)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live").changed
    names = sorted(set(COMMANDS) | {c.name for c in service.ruleset_of("c").commands()})
    rng = random.Random(20261123)
    seen = 0
    for name in names:
        for author in ("gm", "scipio"):
            for _ in range(12):
                args = " ".join(rng.choice(HOSTILE) for _ in range(rng.randint(1, 4)))
                reply = service.post(author, f"/{name} {args}")
                text = reply.render()
                assert "internal error" not in text.lower(), (name, args[:80], text[:300])
                assert len(text) < 20_000, "a hostile argument is quoted, never echoed whole"
                seen += 1
    assert seen == len(names) * 24

    # A fresh process: the store opens, the campaign folds, the scheduler starts over every stored row.
    again = Legatus(open_engine(db), clock=clock)
    assert again.state("c") == service.state("c")

    async def start() -> None:
        scheduler = await S.start_scheduler(again, S.RecordingPoster(), clock, fetch=fake_fetch, run=False)
        await S.run_due(scheduler, clock.now(), clock)
        S.install(None)

    asyncio.run(start())
