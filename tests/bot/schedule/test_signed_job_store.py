"""No code from data in the scheduler's table: apscheduler keeps each job as a pickle naming the function to run, so a
row written into the database (or into a backup later restored) ran its author's code when the bot started. Rows are
signed by the bot; one it did not sign is dropped unread, and the jobs the bot needs are rebuilt at start."""
from __future__ import annotations

import asyncio
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.schedule.signed_job_store import SignedJobStore
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.schedule import scheduler_drive as drive


class RunsCode:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('the job row ran code')",)


@pytest.fixture(autouse=True)
def uninstall() -> Any:
    yield
    S.install(None)


def start_and_stop(service: Legatus, clock: FixedClock) -> list[str]:
    async def main() -> list[str]:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=drive.fake_fetch, run=False)
        ids = sorted(job.id for job in scheduler.get_jobs())
        scheduler.shutdown(wait=False)
        return ids

    return asyncio.run(main())


@pytest.mark.parametrize("forged", ["unsigned", "bad tag"])
def test_a_crafted_job_row_runs_nothing_when_the_bot_starts(tmp_path: Path, forged: str) -> None:
    """Attacker: the operator with the database (or whoever hands over a backup to restore), writing a job row
    that runs a command when the scheduler starts."""
    db = tmp_path / "c.db"
    clock = FixedClock(drive.START)
    service = Legatus(open_engine(db), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(drive.PLAYERS), clock="live")
    assert "lotto-next" in start_and_stop(service, clock)
    marker = tmp_path / "ran"
    body = pickle.dumps(RunsCode(marker))
    if forged == "bad tag":
        body = bytes(32) + body
    with sqlite3.connect(db) as connection:
        connection.execute("INSERT INTO apscheduler_jobs (id, next_run_time, job_state) VALUES (?, ?, ?)",
                           ("planted", 0.0, body))
    connection.close()
    S.install(None)

    again = Legatus(open_engine(db), clock=clock)  # the bot restarted
    assert start_and_stop(again, clock) == ["lotto-next"], "the planted job is dropped, the bot's own are there"
    assert not marker.exists(), "a job row the bot did not write ran code at start"
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT id FROM apscheduler_jobs WHERE id = 'planted'").fetchall() == []
    connection.close()


def test_the_bot_s_own_jobs_read_back_in_another_process(tmp_path: Path) -> None:
    clock = FixedClock(drive.START)
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(drive.PLAYERS), clock="live")
    start_and_stop(service, clock)
    store = SignedJobStore(url=str(service.engine.url))
    store.start(None, "default")  # type: ignore[arg-type]
    (job,) = store.get_all_jobs()
    assert job.id == "lotto-next" and job.func is S.fetch_lotto
    assert store.lookup_job("lotto-next") is not None
