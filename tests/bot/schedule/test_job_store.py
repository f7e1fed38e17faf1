"""The shard's scheduler (bot/schedule/job_store.py): its timer is set again whatever a wake-up meets."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from typing import Any

from apscheduler.jobstores.memory import MemoryJobStore
from sqlalchemy.exc import OperationalError

from bot.schedule.job_store import _Scheduler


class LockedOnce(MemoryJobStore):
    """A job store whose database is locked the first times it is asked when the next job is due, as a job store
    on SQLite is while another connection holds the write lock past the busy timeout."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def get_next_run_time(self) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise OperationalError("SELECT next_run_time", {}, Exception("database is locked"))
        return super().get_next_run_time()


def test_the_job_timer_is_set_again_when_going_through_the_jobs_fails() -> None:
    async def scenario() -> tuple[list[str], int]:
        ran: list[str] = []
        store = LockedOnce(failures=2)
        scheduler = _Scheduler(jobstores={"default": store}, timezone=timezone.utc, jobstore_retry_interval=0.2)

        async def job() -> None:
            ran.append("ran")

        scheduler.start()
        try:
            # Added after the start: its wake-up goes through the jobs and fails twice before the job is due.
            scheduler.add_job(job, "date", run_date=datetime.now(timezone.utc) + timedelta(seconds=0.3))
            for _ in range(100):
                if ran:
                    break
                await asyncio.sleep(0.05)
        finally:
            scheduler.shutdown(wait=False)
        return ran, store.failures

    assert asyncio.run(scenario()) == (["ran"], 0)
