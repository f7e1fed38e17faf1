"""Starting and stopping the shard's scheduler: the lease that lets one process at a time run it, the standby that takes
over from a dead one, and the graceful stop that lets running jobs end."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.schedulers.base import BaseScheduler

from bot.schedule.clock import Clock
from bot.schedule.job_store import follow_clock, lease_name, make_scheduler
from bot.schedule.posting import Poster
from bot.store.shards import ALL, Shard
from bot.schedule.scheduler.app import FetchDraw, _default_fetch, App, installed, install
from bot.schedule.scheduler.reconciliation import DeadlineKeeper, reconcile, _own_names

log = logging.getLogger("legatus.scheduler")


# A process whose shard's scheduler runs elsewhere tries to take it over this often.
STANDBY_POLL_SECONDS = 2.0


def _take_lease(app: App) -> bool:
    """This process runs the shard's scheduler if no other live process does (it may hold the lease already: a
    scheduler restarted in the same process)."""
    name = lease_name(app.shard)
    return name in app.locks.held() or app.locks.try_acquire(name)


def release_lease(shard: Shard = ALL) -> None:
    """A clean stop lets a standby process take the shard over at once (a dead process releases it anyway)."""
    app = installed()
    if app is not None:
        app.locks.release(lease_name(shard))


# A graceful stop of the bot or the offline console (SIGTERM, SIGINT) lets what is under way finish for at most this
# long; deploy/ gives the process more (systemd's TimeoutStopSec, compose's stop_grace_period) before a kill.
DRAIN_SECONDS = 10.0
# What `docker stop`, `systemctl stop` (SIGTERM) and Ctrl-C (SIGINT) send: each begins the graceful stop.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def stop_scheduler(scheduler: BaseScheduler, shard: Shard = ALL, timeout: float = DRAIN_SECONDS) -> int:
    """A graceful stop: no job starts from now on, the jobs already running finish (for at most ``timeout``
    seconds; a lottery fetch is cut at once, ``_cut_at_stop``), then the scheduler shuts down and the shard's lease is
    released. Returns how many jobs were cut (by the bound or as fetches; a claim they made stays unsent and the
    next start resends it).

    apscheduler's own ``shutdown`` cancels running coroutine jobs at once (its AsyncIOExecutor cannot wait), which
    cut a timeout between its claim and its message; pausing first, then waiting on the executor's futures, lets
    them end."""
    if not scheduler.running:
        return 0
    scheduler.pause()  # the scheduler's loop wakes, sees it paused and submits nothing more
    log.info("scheduler paused for the stop: no job starts from now on")
    app = installed()
    if app is not None and app.scheduler is scheduler and app.standby is not None:
        app.standby.cancel()  # a standby process that stops takes nothing over
    running = [f for executor in getattr(scheduler, "_executors", {}).values()
               for f in getattr(executor, "_pending_futures", ()) if not f.done()]
    cut = 0
    for future in running:
        job = _job_of(future)
        if job is not None and job.func in _cut_at_stop():
            cut += future.cancel()
    if running:
        await asyncio.wait([asyncio.ensure_future(f) for f in running], timeout=timeout)
    left = cut + sum(1 for f in running if not f.done())
    scheduler.shutdown(wait=False)
    release_lease(shard)
    return left


def _cut_at_stop() -> tuple[Callable[..., Any], ...]:
    """Jobs a stop does not wait for: a lottery fetch waits on the operator's and the official web sites, up to
    their whole network timeout, and holds nothing half sent (a claim it made stays unsent and the next start
    resends it, ``_resume_job``; a draw not fetched yet is fetched again)."""
    from bot.schedule import scheduler as package  # the package's name: the one a test or a stored job knows

    return (package.fetch_lotto,)


def _job_of(future: Any) -> Any:
    """The apscheduler job a running coroutine job's task runs (its ``run_coroutine_job`` frame holds it), or None."""
    coroutine = future.get_coro() if isinstance(future, asyncio.Task) else None
    frame = getattr(coroutine, "cr_frame", None)
    return frame.f_locals.get("job") if frame is not None else None


async def _stand_by(app: App, run: bool) -> None:
    """Wait for the shard's scheduler to be free, then take it over: reconcile (which resumes the claims the dead
    process left unsent) and run."""
    scheduler = app.scheduler
    assert scheduler is not None
    while scheduler.running:
        if await asyncio.to_thread(_take_lease, app):
            log.warning("%s: the scheduler is free again; this process takes it over", app.shard.describe())
            reconcile(app)
            from bot.schedule.beacon_pump import resume_waiting

            resume_waiting(app.service, scheduler, app.clock, _own_names(app, app.own_campaign_ids()))
            if run:
                scheduler.resume()
            return
        await asyncio.sleep(STANDBY_POLL_SECONDS)


async def start_scheduler(
    service: Any,
    poster: Poster,
    clock: Clock | None = None,
    *,
    fetch: FetchDraw | None = None,
    campaign_lock: Callable[[str], contextlib.AbstractAsyncContextManager[Any]] | None = None,
    run: bool = True,
    shard: Shard = ALL,
) -> AsyncIOScheduler:
    """Register the DeadlineKeeper, open the persistent job store, reconcile, schedule the next fetch, start.

    Must be called inside the running event loop (LegatusBot.setup_hook, or the console's own loop).
    ``run=False`` leaves it paused: tests drive it with ``run_due``. ``shard``: only its campaigns are scheduled.
    One process at a time runs a shard's scheduler (its lease, a process lock): another process of the same shard
    (a second copy, the new one during a deploy) stands by, and takes over when the first stops or dies.
    """
    clock = clock or service.clock
    # The deadline tables need no creating here: open_engine brought the database to alembic's head.
    scheduler = make_scheduler(service.engine, shard)
    if run:
        follow_clock(scheduler, clock)  # before the first job is added: every run date is then by the real clock
    app = App(service=service, poster=poster, clock=clock, scheduler=scheduler,
              fetch=fetch or _default_fetch, campaign_lock=campaign_lock, shard=shard, sweeps=run)
    install(app)
    from bot.schedule.beacon_pump import BeaconWatcher

    service.observers[:] = [o for o in service.observers if not isinstance(o, (DeadlineKeeper, BeaconWatcher))]
    keeper = DeadlineKeeper(service, clock)
    keeper.scheduler = scheduler
    service.observers.append(keeper)
    # A campaign on drand moves on when its round comes, not when somebody next posts (bot/schedule/beacon_pump.py).
    watcher = BeaconWatcher(service, clock)
    watcher.scheduler = scheduler
    service.observers.append(watcher)
    # Paused first: the store's jobs are only visible once started, and none may fire before reconcile.
    scheduler.start(paused=True)
    if not await asyncio.to_thread(_take_lease, app):
        # The deadlines this process's posts create still go into the shard's table; the running one acts on them.
        log.warning("%s: another process runs this shard's scheduler; standing by to take over", shard.describe())
        app.standby = asyncio.get_running_loop().create_task(_stand_by(app, run))
        return scheduler
    reconcile(app)
    from bot.schedule.beacon_pump import resume_waiting

    resume_waiting(service, scheduler, clock, _own_names(app, app.own_campaign_ids()))
    if run:
        scheduler.resume()
    return scheduler
