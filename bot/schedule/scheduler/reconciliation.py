"""The deadline table kept to the campaigns (``DeadlineKeeper``, ``sync_deadlines``) and the jobs kept to the table: at
start-up (``reconcile``) and once a minute (``sweep``); ``run_due`` runs the due jobs by hand (tests, replays)."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from apscheduler.schedulers.base import BaseScheduler
from sqlmodel import Session, select

from bot.schedule.clock import Clock, FixedClock
from bot.service.deadlines import acting_from, acting_of
from bot.schedule.job_store import JOB_DEFAULTS, MEMORY
from bot.store.db import writer
from bot.store.posted import find
from bot.store.schedule_tables import (
    CANCELLED, PENDING, PLAYER_TURN, DeadlineRow, active_deadlines, active_deadlines_of, as_utc, repair_rows,
    settings_for, settings_of, unsent,
)
from bot.store.campaigns import find_campaign, list_campaigns
from bot.schedule.scheduler.app import LOTTO_JOB, App, current_app, work_lock, _add
from bot.schedule.scheduler.deadline_jobs import deadline_job_id, _next_step, _schedule_deadline, _unschedule
from bot.schedule.scheduler.message_jobs import schedule_next_fetch, _resume_job, post_results, _repaired_text, tell_gm

log = logging.getLogger("legatus.scheduler")


def _new_deadline(session: Session, campaign_id: int, seat: str, turn: int | None, now: datetime,
                  settings: Any = None) -> DeadlineRow:
    settings = settings if settings is not None else settings_for(session, campaign_id)
    due = now + timedelta(hours=settings.player_hours)
    remind = due - timedelta(hours=settings.remind_hours_before) if settings.remind_hours_before > 0 else None
    row = DeadlineRow(
        campaign_id=campaign_id, kind=PLAYER_TURN, seat=seat, turn=turn, due_at=due,
        remind_at=remind if remind is not None and remind > now else None, state=PENDING, created_at=now,
    )
    session.add(row)
    return row


class DeadlineKeeper:
    """Observer of ``Legatus``: the seat that comes to act gets a deadline; the one that stops loses its own."""

    def __init__(self, service: Any, clock: Clock | None = None) -> None:
        self.service = service
        self.clock = clock or service.clock
        self.scheduler: BaseScheduler | None = None
        # The closed turn last seen of each campaign, to notice a round that ended by play.
        self.closed_turns: dict[int, int] = {}

    def __call__(self, change: Any) -> None:
        self.observe_many([change])

    def observe_many(self, changes: Sequence[Any]) -> None:
        """The changes of one transaction of posts (``Legatus.post_many``), in their order, as if observed one by
        one, but in one transaction: a burst of passes would otherwise cost a transaction and two job-store writes
        each. A deadline both made and ended within them is never scheduled."""
        now = as_utc(self.clock.now())
        for change in changes:
            turn = change.summary.closed_turn if change.summary is not None else 0
            known = self.closed_turns.get(change.campaign_id)
            self.closed_turns[change.campaign_id] = turn
            # A GM's close is an event; a game whose rounds end by play only counts one more closed turn. The
            # first change seen of a campaign since start-up may have closed one too (the start-up only looked
            # at turns closed before it): the job is idempotent, keyed by campaign and turn.
            if any(e.kind == "turn.closed" for e in change.events) or (turn > 0 and (known is None or turn > known)):
                # The map and charts of the closed turn: a job, so a crash before they are out does not lose them.
                # Due at once by the scheduler's own (real) time, whatever clock the deadlines follow.
                when = min(now, datetime.now(timezone.utc))
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
                for d in [d for d in active if d.kind == PLAYER_TURN and d.seat in set(stopped) | set(started)]:
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
            if d.kind == PLAYER_TURN and not (d.seat in acting.seats and d.turn == acting.turn):
                d.state = CANCELLED
                session.add(d)
        existing = session.exec(
            select(DeadlineRow).where(DeadlineRow.campaign_id == row.id, DeadlineRow.kind == PLAYER_TURN,
                                      DeadlineRow.state != CANCELLED)
        ).all()
        have = {(d.seat, d.turn) for d in existing}
        for seat in acting.seats:
            if (seat, acting.turn) not in have:
                _new_deadline(session, row.id, seat, acting.turn, now)
        session.commit()


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
            campaign = find_campaign(session, name)
            if turn and campaign is not None and campaign.id is not None:
                if find(session, f"campaign-{campaign.id}:turn-{turn}:results") is None:
                    wanted[f"results-{campaign.id}-{turn}"] = (post_results, now, [campaign.id, turn])
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
