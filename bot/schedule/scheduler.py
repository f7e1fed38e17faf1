"""Deadlines, reminders and lottery fetches on a persistent apscheduler, safe across crashes and restarts.

The ``deadline`` table is the truth (bot/store/schedule_tables.py); a job only says when to look at a deadline
again. At start-up ``reconcile`` makes the jobs match the rows, and the rows match the campaigns' states (a crash
between a post's commit and its observer leaves a nation without a deadline; a post made with no scheduler
running leaves a stale one), so nothing depends on a job surviving. That is why the deadlines' jobs are kept in
memory (``MEMORY``), rebuilt from the table by ``reconcile`` at start and by the sweep once a minute (a deadline
another process made): every pass of a burst moves a deadline, and a row written to and deleted from apscheduler's
table for each was half the bot's time in a burst of posts. The other jobs (the lottery fetch and its retries, a
turn's results, resends of claimed messages) stay in the persistent job store: nothing else remembers them.

Jobs are module-level functions taking only ids, so the pickled job store survives refactors; they reach
the running app through a module-level registry (``install``), set at start-up.

The sessions that read then write while posts go on (the DeadlineKeeper, the start-up sync, recording a sent
message) take SQLite's write lock at their start (``writer``): a deferred read that turns into a write fails at
once when another writer came first. No job is added while such a session is open: the job store writes
through its own connection and would wait for the lock this session holds.

Idempotency: claim, then send, then record (at-least-once, never lost). A job first inserts its key in
``posted`` (bot/store/posted.py) with ``message_id`` NULL ("sending") in the same transaction that marks the
deadline reminded or done; it then sends, then fills ``message_id``. A key with a message id means skip; a
key still "sending" at start-up means the process died mid-send, and the job runs again and resends under
the same key. We chose this over record-then-post-without-resume because a lost timeout or reminder silently
stalls a months-long game, while a duplicate is harmless; and the duplicate window (between Discord
accepting the message and our commit) is closed in practice by sending the key as a Discord nonce, which
Discord enforces for a few minutes. Game-state actions (the timeout's /gm pass) are made idempotent by the
state itself: a nation is passed only while it is still the one to act in the deadline's turn.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from bot.schedule.clock import Clock, FixedClock
from bot.service.deadlines import Acting, acting_from, acting_of, deadline_listeners, discord_when, possessive
from bot.lottery.fetch import fetch_draw_async, next_fetch_time
from bot.lottery.reconcile import Outcome, Status
# The job stores and the posters are the scheduler's API too: the transports and the tests name them from here.
from bot.schedule.job_store import JOB_DEFAULTS, MEMORY, lease_name, make_scheduler  # noqa: F401
from bot.schedule.posting import NotPosted, Poster, RecordingPoster, Sent  # noqa: F401
from bot.store.db import writer
from bot.store.posted import claim, find, mark_sent
from bot.store.process_locks import ProcessLocks, process_locks
from bot.store.shards import ALL, Shard
from bot.store.schedule_tables import (
    ACTIVE, CANCELLED, DONE, NOTHING_SENT, PENDING, PLAYER_TURN, REMINDED, DeadlineRow, active_deadlines,
    active_deadlines_of, as_utc, repair_rows, settings_for, settings_of, unsent,
)
from bot.store.campaigns import CampaignRow, find_campaign, list_campaigns, load_events

log = logging.getLogger("legatus.scheduler")

UTC = timezone.utc
BOT = "legatus"  # bot.service.BOT: the actor of the draws the bot records
LOTTO_JOB = "lotto-next"
# A draw not yet published is fetched again after these delays (minutes); then the GM is alerted.
LOTTO_RETRIES = (15, 30, 60, 120, 240)

FetchDraw = Callable[[Engine, date], Awaitable[Outcome]]


# An unsent message is tried again after this long (or as soon as the turn's thread opens: ``resume_unsent``).
RESEND_AFTER = timedelta(minutes=10)


# --- the running app ----------------------------------------------------------------------------------------------------


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
        return self.service.engine  # type: ignore[no-any-return]

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
# Test seam for the crash test: called with "claimed", "sent", "recorded" around every post.
crash_hook: Callable[[str], None] | None = None


def install(app: App | None) -> None:
    global _app
    _app = app


def _reschedule_moved(d: DeadlineRow, now: datetime) -> None:
    """A GM moved a deadline (bot.service.deadlines): its job follows, if a scheduler is running."""
    if _app is not None:
        _schedule_deadline(_app.scheduler, d, now)


deadline_listeners.append(_reschedule_moved)


def current_app() -> App:
    if _app is None:
        raise RuntimeError("the scheduler's app is not installed: call start_scheduler first")
    return _app


def _checkpoint(name: str) -> None:
    if crash_hook is not None:
        crash_hook(name)


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


# --- campaign state -----------------------------------------------------------------------------------------------------


def _new_deadline(session: Session, campaign_id: int, nation: str, turn: int | None, now: datetime,
                  settings: Any = None) -> DeadlineRow:
    settings = settings if settings is not None else settings_for(session, campaign_id)
    due = now + timedelta(hours=settings.player_hours)
    remind = due - timedelta(hours=settings.remind_hours_before) if settings.remind_hours_before > 0 else None
    row = DeadlineRow(
        campaign_id=campaign_id, kind=PLAYER_TURN, nation=nation, turn=turn, due_at=due,
        remind_at=remind if remind is not None and remind > now else None, state=PENDING, created_at=now,
    )
    session.add(row)
    return row


class DeadlineKeeper:
    """Observer of ``Legatus``: the nation that comes to act gets a deadline; the one that stops loses its own."""

    def __init__(self, service: Any, clock: Clock | None = None) -> None:
        self.service = service
        self.clock = clock or service.clock
        self.scheduler: BaseScheduler | None = None

    def __call__(self, change: Any) -> None:
        self.observe_many([change])

    def observe_many(self, changes: Sequence[Any]) -> None:
        """The changes of one transaction of posts (``Legatus.post_many``), in their order, as if observed one by
        one, but in one transaction: a burst of passes would otherwise cost a transaction and two job-store writes
        each. A deadline both made and ended within them is never scheduled."""
        now = as_utc(self.clock.now())
        for change in changes:
            if any(e.kind == "turn.closed" for e in change.events):
                # The map and charts of the closed turn: a job, so a crash before they are out does not lose them.
                # Due at once by the scheduler's own (real) time, whatever clock the deadlines follow.
                when = min(now, datetime.now(timezone.utc))
                turn = change.summary.closed_turn
                _add(self.scheduler, f"results-{change.campaign_id}-{turn}", post_results, when, [change.campaign_id, turn])
        moving = [c for c in changes if set(c.to_act_after) != set(c.to_act_before)]
        if not moving:
            return
        ended: dict[int, DeadlineRow] = {}
        created: dict[int, DeadlineRow] = {}
        # Every campaign's running deadlines and settings, read in one query each and kept up to date below: a
        # query per change, then per campaign, made a burst's deadlines cost more than its posts.
        with Session(writer(self.service.engine), expire_on_commit=False) as session:
            campaign_ids = {change.campaign_id for change in moving}
            running = active_deadlines_of(session, campaign_ids)
            settings = settings_of(session, campaign_ids)
            for change in moving:
                started = [n for n in change.to_act_after if n not in change.to_act_before]
                stopped = [n for n in change.to_act_before if n not in change.to_act_after]
                acting = acting_from(tuple(change.to_act_after), change.ruleset, change.state)
                active = running[change.campaign_id]
                for d in [d for d in active if d.kind == PLAYER_TURN and d.nation in set(stopped) | set(started)]:
                    d.state = CANCELLED
                    session.add(d)
                    ended[id(d)] = d
                    active.remove(d)
                for n in started:
                    d = _new_deadline(session, change.campaign_id, n, acting.turn, now, settings[change.campaign_id])
                    created[id(d)] = d
                    active.append(d)
            session.commit()  # the new rows' ids are known from their inserts: no refresh needed
            made = [d for key, d in created.items() if key not in ended]
            ended_ids = [d.id for key, d in ended.items() if key not in created]
        for deadline_id in ended_ids:
            _unschedule(self.scheduler, deadline_id)
        for d in made:
            _schedule_deadline(self.scheduler, d, now)


def sync_deadlines(service: Any, now: datetime, names: list[str] | None = None) -> None:
    """Make the active player_turn deadlines match who is to act (repairs what a crash or an unobserved post left);
    ``names``: only these campaigns (a shard's), else all."""
    now = as_utc(now)
    for name in service.campaign_names() if names is None else names:
        try:
            _sync_campaign(service, name, now)
        except Exception:  # one campaign's bad state must not keep the others' deadlines from the start-up
            log.exception("campaign %s: its deadlines could not be brought up to date; left as they are", name)


def _sync_campaign(service: Any, name: str, now: datetime) -> None:
    acting = acting_of(service, name)
    with Session(writer(service.engine)) as session:
        row = find_campaign(session, name)
        assert row is not None and row.id is not None
        for d in active_deadlines(session, row.id):
            if d.kind == PLAYER_TURN and not (d.nation in acting.nations and d.turn == acting.turn):
                d.state = CANCELLED
                session.add(d)
        existing = session.exec(
            select(DeadlineRow).where(DeadlineRow.campaign_id == row.id, DeadlineRow.kind == PLAYER_TURN,
                                      DeadlineRow.state != CANCELLED)
        ).all()
        have = {(d.nation, d.turn) for d in existing}
        for nation in acting.nations:
            if (nation, acting.turn) not in have:
                _new_deadline(session, row.id, nation, acting.turn, now)
        session.commit()


# --- scheduling ---------------------------------------------------------------------------------------------------------


def deadline_job_id(deadline_id: int | None) -> str:
    return f"deadline-{deadline_id}"


def _next_step(d: DeadlineRow, now: datetime) -> tuple[Callable[..., Awaitable[None]], datetime]:
    if d.state == PENDING and d.remind_at is not None and d.remind_at < d.due_at and now < d.due_at:
        return remind, d.remind_at
    return act_on_deadline, d.due_at


def _store_of(job_id: str) -> str:
    return MEMORY if job_id.startswith("deadline-") else "default"


def _add(scheduler: BaseScheduler | None, job_id: str, func: Callable[..., Any], when: datetime, args: list[Any]) -> None:
    if scheduler is None:
        return  # no scheduler (a plain CLI post): the row is the truth, reconcile schedules it later
    scheduler.add_job(func, trigger="date", run_date=when, args=args, id=job_id, replace_existing=True,
                      jobstore=_store_of(job_id), **JOB_DEFAULTS)


def _schedule_deadline(scheduler: BaseScheduler | None, d: DeadlineRow, now: datetime) -> None:
    func, when = _next_step(d, now)
    _add(scheduler, deadline_job_id(d.id), func, when, [d.campaign_id, d.id])


def _unschedule(scheduler: BaseScheduler | None, deadline_id: int | None) -> None:
    if scheduler is None:
        return
    with contextlib.suppress(JobLookupError):
        scheduler.remove_job(deadline_job_id(deadline_id), jobstore=MEMORY)


def schedule_next_fetch(now: datetime | None = None) -> datetime:
    """Schedule ``fetch_lotto`` for the next draw's publication; returns when."""
    app = current_app()
    now = as_utc(now or app.clock.now())
    when = next_fetch_time(now)
    day = when.astimezone(ZoneInfo("Europe/Rome")).date()
    _add(app.scheduler, LOTTO_JOB, fetch_lotto, when, [day.isoformat()])
    return when


def _key(d: DeadlineRow, what: str) -> str:
    # The due time is part of the key: an extended deadline gets a fresh reminder.
    return f"deadline-{d.id}:{what}:{int(d.due_at.timestamp())}"


def reconcile(app: App, now: datetime | None = None) -> None:
    """Make the jobs match the database: one job per active deadline (or per claim still being sent), none else.

    A deadline already overdue gets a job in the past, which the scheduler runs at once, once.
    """
    scheduler = app.scheduler
    assert scheduler is not None
    now = as_utc(now or app.clock.now())
    ids = app.own_campaign_ids()

    def mine(campaign_id: int | None) -> bool:
        return ids is None or campaign_id in ids

    # No stored value may stop the start-up: bad settings and deadline times are repaired first, and the GM told.
    for campaign_id, fixes in repair_rows(app.engine, now, ids).items():
        log.warning("campaign %s: repaired at start-up: %s", campaign_id, "; ".join(fixes))
        if mine(campaign_id):
            _add(scheduler, f"repaired-{campaign_id}", tell_gm, now, [campaign_id, _repaired_text(fixes)])
    names = _own_names(app, ids)
    sync_deadlines(app.service, now, names)
    wanted: dict[str, tuple[Callable[..., Any], datetime, list[Any]]] = {}
    with Session(app.engine) as session:
        for d in active_deadlines(session):
            if not mine(d.campaign_id):
                continue
            try:
                func, when = _next_step(d, now)
            except Exception:  # whatever a row holds, the other campaigns' jobs still get scheduled
                log.exception("deadline %s cannot be scheduled; skipped", d.id)
                continue
            wanted[deadline_job_id(d.id)] = (func, when, [d.campaign_id, d.id])
        for row in unsent(session):
            job = _resume_job(row)
            if job is not None and mine(row.campaign_id):
                wanted[job[0]] = (job[1], now, job[2])
    for name in names:
        # The last closed turn's results, if a crash came between its close and their claim.
        try:
            turn = app.service.summary(name).closed_turn
        except Exception as exc:  # a campaign that cannot fold (its key at rest missing) must not stop the start-up
            log.error("campaign %s: its results are not checked at start-up: %s", name, exc)
            continue
        with Session(app.engine) as session:
            row = find_campaign(session, name)
            if turn and row is not None and row.id is not None:
                if find(session, f"campaign-{row.id}:turn-{turn}:results") is None:
                    wanted[f"results-{row.id}-{turn}"] = (post_results, now, [row.id, turn])
    for job in scheduler.get_jobs():
        # Deadline jobs in the persistent store were left there by an older Legatus: theirs is the memory store.
        if job.id.startswith("deadline-") and (job.id not in wanted or job._jobstore_alias != MEMORY):
            scheduler.remove_job(job.id, jobstore=job._jobstore_alias)
    for job_id, (func, when, args) in wanted.items():
        _add(scheduler, job_id, func, when, args)
    if scheduler.get_job(LOTTO_JOB) is None:
        schedule_next_fetch(now)
    if app.sweeps and scheduler.get_job(SWEEP_JOB) is None:
        scheduler.add_job(sweep, trigger="interval", seconds=SWEEP_SECONDS, id=SWEEP_JOB, replace_existing=True,
                          **JOB_DEFAULTS)


def _own_names(app: App, ids: set[int] | None) -> list[str]:
    """The names of this shard's campaigns (every campaign when unsharded)."""
    if ids is None:
        return list(app.service.campaign_names())
    with Session(app.engine) as session:
        return [c.name for c in list_campaigns(session) if c.id in ids]


# Every SWEEP_SECONDS a running scheduler looks for work nobody is doing: a claim whose process died mid-send (its
# lock is free), an active deadline with no job. It also wakes the scheduler, which learns of jobs another process
# added to its table only when it wakes.
SWEEP_JOB = "sweep"
SWEEP_SECONDS = 60


async def sweep() -> None:
    app = current_app()
    scheduler = app.scheduler
    if scheduler is None:
        return
    now = as_utc(app.clock.now())

    def waiting() -> tuple[list[Any], list[DeadlineRow]]:
        ids = app.own_campaign_ids()
        with Session(app.engine) as session:
            return ([r for r in unsent(session) if ids is None or r.campaign_id in ids],
                    [d for d in active_deadlines(session) if ids is None or d.campaign_id in ids])

    claims, deadlines = await asyncio.to_thread(waiting)
    scheduled = {job.id for job in scheduler.get_jobs()}
    busy = app.locks.held()  # work this process is doing right now
    for row in claims:
        job = _resume_job(row)
        lock = work_lock(row.key)
        if job is None or job[0] in scheduled or lock in busy:
            continue
        # Free now: the process that claimed it is gone (a live one holds the lock until the claim is recorded).
        if await asyncio.to_thread(app.locks.try_acquire, lock):
            await asyncio.to_thread(app.locks.release, lock)
            log.warning("%s was claimed by a process that stopped before sending it: taken over", row.key)
            _add(scheduler, job[0], job[1], now, job[2])
            scheduled.add(job[0])
    for d in deadlines:
        job_id = deadline_job_id(d.id)
        if job_id not in scheduled and job_id not in busy:
            _schedule_deadline(scheduler, d, now)


def _resume_job(row: Any) -> tuple[str, Callable[..., Any], list[Any]] | None:
    """The job that sends a claimed, unsent message again (its id, function and arguments), if it has one."""
    if row.kind in ("reminder", "deadline") and row.key.startswith("deadline-"):
        deadline_id = int(row.key.split(":")[0].removeprefix("deadline-"))
        return deadline_job_id(deadline_id), remind if row.kind == "reminder" else act_on_deadline, [row.campaign_id, deadline_id]
    if row.kind == "lotto" and row.key.startswith("lotto:"):
        day = row.key.split(":")[1]
        return f"lotto-resume-{day}", fetch_lotto, [day]
    if row.kind == "results":
        turn = _turn_of(row.key)
        return f"results-{row.campaign_id}-{turn}", post_results, [row.campaign_id, turn]
    return None


def resume_unsent(campaign_id: int | None = None, when: datetime | None = None) -> None:
    """Schedule every claimed, unsent message (of one campaign) to be sent again at ``when`` (default: now)."""
    if _app is None or _app.scheduler is None:
        return
    when = when or as_utc(_app.clock.now())
    busy = _app.locks.held()  # claims this process is sending right now are not to be sent again
    with Session(_app.engine) as session:
        jobs = [_resume_job(r) for r in unsent(session, campaign_id) if work_lock(r.key) not in busy]
    # Added with the session closed: the job store writes through its own connection.
    for job in jobs:
        if job is not None:
            _add(_app.scheduler, job[0], job[1], when, job[2])


def schedule_turn_thread(campaign_id: int, turn: int, after: timedelta) -> None:
    """Try again to open a turn's thread (one job per turn: scheduling it twice keeps one)."""
    if _app is not None:
        when = as_utc(_app.clock.now()) + after
        _add(_app.scheduler, f"turn-thread-{campaign_id}-{turn}", open_turn_thread, when, [campaign_id, turn])


async def open_turn_thread(campaign_id: int, turn: int) -> None:
    """The job behind ``schedule_turn_thread``: idempotent, the poster opens the thread only if it has none."""
    opener = getattr(current_app().poster, "open_turn", None)
    if opener is not None:
        await opener(campaign_id)


async def run_due(scheduler: BaseScheduler, now: datetime, clock: Clock | None = None) -> list[str]:
    """Run every job due by ``now`` in time order, as the scheduler would (for tests and replays: no sleeping).

    With a FixedClock, the clock reads each job's own time while it runs (or the clock's reading at the
    call, for a job that was already overdue then: the bot was down), and ``now`` at the end.
    """
    ran: list[str] = []
    start = as_utc(clock.now()) if clock is not None else now
    while True:
        due = [j for j in scheduler.get_jobs() if j.next_run_time is not None and j.next_run_time <= now]
        if not due:
            break
        job = min(due, key=lambda j: (j.next_run_time, j.id))
        if isinstance(clock, FixedClock):
            # On time if it fell due since the clock's last reading; an overdue job runs late, at ``start``.
            clock.moment = max(as_utc(job.next_run_time), start)
        # Removed before it runs, as apscheduler does with a spent date trigger: the job may re-add its id.
        scheduler.remove_job(job.id, jobstore=job._jobstore_alias)
        ran.append(job.id)
        await job.func(*job.args, **job.kwargs)
    if isinstance(clock, FixedClock):
        clock.moment = now
    return ran


# --- posting with a key -------------------------------------------------------------------------------------------------


async def _send(app: App, key: str, campaign_id: int, text: str | None, ping: list[str],
                files: Sequence[tuple[str, bytes]] = (), turn: int | None = None) -> None:
    """Send a claimed message, then record it. ``text`` None: nothing to say any more; the claim is closed."""
    _checkpoint("claimed")
    message_id = None
    if text:
        try:
            message_id = await app.poster.post(campaign_id, text, ping=ping, key=key, files=files, turn=turn)
        except NotPosted as exc:
            # Left claimed and unsent: tried again later, or as soon as the turn's thread opens.
            log.info("campaign %s: %s not posted yet (%s); tried again later", campaign_id, key, exc)
            row = await asyncio.to_thread(_find, app, key)
            if row is not None:
                job = _resume_job(row)
                if job is not None:
                    _add(app.scheduler, job[0], job[1], as_utc(app.clock.now()) + RESEND_AFTER, job[2])
            return
        _checkpoint("sent")
        # Which process sent what: with shards, the log of each says it acted for its own campaigns only.
        log.info("campaign %s: %s posted by %s", campaign_id, key, app.shard.describe())
    await asyncio.to_thread(_record_sent, app, key, campaign_id, message_id or NOTHING_SENT)
    _checkpoint("recorded")


# Every database touch of a job is off the event loop (``asyncio.to_thread``): a write waits for SQLite's lock (up to
# its busy timeout) while another connection holds it, and on the loop that wait held every slash command past
# Discord's 3 s. The functions below are those touches, each one transaction.


def _find(app: App, key: str) -> Any:
    with Session(app.engine) as session:
        return find(session, key)


def _record_sent(app: App, key: str, campaign_id: int, message_id: str) -> None:
    with Session(writer(app.engine)) as session:
        campaign = session.get(CampaignRow, campaign_id)
        mark_sent(session, key, message_id, campaign.channel_id if campaign else None)


def _sent(session: Session, key: str) -> bool | None:
    """None: never claimed; False: claimed, send not confirmed (resume it); True: done, skip."""
    row = find(session, key)
    return None if row is None else row.message_id is not None


def _campaign_and_settings(session: Session, campaign_id: int) -> tuple[CampaignRow, Any]:
    campaign = session.get(CampaignRow, campaign_id)
    assert campaign is not None
    return campaign, settings_for(session, campaign_id)


# --- the jobs (module level, ids only: they pickle and survive refactors) -----------------------------------------------


def results_files(service: Any, campaign: str, turn: int) -> tuple[str, list[tuple[str, bytes]]]:
    """The text and pictures posted with a closed turn's results: the map as it stood, and the provinces chart."""
    from bot.render.history import folded_at_turn
    from bot.render.pictures import pictures

    ruleset, state = folded_at_turn(service, campaign, turn)
    return f"{ruleset.summary(state).turn_label}: the map and the provinces so far.", pictures(ruleset, state)


def _turn_of(key: str) -> int:
    return int(key.split(":turn-")[1].split(":")[0])


async def post_results(campaign_id: int, turn: int) -> None:
    app = current_app()
    key = f"campaign-{campaign_id}:turn-{turn}:results"
    async with _exclusive(app, work_lock(key), (f"results-{campaign_id}-{turn}", post_results, [campaign_id, turn])) as mine:
        if mine:
            await _post_results(app, campaign_id, turn, key)


async def _post_results(app: App, campaign_id: int, turn: int, key: str) -> None:
    now = as_utc(app.clock.now())

    def claimed() -> str | None:
        # Claims are written under the write lock taken at BEGIN (``writer``): on SQLite a read transaction that
        # turns into a write fails at once when another process wrote in between.
        with Session(writer(app.engine)) as session:
            sent = _sent(session, key)
            if sent or (sent is None and not claim(session, key, campaign_id, "results", at=now)):
                return None
            campaign = session.get(CampaignRow, campaign_id)
            return campaign.name if campaign else None

    name = await asyncio.to_thread(claimed)
    if name is None:
        return
    text, files = await asyncio.to_thread(results_files, app.service, name, turn)
    await _send(app, key, campaign_id, text, [], files, turn=turn)


def _repaired_text(fixes: list[str]) -> str:
    return ("GM: Legatus repaired stored values it could not use at start-up: " + "; ".join(fixes)
            + ". Check them with /campaign settings and /turn status.")


async def tell_gm(campaign_id: int, text: str) -> None:
    """A note to the campaign's GM (values repaired at start-up), posted once per text."""
    import hashlib

    app = current_app()
    key = f"campaign-{campaign_id}:repaired:{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    async with _exclusive(app, work_lock(key), (f"repaired-{campaign_id}", tell_gm, [campaign_id, text])) as mine:
        if mine:
            await _tell_gm(app, campaign_id, text, key)


async def _tell_gm(app: App, campaign_id: int, text: str, key: str) -> None:
    def claimed() -> str | None:
        with Session(writer(app.engine)) as session:
            campaign = session.get(CampaignRow, campaign_id)
            if campaign is None or _sent(session, key) or not claim(session, key, campaign_id, "notice",
                                                                    at=as_utc(app.clock.now())):
                return None
            return campaign.gm

    gm = await asyncio.to_thread(claimed)
    if gm is not None:
        await _send(app, key, campaign_id, text, [gm])


async def remind(campaign_id: int, deadline_id: int) -> None:
    app = current_app()
    job = deadline_job_id(deadline_id)
    async with _exclusive(app, job, (job, remind, [campaign_id, deadline_id])) as mine:
        if mine:
            await _remind(app, campaign_id, deadline_id)


Step = tuple[str, Callable[..., Any], datetime, list[Any]]  # a job to add: id, function, when, arguments


def _step_of(d: DeadlineRow, now: datetime) -> Step:
    func, when = _next_step(d, now)
    return deadline_job_id(d.id), func, when, [d.campaign_id, d.id]


def _add_step(app: App, step: Step | None) -> None:
    """Add a job decided inside a write transaction, once it is over: the job store writes through a connection
    of its own, which would wait for that transaction's lock (SQLite)."""
    if step is not None:
        _add(app.scheduler, *step)


async def _remind(app: App, campaign_id: int, deadline_id: int) -> None:
    now = as_utc(app.clock.now())
    later, what = await asyncio.to_thread(_claim_reminder, app, campaign_id, deadline_id, now)
    if later is not None:
        _add_step(app, later)
        return
    if what is None:
        return
    key, nation, due, still, turn, name = what
    player = (await asyncio.to_thread(acting_of, app.service, name)).players.get(nation) or nation
    text = f"{player} your turn ends {discord_when(due)}" if still else None
    await _send(app, key, campaign_id, text, [player], turn=turn)
    d = await asyncio.to_thread(_deadline, app, deadline_id)
    if d is not None and d.state in ACTIVE:
        _schedule_deadline(app.scheduler, d, now)


def _claim_reminder(app: App, campaign_id: int, deadline_id: int,
                    now: datetime) -> tuple[Step | None, tuple[str, str, datetime, bool, int | None, str] | None]:
    """(the deadline's next job instead, None), or (None, what to remind: key, seat, due, still on, turn, campaign)
    once claimed; (None, None): nothing to do."""
    with Session(writer(app.engine)) as session:
        d = session.get(DeadlineRow, deadline_id)
        if d is None:
            return None, None
        key = _key(d, "remind")
        sent = _sent(session, key)
        if sent:
            return None, None
        if sent is None and (d.state != PENDING or d.remind_at is None or now >= d.due_at):
            # Nothing to remind (any more): the deadline still needs its act job.
            return (_step_of(d, now) if d.state in ACTIVE else None), None
        if sent is None:
            d.state = REMINDED
            session.add(d)
            # The claim commits the deadline's new state with it: one transaction.
            if not claim(session, key, campaign_id, "reminder", at=now):
                return None, None
        campaign, _ = _campaign_and_settings(session, campaign_id)
        return None, (key, d.nation or "", d.due_at, d.state in ACTIVE, d.turn, campaign.name)


def _deadline(app: App, deadline_id: int) -> DeadlineRow | None:
    with Session(app.engine) as session:
        return session.get(DeadlineRow, deadline_id)


async def act_on_deadline(campaign_id: int, deadline_id: int) -> None:
    app = current_app()
    job = deadline_job_id(deadline_id)
    async with _exclusive(app, job, (job, act_on_deadline, [campaign_id, deadline_id])) as mine:
        if mine:
            await _act_on_deadline(app, campaign_id, deadline_id)


async def _act_on_deadline(app: App, campaign_id: int, deadline_id: int) -> None:
    now = as_utc(app.clock.now())
    later, what = await asyncio.to_thread(_claim_timeout, app, campaign_id, deadline_id, now)
    if later is not None:
        _add_step(app, later)
        return
    if what is None:
        return
    key, nation, turn, due, name, gm, on_timeout = what
    text: str | None
    ping: list[str] = []
    if on_timeout == "wait":
        text = f"{gm} {possessive(nation)} time is up: /gm pass {nation} or extend"
        ping = [gm]
    else:
        async with _campaign_locked(app, name):
            acting = await asyncio.to_thread(acting_of, app.service, name)
            line = await asyncio.to_thread(timeout_line, app.service, name, nation)
            if nation in acting.nations and acting.turn == turn and line is None:
                text = f"{gm} {possessive(nation)} time is up, and the game leaves it to the GM: /order {nation} ... or extend"
                ping = [gm]
            elif nation in acting.nations and acting.turn == turn:
                reply = await asyncio.to_thread(app.service.post, gm, line, name, is_gm=True)
                text = f"Time is up for the {nation}.\n{reply.render(for_author=False)}"
                ping = list(reply.ping)
            elif await asyncio.to_thread(_passed_for_timeout, app, campaign_id, nation, due):
                # An earlier run passed them and died before posting: say so, without the original reply.
                after = await asyncio.to_thread(acting_of, app.service, name)
                text = f"Time is up for the {nation}: the GM passed them (timeout)."
                ping = [p for n in after.nations if (p := after.players.get(n))]
            else:
                text = None  # they played in time after all
    await _send(app, key, campaign_id, text, ping, turn=turn)


def _claim_timeout(app: App, campaign_id: int, deadline_id: int, now: datetime) -> tuple[
        Step | None, tuple[str, str, int | None, datetime, str, str, str] | None]:
    """(the deadline's next job instead: it was extended, None), or (None, what to act on: key, seat, turn, due,
    campaign, GM, the timeout rule) once claimed; (None, None): nothing to do."""
    with Session(writer(app.engine)) as session:
        d = session.get(DeadlineRow, deadline_id)
        if d is None:
            return None, None
        key = _key(d, "timeout")
        sent = _sent(session, key)
        if sent:
            return None, None
        if sent is None:
            if d.state not in ACTIVE:
                return None, None
            if now < d.due_at:  # extended since this job was scheduled
                return _step_of(d, now), None
            d.state = DONE
            session.add(d)
            if not claim(session, key, campaign_id, "deadline", at=now):
                return None, None
        campaign, settings = _campaign_and_settings(session, campaign_id)
        return None, (key, d.nation or "", d.turn, d.due_at, campaign.name, campaign.gm, settings.on_timeout)


def timeout_line(service: Any, name: str, seat: str) -> str | None:
    """What is posted for a seat whose time ran out: the game's own "/gm pass <seat> timeout" if it has that command
    (the reason stays on record), else the order its prompt applies on timeout (``Prompt.on_timeout``), given by the
    GM for the seat. None: the prompt has no default, the GM decides."""
    ruleset, state = service.folded(name)
    if any(c.name == "gm pass" for c in ruleset.commands()):
        return f"/gm pass {seat} timeout"
    prompt = next((p for p in ruleset.prompts(state) if p.seat == seat), None)
    if prompt is None or not prompt.on_timeout:
        return None
    return f'/order "{seat}" {prompt.on_timeout}'


def _draw_messages_since(app: App, campaign_id: int, since: datetime) -> list[str]:
    """What ``pump`` said for the draws the bot recorded since ``since``, rebuilt by replaying the log."""
    from engine.log import replay, step
    from engine.rulesets import load_ruleset

    floor = as_utc(since).isoformat(timespec="seconds")
    with Session(app.engine) as session:
        campaign = session.get(CampaignRow, campaign_id)
        assert campaign is not None
        events = load_events(session, campaign_id)
    ours = [i for i, e in enumerate(events) if e.kind == "draw.recorded" and e.actor == BOT and e.at >= floor]
    if not ours:
        return []
    ruleset = load_ruleset(campaign.ruleset, app.service.data_dir)
    folded = replay(ruleset, events[:ours[0]])
    messages: list[str] = []
    for i, event in enumerate(events[ours[0]:], start=ours[0]):
        folded, new = step(ruleset, folded, event)
        if i in ours:
            messages += [f"Lottery draw of {event.data.get('date')} recorded.", *new]
    from bot.service.post_reading import head_line

    return messages + [head_line(folded)]


def _passed_for_timeout(app: App, campaign_id: int, nation: str, due: datetime) -> bool:
    since = due.isoformat(timespec="seconds")
    with Session(app.engine) as session:
        events = load_events(session, campaign_id)
    return any(
        e.kind == "gm.pass" and e.data.get("nation") == nation and str(e.data.get("reason", "")).startswith("timeout")
        and e.at >= since
        for e in events
    )


async def fetch_lotto(day_iso: str, attempt: int = 0) -> None:
    app = current_app()
    now = as_utc(app.clock.now())
    day = date.fromisoformat(day_iso)
    outcome = await _fetch_once(app, day)
    if outcome.status is Status.WAITING and attempt < len(LOTTO_RETRIES):
        _add(app.scheduler, f"lotto-retry-{day_iso}", fetch_lotto, now + timedelta(minutes=LOTTO_RETRIES[attempt]),
             [day_iso, attempt + 1])
        return
    def own() -> list[tuple[int | None, str, str]]:
        with Session(app.engine) as session:
            # Each shard tells its own campaigns (their channels are in its guilds).
            return [(c.id, c.name, c.gm) for c in list_campaigns(session) if app.owns(c)]

    campaigns = await asyncio.to_thread(own)
    busy = False
    for campaign_id, name, gm in campaigns:
        assert campaign_id is not None
        key = f"lotto:{day_iso}:{campaign_id}"
        async with _exclusive(app, work_lock(key)) as mine:
            if not mine:
                busy = True  # another process is telling this campaign; looked at again below
                continue
            await _tell_draw(app, key, campaign_id, name, gm, outcome, now)
    if busy:
        _add(app.scheduler, f"lotto-resume-{day_iso}", fetch_lotto, now + LOCKED_RETRY, [day_iso])
    if app.scheduler is not None and app.scheduler.get_job(LOTTO_JOB) is None:
        schedule_next_fetch(now)


async def _fetch_once(app: App, day: date) -> Outcome:
    """Fetch the draw, one process at a time: a process that waited finds it stored and asks no source again."""
    from bot.lottery.reconcile import reconcile as reconcile_draw
    from bot.store.draws import get_draw
    from engine.lotto import missing_wheels

    name = f"lotto-fetch:{day.isoformat()}"
    while not await asyncio.to_thread(app.locks.try_acquire, name):
        await asyncio.sleep(1)  # another process is fetching it: a few seconds of HTTP at most
    def stored_whole() -> Outcome | None:
        with Session(app.engine) as session:
            stored = get_draw(session, day)
            if stored is not None and not missing_wheels(stored):
                known = reconcile_draw(session, day)
                if known.stored:
                    return known
        return None

    try:
        if not app.shard.whole:
            known = await asyncio.to_thread(stored_whole)
            if known is not None:
                return known
        return await app.fetch(app.engine, day)
    finally:
        await asyncio.to_thread(app.locks.release, name)


async def _tell_draw(app: App, key: str, campaign_id: int, name: str, gm: str, outcome: Outcome,
                     now: datetime) -> None:
    """Record the fetched draw in one campaign (``pump``) and post what it decided, under the claim ``key``."""

    def claimed() -> tuple[bool, datetime] | None:
        """(resumed, since when) once claimed; None: done, or another process claimed it first and tells it."""
        with Session(writer(app.engine)) as session:
            sent = _sent(session, key)
            if sent:
                return None
            if sent is None:
                return (False, now) if claim(session, key, campaign_id, "lotto", at=now) else None
            row = find(session, key)
            assert row is not None
            return True, row.posted_at

    resumed = await asyncio.to_thread(claimed)
    if resumed is None:
        return
    async with _campaign_locked(app, name):
        before = await asyncio.to_thread(acting_of, app.service, name)
        messages = await asyncio.to_thread(app.service.pump, name)
        after = await asyncio.to_thread(acting_of, app.service, name)
        if resumed[0]:
            # Resumed: an earlier run may have pumped and died before posting; its messages are in the log.
            messages = await asyncio.to_thread(_draw_messages_since, app, campaign_id, resumed[1])
            before = Acting(None, (), {}) if messages else after
    alert = outcome.alert or outcome.status is Status.WAITING
    lines = (outcome.lines() if alert else []) + list(messages)
    ping = [gm] if alert else []
    ping += [p for n in after.nations if n not in before.nations and (p := after.players.get(n))]
    await _send(app, key, campaign_id, "\n".join(lines) if lines else None, ping)


# --- start-up -----------------------------------------------------------------------------------------------------------


# A process whose shard's scheduler runs elsewhere tries to take it over this often.
STANDBY_POLL_SECONDS = 2.0


def _take_lease(app: App) -> bool:
    """This process runs the shard's scheduler if no other live process does (it may hold the lease already: a
    scheduler restarted in the same process)."""
    name = lease_name(app.shard)
    return name in app.locks.held() or app.locks.try_acquire(name)


def release_lease(shard: Shard = ALL) -> None:
    """A clean stop lets a standby process take the shard over at once (a dead process releases it anyway)."""
    if _app is not None:
        _app.locks.release(lease_name(shard))


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
    if _app is not None and _app.scheduler is scheduler and _app.standby is not None:
        _app.standby.cancel()  # a standby process that stops takes nothing over
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
    return (fetch_lotto,)


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
