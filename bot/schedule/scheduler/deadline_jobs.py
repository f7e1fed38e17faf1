"""The deadline jobs: a seat's reminder and its timeout (the game's own move for a seat whose time ran out, or the GM
asked to decide), each claimed then sent once (bot/schedule/scheduler/app.py)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import Any

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.base import BaseScheduler
from sqlmodel import Session

from bot.service.deadlines import acting_of, deadline_listeners, discord_when, possessive
from bot.schedule.job_store import MEMORY
from bot.store.db import writer
from bot.store.posted import claim
from bot.store.schedule_tables import ACTIVE, DONE, PENDING, REMINDED, DeadlineRow, as_utc
from bot.store.campaigns import load_events
from engine.events import Event
from engine.ruleset import MarksTimeouts, Ruleset
from bot.schedule.scheduler.app import (
    App, installed, current_app, _campaign_locked, _exclusive, _add, _send, _sent, _campaign_and_settings, Step,
    _add_step, open_since,
)

log = logging.getLogger("legatus.scheduler")


def _reschedule_moved(d: DeadlineRow, now: datetime) -> None:
    """A GM moved a deadline (bot.service.deadlines): its job follows, if a scheduler is running."""
    app = installed()
    if app is not None:
        _schedule_deadline(app.scheduler, d, now)


deadline_listeners.append(_reschedule_moved)


def deadline_job_id(deadline_id: int | None) -> str:
    return f"deadline-{deadline_id}"


def _next_step(d: DeadlineRow, now: datetime) -> tuple[Callable[..., Awaitable[None]], datetime]:
    if d.state == PENDING and d.remind_at is not None and d.remind_at < d.due_at and now < d.due_at:
        return remind, d.remind_at
    return act_on_deadline, d.due_at


def _schedule_deadline(scheduler: BaseScheduler | None, d: DeadlineRow, now: datetime) -> None:
    func, when = _next_step(d, now)
    _add(scheduler, deadline_job_id(d.id), func, when, [d.campaign_id, d.id])


def _unschedule(scheduler: BaseScheduler | None, deadline_id: int | None) -> None:
    if scheduler is None:
        return
    with contextlib.suppress(JobLookupError):
        scheduler.remove_job(deadline_job_id(deadline_id), jobstore=MEMORY)


def _key(d: DeadlineRow, what: str) -> str:
    # The due time is part of the key: an extended deadline gets a fresh reminder.
    return f"deadline-{d.id}:{what}:{int(d.due_at.timestamp())}"


async def remind(campaign_id: int, deadline_id: int) -> None:
    app = current_app()
    job = deadline_job_id(deadline_id)
    async with _exclusive(app, job, (job, remind, [campaign_id, deadline_id])) as mine:
        if mine:
            await _remind(app, campaign_id, deadline_id)


def _step_of(d: DeadlineRow, now: datetime) -> Step:
    func, when = _next_step(d, now)
    return deadline_job_id(d.id), func, when, [d.campaign_id, d.id]


async def _remind(app: App, campaign_id: int, deadline_id: int) -> None:
    now = as_utc(app.clock.now())
    later, what = await asyncio.to_thread(_claim_reminder, app, campaign_id, deadline_id, now)
    if later is not None:
        _add_step(app, later)
        return
    if what is None:
        return
    key, seat, due, still, turn, name, since = what
    player = (await asyncio.to_thread(acting_of, app.service, name)).players.get(seat) or seat
    text = f"{player} your turn ends {discord_when(due)}" if still else None
    await _send(app, key, campaign_id, text, [player], turn=turn, since=since)
    d = await asyncio.to_thread(_deadline, app, deadline_id)
    if d is not None and d.state in ACTIVE:
        _schedule_deadline(app.scheduler, d, now)


def _claim_reminder(app: App, campaign_id: int, deadline_id: int, now: datetime) -> tuple[
        Step | None, tuple[str, str, datetime, bool, int | None, str, datetime | None] | None]:
    """(the deadline's next job instead, None), or (None, what to remind: key, seat, due, still on, turn, campaign,
    when an earlier attempt claimed it) once claimed; (None, None): nothing to do."""
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
        since = open_since(session, key)
        if sent is None:
            d.state = REMINDED
            session.add(d)
            # The claim commits the deadline's new state with it: one transaction.
            if not claim(session, key, campaign_id, "reminder", at=now):
                return None, None
        campaign, _ = _campaign_and_settings(session, campaign_id)
        return None, (key, d.seat or "", d.due_at, d.state in ACTIVE, d.turn, campaign.name, since)


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
    key, seat, turn, due, name, gm, on_timeout, since = what
    text: str | None
    ping: list[str] = []
    if on_timeout == "wait":
        text = f"{gm} {possessive(seat)} time is up: /gm pass {seat} or extend"
        ping = [gm]
    else:
        async with _campaign_locked(app, name):
            acting = await asyncio.to_thread(acting_of, app.service, name)
            line = await asyncio.to_thread(timeout_line, app.service, name, seat)
            if seat in acting.seats and acting.turn == turn and line is None:
                text = f"{gm} {possessive(seat)} time is up, and the game leaves it to the GM: /order {seat} ... or extend"
                ping = [gm]
            elif seat in acting.seats and acting.turn == turn:
                reply = await asyncio.to_thread(app.service.post, gm, line, name, is_gm=True)
                text = f"Time is up for the {seat}.\n{reply.render(for_author=False)}"
                ping = list(reply.ping)
            elif await asyncio.to_thread(_passed_for_timeout, app, campaign_id, name, seat, due):
                # An earlier run passed them and died before posting: say so, without the original reply.
                after = await asyncio.to_thread(acting_of, app.service, name)
                # Its first line is the first attempt's, by which the message that attempt may have sent is found.
                text = f"Time is up for the {seat}.\nThe GM passed them (timeout)."
                ping = [p for n in after.seats if (p := after.players.get(n))]
            else:
                text = None  # they played in time after all
    await _send(app, key, campaign_id, text, ping, turn=turn, since=since)


def _claim_timeout(app: App, campaign_id: int, deadline_id: int, now: datetime) -> tuple[
        Step | None, tuple[str, str, int | None, datetime, str, str, str, datetime | None] | None]:
    """(the deadline's next job instead: it was extended, None), or (None, what to act on: key, seat, turn, due,
    campaign, GM, the timeout rule, when an earlier attempt claimed it) once claimed; (None, None): nothing to do."""
    with Session(writer(app.engine)) as session:
        d = session.get(DeadlineRow, deadline_id)
        if d is None:
            return None, None
        key = _key(d, "timeout")
        sent = _sent(session, key)
        if sent:
            return None, None
        since = open_since(session, key)
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
        return None, (key, d.seat or "", d.turn, d.due_at, campaign.name, campaign.gm, settings.on_timeout, since)


def timeout_line(service: Any, name: str, seat: str) -> str | None:
    """What is posted for a seat whose time ran out, as its prompt says: the game's own line if it has one
    (``Prompt.timeout_line``, e.g. a pass that keeps the reason on record), else the order its prompt applies on
    timeout (``Prompt.on_timeout``), given by the GM for the seat. None: no default, the GM decides."""
    ruleset, state = service.folded(name)
    prompt = next((p for p in ruleset.prompts(state) if p.seat == seat), None)
    if prompt is None:
        return None
    if prompt.timeout_line:
        return prompt.timeout_line
    return f'/order "{seat}" {prompt.on_timeout}' if prompt.on_timeout else None


def passed_for_timeout(ruleset: Ruleset, events: Iterable[Event], seat: str, due: datetime) -> bool:
    """Whether an event logged since ``due`` passed ``seat`` because its time ran out: the game says which of its
    events does (``MarksTimeouts``); a game that does not say has none."""
    if not isinstance(ruleset, MarksTimeouts):
        return False
    since = due.isoformat(timespec="seconds")
    return any(e.at >= since and ruleset.timed_out(e) == seat for e in events)


def _passed_for_timeout(app: App, campaign_id: int, name: str, seat: str, due: datetime) -> bool:
    ruleset, _ = app.service.folded(name)
    with Session(app.engine) as session:
        events = load_events(session, campaign_id)
    return passed_for_timeout(ruleset, events, seat, due)
