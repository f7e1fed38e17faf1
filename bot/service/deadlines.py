"""Deadlines as the service reads and moves them: who is up and until when, and the GM's /gm extend and /gm deadline.

The ``deadline`` rows (bot/store/schedule_tables.py) are the truth. This module only reads and changes rows;
the scheduler (bot/schedule/scheduler/), which sits above the service, turns rows into jobs. So that the
service need not import the scheduler, a moved deadline is announced to ``deadline_listeners``: the scheduler
registers itself there when it is imported, and reschedules the row's job if it is running.
"""
from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from bot.store.db import after_outer_commit
from sqlmodel import Session

from bot.schedule.clock import Clock
from bot.service.deadline_text import (  # noqa: F401  (discord_time: re-exported)
    discord_time, discord_when, seat_players,
)
from engine.quote import quote
from bot.store.campaigns import find_campaign
from bot.store.schedule_tables import PENDING, PLAYER_TURN, DeadlineRow, active_deadlines, as_utc, settings_for

log = logging.getLogger("legatus.scheduler")

UTC = timezone.utc

# Called with the moved row and the time of the move, after it is committed.
DeadlineListener = Callable[[DeadlineRow, datetime], None]
deadline_listeners: list[DeadlineListener] = []


# --- what a GM may type ------------------------------------------------------------------------------------------------

# A year: no play-by-forum turn waits longer, and every number below it stays far from datetime's limits.
MAX_HOURS = 8760.0


def parse_hours(text: str, what: str, *, minimum: float, inclusive: bool = False) -> float:
    """A finite number of hours in (``minimum``, MAX_HOURS] ([``minimum``, ...] if ``inclusive``); else ValueError
    quoting what was typed and saying what would be right."""
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    low_ok = hours >= minimum if inclusive else hours > minimum
    if not (math.isfinite(hours) and low_ok and hours <= MAX_HOURS):
        bound = f"{'at least' if inclusive else 'more than'} {minimum:g}"
        raise ValueError(f"'{quote(text)}': {what} is a number of hours, {bound} and at most {MAX_HOURS:g} (a year)")
    return hours


def check_window(moment: datetime, now: datetime, typed: str, zone: str = "UTC") -> datetime:
    """A deadline must fall within a year of now, either way: anything else is a typing slip (or an overflow)."""
    span = timedelta(hours=MAX_HOURS)
    if not (now - span <= moment <= now + span):
        first = utc_to_local(now - span, zone).strftime("%Y-%m-%d %H:%M")
        last = utc_to_local(now + span, zone).strftime("%Y-%m-%d %H:%M")
        raise ValueError(f"'{quote(typed)}' is not within a year of now: give a time between {first} and {last} ({zone})")
    return moment


# --- time ---------------------------------------------------------------------------------------------------------------


def local_to_utc(text: str, zone: str) -> datetime:
    """'2026-12-01 20:00' on the wall clock of ``zone`` as an aware UTC instant.

    The instant is computed once, at the time the GM sets it, and stored in UTC: a DST change between
    setting and due time moves nothing (it stays the intended wall time of that date). A wall time that
    does not exist (the spring-forward gap) is refused; an ambiguous one (the autumn repeated hour) is the
    first of the two, as zoneinfo's ``fold=0``.
    """
    try:
        naive = datetime.fromisoformat(text.strip().replace("T", " "))
    except ValueError:
        raise ValueError(f"'{quote(text)}' is not a date and time: write YYYY-MM-DD HH:MM, e.g. 2026-12-01 20:00") from None
    if naive.tzinfo is not None:
        return as_utc(naive)
    tz = ZoneInfo(zone)
    local = naive.replace(tzinfo=tz)
    try:
        moment = local.astimezone(UTC)
    except OverflowError:  # 0001-01-01 or 9999-12-31 a few hours from the end of datetime's range
        raise ValueError(f"'{quote(text)}' is outside any campaign's time: write a date within a year of now") from None
    if moment.astimezone(tz).replace(tzinfo=None) != naive:
        raise ValueError(f"{text} does not exist in {zone} (the clocks skip it): pick another time")
    return moment


def utc_to_local(moment: datetime, zone: str) -> datetime:
    return as_utc(moment).astimezone(ZoneInfo(zone))


def possessive(seat: str) -> str:
    return f"the {seat}'" if seat.endswith("s") else f"the {seat}'s"


# --- who is to act ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Acting:
    turn: int | None
    seats: tuple[str, ...]
    players: dict[str, str]  # seat -> player identity


def acting_of(service: Any, name: str) -> Acting:
    """Who is to act now. Uses the service's fold (a public ``to_act`` on Legatus would be nicer)."""
    ruleset, state = service.folded(name)
    return acting_from(tuple(ruleset.to_act(state)), ruleset, state)


def acting_from(seats: tuple[str, ...], ruleset: Any, state: Any) -> Acting:
    """Who is to act, their players and the game turn: all through the ruleset boundary."""
    players = seat_players(ruleset, state)
    return Acting(turn=ruleset.summary(state).turn, seats=seats, players=players)


# --- GM tools -----------------------------------------------------------------------------------------------------------


def _active_for(session: Session, campaign_id: int, seat: str) -> DeadlineRow | None:
    rows = [d for d in active_deadlines(session, campaign_id) if d.kind == PLAYER_TURN and d.seat == seat]
    return rows[-1] if rows else None


@contextlib.contextmanager
def _session(service: Any, given: Session | None) -> Iterator[Session]:
    """The caller's session (a post's, which holds the write lock: committed with the post), or a new one."""
    if given is not None:
        yield given
        return
    with Session(service.engine) as own:
        yield own


def _announce_moved(session: Session, d: DeadlineRow, now: datetime, *, committed: bool) -> None:
    """Tell the listeners (the scheduler moves its job) once the move is committed. Inside a post's transaction,
    which holds SQLite's write lock, a listener writing to the same file (apscheduler's job store) would wait for
    that lock until the busy timeout, and the post would be retried ten times over: so it waits for the commit,
    and is not told at all if the post is rolled back."""
    moved = DeadlineRow(**{c.name: getattr(d, c.name) for c in DeadlineRow.__table__.columns})  # type: ignore[attr-defined]  # sqlmodel: undeclared

    def tell(*_: Any) -> None:
        for listener in list(deadline_listeners):
            listener(moved, now)

    if committed:
        tell()
    else:
        after_outer_commit(session, tell)


def extend_deadline(service: Any, campaign: str | None, seat: str, hours: float, by: str,
                    *, clock: Clock | None = None, session: Session | None = None) -> str:
    """Move a seat's deadline by ``hours`` (negative shortens). A new reminder is due if its time is ahead.

    With ``session``, the change is flushed in it and committed by its owner; without, committed here."""
    now = as_utc((clock or service.clock).now())
    own = session is None
    with _session(service, session) as session:
        row = find_campaign(session, campaign)
        if row is None or row.id is None:
            return f"no campaign '{campaign}'"
        d = _active_for(session, row.id, seat)
        if d is None:
            return f"the {seat} have no running deadline"
        settings = settings_for(session, row.id)
        if not (math.isfinite(hours) and abs(hours) <= MAX_HOURS):
            raise ValueError(f"'{hours:g}': the hours to extend by are at most {MAX_HOURS:g} either way (a year)")
        check_window(d.due_at + timedelta(hours=hours), now, f"{hours:g}h from {d.due_at:%Y-%m-%d %H:%M} UTC")
        d.due_at = d.due_at + timedelta(hours=hours)
        remind_at = d.due_at - timedelta(hours=settings.remind_hours_before)
        d.remind_at, d.state = (remind_at, PENDING) if remind_at > now else (d.remind_at, d.state)
        session.add(d)
        if own:
            session.commit()
            session.refresh(d)
        else:
            session.flush()
        log.info("%s moved the deadline of the %s (campaign %s) by %sh to %s", by, seat, row.name, hours, d.due_at)
        _announce_moved(session, d, now, committed=own)
        return f"{by} extended {possessive(seat)} turn by {hours:g}h: it now ends {discord_when(d.due_at)}"


def set_deadline(service: Any, campaign: str | None, seat: str, local_time: str, by: str,
                 *, clock: Clock | None = None, session: Session | None = None) -> str:
    """Set a seat's deadline to a wall time in the campaign's zone ('2026-12-01 20:00')."""
    given = session
    with _session(service, given) as session:
        row = find_campaign(session, campaign)
        if row is None or row.id is None:
            return f"no campaign '{campaign}'"
        zone = settings_for(session, row.id).timezone
        d = _active_for(session, row.id, seat)
        if d is None:
            return f"the {seat} have no running deadline"
        due = d.due_at
    target = check_window(local_to_utc(local_time, zone), as_utc((clock or service.clock).now()), local_time, zone)
    return extend_deadline(service, campaign, seat, (target - due).total_seconds() / 3600, by, clock=clock,
                           session=given)
