"""The scheduler apscheduler runs for a shard: its two job stores, its table, and the lease that makes one process
at a time run it (bot/schedule/scheduler/ says which jobs go where and why)."""
from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone
from typing import Any

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from sqlalchemy.engine import Engine

from bot.schedule.clock import Clock
from bot.schedule.signed_job_store import SignedJobStore
from bot.store.db import open_engine_unmigrated, writer
from bot.store.shards import ALL, Shard

log = logging.getLogger("legatus.scheduler")

UTC = timezone.utc
MEMORY = "memory"  # the job store of the deadlines' jobs (see bot/schedule/scheduler/); the others: "default"
JOB_DEFAULTS: dict[str, Any] = {
    # None: a job overdue by any amount (the bot was down) still runs, once; never skipped silently.
    "misfire_grace_time": None,
    "coalesce": True,
    "max_instances": 1,
}


def job_table(shard: Shard = ALL) -> str:
    """apscheduler's table: one per shard, since apscheduler 3 cannot share a job store between processes (each
    would run and remove the other's jobs). An unsharded bot keeps the original name."""
    return "apscheduler_jobs" if shard.whole else f"apscheduler_jobs_shard_{shard.id}_of_{shard.count}"


def lease_name(shard: Shard = ALL) -> str:
    """The process lock held by the one process whose scheduler runs this shard's jobs."""
    return f"scheduler:{shard.name}"


class _Scheduler(AsyncIOScheduler):
    """apscheduler's asyncio scheduler, woken once for many jobs added at once. Each wake-up reads every job store
    on the event loop, the persistent one from the database; a burst of posts adds a deadline job per post, from
    the writer thread, and woke it as many times, each wake-up a query the players' messages waited behind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._wake_lock = threading.Lock()
        self._wake_pending = False
        # The service's clock while this scheduler fires by the real one (``follow_clock``); None: it is driven by
        # hand (``run_due``) and a job's run date is the service's time itself.
        self.service_clock: Clock | None = None

    def wakeup(self) -> None:
        with self._wake_lock:
            if self._wake_pending:
                return
            self._wake_pending = True
        self._eventloop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        with self._wake_lock:
            self._wake_pending = False  # a job added from here on wakes it again: nothing is missed
        self._stop_timer()
        try:
            wait = self._process_jobs()
        except Exception as exc:
            # apscheduler catches a job store's failure to list the due jobs, not one to update or remove a job it
            # ran, nor to say when the next is due ("database is locked" under a long write): the timer was then
            # never set again, and no job ran until the next job added woke it. It is set again, always.
            wait = self.jobstore_retry_interval
            log.warning("the scheduler could not go through its jobs (%s: %s); trying again in %g s",
                        type(exc).__name__, exc, wait)
        self._start_timer(wait)


def follow_clock(scheduler: Any, clock: Clock) -> None:
    """This scheduler fires by the real clock for a service that reads ``clock``: ``run_date`` says when."""
    scheduler.service_clock = clock


def run_date(scheduler: Any, when: datetime) -> datetime:
    """When a job due at ``when`` by the service's clock runs by the scheduler's (real) clock: after the same delay
    from now. apscheduler fires by the real clock; with a service clock behind it (a test's, a replay's), a due time
    taken as is lay in the real past, so the job ran at once, found it "not yet due" by the service's clock, and
    put itself back at that same past moment: a hot loop. By the delay, a job early by the service's clock is put
    back later, never into the past. The same clocks (the bot's own): the same moment, within microseconds."""
    clock = getattr(scheduler, "service_clock", None)
    if clock is None:
        return when
    service_now = clock.now()  # read first: the real clock's reading after it can only make the job later
    return when + (datetime.now(UTC) - service_now)


def make_scheduler(engine: Engine, shard: Shard = ALL) -> AsyncIOScheduler:
    # An engine of its own (the job store disposes it at shutdown) with the store's connection settings: on SQLite
    # WAL, synchronous=NORMAL and the busy timeout (bot/store/db.py). A job-store write per deadline moved used to
    # sync the disk each time (SQLite's default, FULL). NORMAL may lose the last jobs on a power cut, never corrupt
    # the file, and the jobs are rebuilt from the deadline table at every start (``reconcile``): safe.
    # Signed rows (bot/schedule/signed_job_store.py): a job row names the code it runs, so none is run unless the
    # bot wrote it.
    store = SignedJobStore(engine=open_engine_unmigrated(engine.url.render_as_string(hide_password=False)),
                               tablename=job_table(shard))
    _create_job_table(store)
    return _Scheduler(jobstores={"default": store, MEMORY: MemoryJobStore()}, job_defaults=dict(JOB_DEFAULTS),
                      timezone=UTC)


def _create_job_table(store: SQLAlchemyJobStore, attempts: int = 20) -> None:
    """Create the job table now, under the write lock, so that the job store's own start finds it there: its
    check-then-create is a read turned write, which SQLite refuses at once (no busy wait) when another process
    wrote in between, as a second bot process starting beside the first does."""
    import time

    from sqlalchemy.exc import OperationalError

    for attempt in range(1, attempts + 1):
        try:
            store.jobs_t.create(writer(store.engine), checkfirst=True)
            return
        except OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or attempt == attempts:
                raise
            time.sleep(0.05 * attempt)
