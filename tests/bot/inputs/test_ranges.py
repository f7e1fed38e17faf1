"""Issue 12, item 1: every number and date a user types is range-checked, and no stored value stops the start-up."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.schedule_tables import ACTIVE, DeadlineRow, as_utc, settings_for
from tests.bot.schedule.scheduler_drive import START, fake_fetch
from tests.conftest import PLAYERS
from tests.fresh_db import migrated_engine

UTC = timezone.utc


@pytest.fixture(autouse=True)
def no_app() -> Iterator[None]:
    yield
    S.install(None)


def live(path: Path) -> tuple[Legatus, FixedClock]:
    clock = FixedClock(START)
    service = Legatus(migrated_engine(path), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    return service, clock


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "99999999", "0", "-3", "8761"])
def test_settings_refuse_hours_out_of_range(tmp_path: Path, value: str) -> None:
    service, _ = live(tmp_path / "c.db")
    reply = service.post("gm", f"/campaign settings player_hours={value}")
    assert not reply.ok
    text_ = reply.render()
    assert "internal error" not in text_
    assert f"player_hours={value}" in text_ and "8760" in text_
    with Session(service.engine) as session:
        assert settings_for(session, 1).player_hours == 48


def test_settings_accept_a_sane_value(tmp_path: Path) -> None:
    service, _ = live(tmp_path / "c.db")
    assert service.post("gm", "/campaign settings player_hours=72 remind_hours_before=0").ok
    with Session(service.engine) as session:
        assert settings_for(session, 1).player_hours == 72


async def _opened(service: Legatus, clock: FixedClock) -> object:
    scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=fake_fetch, run=False)
    assert service.post("gm", "/turn open").ok
    await S.run_due(scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
    assert service.state()["to_play"] == "Gauls"
    return scheduler


@pytest.mark.parametrize("line", [
    "/gm extend Gauls inf", "/gm extend Gauls nan", "/gm extend Gauls -1e300", "/gm extend Gauls 1e300",
    "/gm extend Gauls 9000", "/gm deadline Gauls 0001-01-01", "/gm deadline Gauls 9999-12-31 23:59",
    "/gm deadline Gauls 2031-01-01 10:00",
])
def test_gm_deadline_tools_refuse_absurd_values(tmp_path: Path, line: str) -> None:
    service, clock = live(tmp_path / "c.db")

    async def main() -> None:
        await _opened(service, clock)
        with Session(service.engine) as session:
            before = [d.due_at for d in session.exec(select(DeadlineRow)).all()]
        reply = service.post("gm", line)
        assert not reply.ok, reply.render()
        assert "internal error" not in reply.render()
        with Session(service.engine) as session:
            assert [d.due_at for d in session.exec(select(DeadlineRow)).all()] == before

    asyncio.run(main())


def test_gm_extend_still_works(tmp_path: Path) -> None:
    service, clock = live(tmp_path / "c.db")

    async def main() -> None:
        scheduler = await _opened(service, clock)
        # Taken at once: the scheduler moves its job after the post commits, not while the post holds the lock
        # (it used to wait for SQLite's busy timeout ten times over, then tell the GM the campaign was too busy).
        extended = service.post("gm", "/gm extend Gauls -2").render()
        assert "extended" in extended and "too busy" not in extended, extended
        moved = service.post("gm", "/gm deadline Gauls 2026-09-10 20:00").render()
        assert "extended" in moved and "too busy" not in moved, moved
        # And the scheduler's job followed the moved deadline (its reminder, or its end).
        with Session(service.engine) as session:
            row = session.exec(select(DeadlineRow)).all()[-1]
        job = scheduler.get_job(f"deadline-{row.id}")  # type: ignore[attr-defined]
        due = {as_utc(row.remind_at), as_utc(row.due_at)}
        assert job is not None and job.next_run_time in due, (job, row)
        assert as_utc(row.due_at) == datetime(2026, 9, 10, 18, 0, tzinfo=UTC)  # 20:00 in Rome

    asyncio.run(main())


@pytest.mark.parametrize("sql", [
    "UPDATE campaign_settings SET player_hours = 1e308",
    "UPDATE campaign_settings SET player_hours = 99999999, remind_hours_before = -1e308",
    "UPDATE campaign_settings SET timezone = 'Mars/Olympus', on_timeout = 'explode'",
    "UPDATE deadline SET due_at = '9999-12-31 23:59:59.999999'",
    "UPDATE deadline SET due_at = '0001-01-01 00:00:00', remind_at = '9999-12-31 00:00:00'",
    "UPDATE deadline SET due_at = 'garbage'",
])
def test_start_up_survives_any_stored_row(tmp_path: Path, sql: str) -> None:
    db = tmp_path / "c.db"
    service, clock = live(db)
    asyncio.run(_opened(service, clock))
    service.post("gm", "/campaign settings player_hours=48")  # makes the settings row
    with service.engine.begin() as connection:
        connection.execute(text(sql))
        if "campaign_settings" in sql:  # the start-up then makes a new deadline from the bad settings
            connection.execute(text("UPDATE deadline SET state = 'cancelled'"))
    again = Legatus(open_engine(db), clock=clock)

    async def restart() -> S.RecordingPoster:
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(again, poster, clock, fetch=fake_fetch, run=False)
        await S.run_due(scheduler, clock.now(), clock)
        return poster

    poster = asyncio.run(restart())
    with Session(again.engine) as session:
        for d in session.exec(select(DeadlineRow).where(DeadlineRow.state.in_(ACTIVE))).all():  # type: ignore[attr-defined]
            assert START <= d.due_at <= datetime(2027, 9, 2, tzinfo=UTC)
    assert again.state()["to_play"] == "Gauls"
    (gauls,) = [d for d in _active(again) if d.seat == "Gauls"]
    assert gauls.due_at > START
    if "deadline" in sql or "1e308" in sql or "Mars" in sql or "99999999" in sql:
        assert any("GM" in s.text and "repaired" in s.text for s in poster.sent), [s.text for s in poster.sent]


def _active(service: Legatus) -> list[DeadlineRow]:
    with Session(service.engine) as session:
        return list(session.exec(select(DeadlineRow).where(DeadlineRow.state.in_(ACTIVE))).all())  # type: ignore[attr-defined]
