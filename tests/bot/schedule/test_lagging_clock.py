"""A running scheduler fires by the real clock while the service reads its own (a test's, a replay's): a job is
scheduled by its delay from the service's now, so a deadline early by the service's clock waits, and never
reschedules itself into the real past (a hot loop: "maximum number of running instances reached")."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from apscheduler.events import EVENT_JOB_MAX_INSTANCES, EVENT_JOB_SUBMITTED, JobEvent
from sqlmodel import Session, select

from bot.lottery.reconcile import Outcome, Status
from bot.schedule import scheduler as S
from bot.schedule.clock import Clock
from bot.schedule.job_store import run_date
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.draws import import_archive
from bot.store.schedule_tables import DONE, PLAYER_TURN, DeadlineRow
from tests.conftest import PLAYERS
from tests.fixture_paths import LOTTO

UTC = timezone.utc
LAG = timedelta(hours=5)


class LaggingClock(Clock):
    """The real time, LAG behind: a service clock that moves, as a replay's or a test table's does."""

    def now(self) -> datetime:
        return datetime.now(UTC) - LAG


async def stored(engine: object, day: date) -> Outcome:
    return Outcome(day, Status.ALREADY_STORED, f"the draw of {day} is already stored")


@pytest.fixture(autouse=True)
def no_app() -> Iterator[None]:
    yield
    S.install(None)


def campaign_due_in(path: Path, clock: Clock, delay: timedelta) -> tuple[Legatus, int]:
    """A historical campaign whose one player's deadline falls ``delay`` after the service's now (no reminder)."""
    service = Legatus(open_engine(path), clock=clock)
    with Session(service.engine) as session:
        import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "test")
        session.commit()
    assert service.create_campaign("war", "mare-nostrum", "gm", dict(PLAYERS), "historical", "1", "chan").ok
    assert service.post("gm", "/turn open 2023-01-03", "war", is_gm=True).ok
    S.sync_deadlines(service, clock.now())
    with Session(service.engine) as session:
        rows = session.exec(select(DeadlineRow).where(DeadlineRow.kind == PLAYER_TURN)).all()
        assert len(rows) == 1
        row = rows[0]
        row.due_at, row.remind_at = clock.now() + delay, None
        session.add(row)
        session.commit()
        assert row.id is not None
        return service, row.id


def count_runs(scheduler: Any, job_id: str) -> list[int]:
    """How many times the job was handed to the executor, and refused for an instance still running."""
    counts = [0, 0]

    def listen(event: JobEvent) -> None:
        if event.job_id == job_id:
            counts[0 if event.code == EVENT_JOB_SUBMITTED else 1] += 1

    scheduler.add_listener(listen, EVENT_JOB_SUBMITTED | EVENT_JOB_MAX_INSTANCES)
    return counts


def test_a_deadline_due_by_the_real_clock_but_hours_away_by_the_services_waits_for_its_delay(tmp_path: Path) -> None:
    """Due an hour after the service's now, which is four hours ago by the real clock: the job waits an hour."""
    clock = LaggingClock()
    service, deadline_id = campaign_due_in(tmp_path / "c.db", clock, timedelta(hours=1))

    async def scenario() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=stored, run=True)
        job_id = S.deadline_job_id(deadline_id)
        counts = count_runs(scheduler, job_id)
        try:
            # Before, the job fired at once, found the deadline "not yet due" and put itself back at its due time,
            # in the real past: it ran again at once, without end.
            start = time.monotonic()
            while time.monotonic() - start < 1.0 and counts == [0, 0]:
                await asyncio.sleep(0.05)
            assert counts == [0, 0]
            job = scheduler.get_job(job_id)
            assert job is not None
            expected = datetime.now(UTC) + timedelta(hours=1)
            assert abs(job.next_run_time - expected) < timedelta(minutes=1), job.next_run_time
        finally:
            scheduler.shutdown(wait=False)

    asyncio.run(scenario())


def test_a_deadline_due_shortly_by_the_services_clock_runs_once_when_its_time_comes(tmp_path: Path) -> None:
    clock = LaggingClock()
    service, deadline_id = campaign_due_in(tmp_path / "c.db", clock, timedelta(milliseconds=400))
    poster = S.RecordingPoster()

    async def scenario() -> None:
        scheduler = await S.start_scheduler(service, poster, clock, fetch=stored, run=True)
        counts = count_runs(scheduler, S.deadline_job_id(deadline_id))
        try:
            for _ in range(600):  # whatever the machine's load: it is the run count that must be exact
                if poster.sent:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # a job that put itself back would run again meanwhile
            assert counts == [1, 0]
        finally:
            scheduler.shutdown(wait=False)

    asyncio.run(scenario())
    # The game's own move for a seat whose time ran out; the log head after it hashes the real time, so it is left out.
    assert [s.text.splitlines()[:5] for s in poster.sent] == [[
        "Time is up for the Seleucids.",
        "✓ line 1 “/gm pass Seleucids timeout”: end the turn of the Seleucids",
        "    The GM ends the turn of the Seleucids: timeout.",
        "    The Seleucids end their turn.",
        "    The Ptolemaics (ptolemy) are to play: 2 action(s).",
    ]]
    with Session(service.engine) as session:
        row = session.get(DeadlineRow, deadline_id)
        assert row is not None and row.state == DONE


def test_the_run_date_is_the_services_time_while_the_scheduler_is_driven_by_hand(tmp_path: Path) -> None:
    """A paused scheduler run by ``run_due`` (tests, replays) keeps the service's times: run_due reads them as such."""
    clock = LaggingClock()
    service, _ = campaign_due_in(tmp_path / "c.db", clock, timedelta(hours=1))

    async def scenario() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=stored, run=False)
        try:
            due = datetime(2026, 9, 3, 6, 15, tzinfo=UTC)
            assert run_date(scheduler, due) == due
        finally:
            scheduler.shutdown(wait=False)

    asyncio.run(scenario())
