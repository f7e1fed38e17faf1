"""The scheduler's part of a graceful stop (bot/schedule/scheduler/, ``stop_scheduler``): a job already running
finishes, no job starts once the stop began, and the bound cuts a job that would hold the stop too long."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.schedule.scheduler import stop_scheduler


async def _started(ran: list[str], what: str) -> None:
    while what not in ran:
        await asyncio.sleep(0.01)


def test_a_running_job_finishes_and_a_job_due_during_the_stop_does_not_start() -> None:
    async def scenario() -> tuple[list[str], int, bool]:
        scheduler = AsyncIOScheduler(timezone=timezone.utc)
        scheduler.start()
        ran: list[str] = []

        async def slow() -> None:
            ran.append("slow began")
            await asyncio.sleep(0.6)
            ran.append("slow ended")

        async def later() -> None:
            ran.append("later")

        now = datetime.now(timezone.utc)
        scheduler.add_job(slow, "date", run_date=now)
        await asyncio.wait_for(_started(ran, "slow began"), 10)
        # Due while the stop waits for ``slow``: an unpaused scheduler would start it then.
        scheduler.add_job(later, "date", run_date=datetime.now(timezone.utc) + timedelta(seconds=0.2))
        left = await stop_scheduler(scheduler, timeout=10)
        await asyncio.sleep(0.4)
        return ran, left, scheduler.running

    assert asyncio.run(scenario()) == (["slow began", "slow ended"], 0, False)


def test_a_job_still_running_at_the_bound_is_cut_and_counted() -> None:
    async def scenario() -> tuple[list[str], int, float]:
        scheduler = AsyncIOScheduler(timezone=timezone.utc)
        scheduler.start()
        ran: list[str] = []

        async def stuck() -> None:
            ran.append("stuck began")
            await asyncio.sleep(30)
            ran.append("stuck ended")

        scheduler.add_job(stuck, "date", run_date=datetime.now(timezone.utc))
        await asyncio.wait_for(_started(ran, "stuck began"), 10)
        loop = asyncio.get_running_loop()
        began = loop.time()
        left = await stop_scheduler(scheduler, timeout=0.3)
        took = loop.time() - began
        await asyncio.sleep(0.1)  # the shutdown cancelled it: it never ends
        return ran, left, took

    ran, left, took = asyncio.run(scenario())
    assert (ran, left) == (["stuck began"], 1)
    assert 0.3 <= took < 5  # the bound, not the job, ended the wait


def test_a_lottery_fetch_under_way_does_not_hold_the_stop() -> None:
    """It waits on web sites (up to their timeout) and leaves nothing half sent: cut at once, fetched again later."""
    from bot.schedule import scheduler as module

    async def scenario() -> tuple[list[str], int, float]:
        scheduler = AsyncIOScheduler(timezone=timezone.utc)
        scheduler.start()
        ran: list[str] = []

        async def fetching(day_iso: str) -> None:
            ran.append("fetch began")
            await asyncio.sleep(30)
            ran.append("fetch ended")

        original = module.fetch_lotto
        module.fetch_lotto = fetching  # type: ignore[assignment]
        try:
            scheduler.add_job(module.fetch_lotto, "date", run_date=datetime.now(timezone.utc), args=["2023-01-03"])
            await asyncio.wait_for(_started(ran, "fetch began"), 10)
            loop = asyncio.get_running_loop()
            began = loop.time()
            left = await stop_scheduler(scheduler, timeout=10)
            return ran, left, loop.time() - began
        finally:
            module.fetch_lotto = original  # type: ignore[assignment]

    ran, left, took = asyncio.run(scenario())
    assert (ran, left) == (["fetch began"], 1)
    assert took < 2, took
