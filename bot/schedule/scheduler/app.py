"""The scheduler's running app, its claims and its locks: what every job reaches (``install``, ``current_app``), the
cross-process lock a job works under (``_exclusive``), and the claim protocol of a message (claim, send, record:
``_send``). The package's docstring (bot/schedule/scheduler/__init__.py) says why it is built this way."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy.engine import Engine
from sqlmodel import Session

from bot.schedule.clock import Clock
from bot.lottery.fetch import fetch_draw_async
from bot.lottery.reconcile import Outcome
from bot.schedule.job_store import JOB_DEFAULTS, MEMORY, run_date
from bot.schedule.posting import NotPosted, Poster
from bot.store.db import writer
from bot.store.posted import find, mark_sent
from bot.store.process_locks import ProcessLocks, process_locks
from bot.store.shards import ALL, Shard
from bot.store.schedule_tables import NOTHING_SENT, as_utc, settings_for
from bot.store.campaigns import CampaignRow, list_campaigns


log = logging.getLogger("legatus.scheduler")

UTC = timezone.utc
BOT = "legatus"  # bot.service.BOT: the actor of the draws the bot records
LOTTO_JOB = "lotto-next"
# A draw not yet published is fetched again after these delays (minutes); then the GM is alerted.
LOTTO_RETRIES = (15, 30, 60, 120, 240)

FetchDraw = Callable[[Engine, date], Awaitable[Outcome]]


# An unsent message is tried again after this long (or as soon as the turn's thread opens: ``resume_unsent``).
RESEND_AFTER = timedelta(minutes=10)


async def _default_fetch(engine: Engine, day: date) -> Outcome:
    return await fetch_draw_async(engine, day)


@dataclass
class App:
    service: Any  # bot.service.Legatus (not imported: service.py imports nothing from here)
    poster: Poster
    clock: Clock
    scheduler: BaseScheduler | None = None
    fetch: FetchDraw = _default_fetch
    # The transport's per-campaign lock (LegatusBot.campaign_turn): a timeout pass must not interleave with a post;
    # held, the campaign's posts sent before are applied and those sent after wait.
    campaign_lock: Callable[[str], contextlib.AbstractAsyncContextManager[Any]] | None = None
    # The guilds this process serves (bot/store/shards.py): it schedules and acts only for their campaigns.
    shard: Shard = ALL
    # A running scheduler sweeps for orphaned work every SWEEP_SECONDS (tests driving jobs by hand do not).
    sweeps: bool = False
    standby: asyncio.Task[None] | None = None

    @property
    def engine(self) -> Engine:
        return self.service.engine

    @property
    def locks(self) -> ProcessLocks:
        return process_locks(self.engine)

    def owns(self, campaign: CampaignRow | None) -> bool:
        return campaign is not None and self.shard.owns(campaign.guild_id)

    def own_campaign_ids(self) -> set[int] | None:
        """The ids of this shard's campaigns; None: every campaign (an unsharded process)."""
        if self.shard.whole:
            return None
        with Session(self.engine) as session:
            return {c.id for c in list_campaigns(session) if c.id is not None and self.owns(c)}


_app: App | None = None


def install(app: App | None) -> None:
    global _app
    _app = app


def installed() -> App | None:
    """The running app; None when no scheduler was started (a plain CLI post)."""
    return _app


def current_app() -> App:
    if _app is None:
        raise RuntimeError("the scheduler's app is not installed: call start_scheduler first")
    return _app


def _checkpoint(name: str) -> None:
    from bot.schedule import scheduler as package  # the seam is the package's, where the tests set it

    if package.crash_hook is not None:
        package.crash_hook(name)


@contextlib.asynccontextmanager
async def _campaign_locked(app: App, name: str) -> AsyncIterator[None]:
    if app.campaign_lock is None:
        yield
        return
    async with app.campaign_lock(name):
        yield


# A job whose work another live process holds is tried again after this long: by then the holder has finished
# (the claim says so, and the job stops), or died and left its claim to take over.
LOCKED_RETRY = timedelta(seconds=30)


def work_lock(claim_key: str) -> str:
    """The process lock a claim is worked under (bot/store/process_locks.py): a deadline's reminder and timeout
    share their deadline's, every other claim has its own key."""
    head = claim_key.split(":")[0]
    return head if head.startswith("deadline-") else claim_key


@contextlib.asynccontextmanager
async def _exclusive(app: App, name: str,
                     retry: tuple[str, Callable[..., Any], list[Any]] | None = None) -> AsyncIterator[bool]:
    """Hold the lock ``name`` across processes while the body runs; yields False if another process holds it,
    and then schedules ``retry`` (job id, function, arguments) after LOCKED_RETRY.

    Claims (bot/store/posted.py) already make one process the claimer; the lock tells a claim being worked on
    (claimed, not yet recorded as sent) from one whose process died, which is the only kind to take over.
    """
    locks = app.locks
    mine = await asyncio.to_thread(locks.try_acquire, name)
    if not mine and retry is not None:
        log.info("%s is held by another process; %s tried again in %ss", name, retry[0], LOCKED_RETRY.seconds)
        _add(app.scheduler, retry[0], retry[1], as_utc(app.clock.now()) + LOCKED_RETRY, retry[2])
    try:
        yield mine
    finally:
        if mine:
            await asyncio.to_thread(locks.release, name)


def _store_of(job_id: str) -> str:
    return MEMORY if job_id.startswith("deadline-") else "default"


def _add(scheduler: BaseScheduler | None, job_id: str, func: Callable[..., Any], when: datetime, args: list[Any]) -> None:
    if scheduler is None:
        return  # no scheduler (a plain CLI post): the row is the truth, reconcile schedules it later
    # ``when`` is the service's time; the scheduler fires by the real clock (``run_date``).
    scheduler.add_job(func, trigger="date", run_date=run_date(scheduler, when), args=args, id=job_id, replace_existing=True,
                      jobstore=_store_of(job_id), **JOB_DEFAULTS)


async def _send(app: App, key: str, campaign_id: int, text: str | None, ping: list[str],
                files: Sequence[tuple[str, bytes]] = (), turn: int | None = None,
                since: datetime | None = None) -> None:
    """Send a claimed message, then record it. ``text`` None: nothing to say any more; the claim is closed.
    ``since``: the claim was an earlier attempt's, made then (``open_since``): the poster looks for what it sent."""
    _checkpoint("claimed")
    message_id = None
    if text:
        try:
            message_id = await app.poster.post(campaign_id, text, ping=ping, key=key, files=files, turn=turn,
                                               since=since)
        except NotPosted as exc:
            # Left claimed and unsent: tried again later, or as soon as the turn's thread opens.
            log.info("campaign %s: %s not posted yet (%s); tried again later", campaign_id, key, exc)
            row = await asyncio.to_thread(_find, app, key)
            if row is not None:
                from bot.schedule.scheduler.message_jobs import _resume_job  # which job resends: the jobs' own

                job = _resume_job(row)
                if job is not None:
                    _add(app.scheduler, job[0], job[1], as_utc(app.clock.now()) + RESEND_AFTER, job[2])
            return
        _checkpoint("sent")
        # Which process sent what: with shards, the log of each says it acted for its own campaigns only.
        log.info("campaign %s: %s posted by %s", campaign_id, key, app.shard.describe())
    await asyncio.to_thread(_record_sent, app, key, campaign_id, message_id or NOTHING_SENT)
    _checkpoint("recorded")


def _find(app: App, key: str) -> Any:
    with Session(app.engine) as session:
        return find(session, key)


def _record_sent(app: App, key: str, campaign_id: int, message_id: str) -> None:
    with Session(writer(app.engine)) as session:
        campaign = session.get(CampaignRow, campaign_id)
        mark_sent(session, key, message_id, campaign.channel_id if campaign else None)


def open_since(session: Session, key: str) -> datetime | None:
    """When an earlier attempt claimed ``key``, if its send was never recorded (it may have reached Discord)."""
    row = find(session, key)
    return row.posted_at if row is not None and row.message_id is None else None


def _sent(session: Session, key: str) -> bool | None:
    """None: never claimed; False: claimed, send not confirmed (resume it); True: done, skip."""
    row = find(session, key)
    return None if row is None else row.message_id is not None


def _campaign_and_settings(session: Session, campaign_id: int) -> tuple[CampaignRow, Any]:
    campaign = session.get(CampaignRow, campaign_id)
    assert campaign is not None
    return campaign, settings_for(session, campaign_id)


Step = tuple[str, Callable[..., Any], datetime, list[Any]]  # a job to add: id, function, when, arguments


def _add_step(app: App, step: Step | None) -> None:
    """Add a job decided inside a write transaction, once it is over: the job store writes through a connection
    of its own, which would wait for that transaction's lock (SQLite)."""
    if step is not None:
        _add(app.scheduler, *step)
