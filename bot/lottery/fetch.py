"""Fetching a draw end to end: ask every source, keep what they said, store the draw only if they agree.

The network work is blocking (``requests``); ``fetch_draw_async`` moves it to a worker thread so the
bot's event loop keeps serving players while a slow site answers. When to fetch comes from
``next_fetch_time``; the scheduler that calls it is wired elsewhere.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace

from sqlalchemy.engine import Engine
from sqlmodel import Session

from bot.schedule.clock import ROME, draw_moment, draw_weekdays
from bot.store.draws import get_draw
from bot.lottery.formats import iso
from bot.lottery.http import RetryPolicy, Sleeper, SourceFault
from bot.lottery.reconcile import Outcome, Status, reconcile
from bot.lottery.sources import SOURCE_NAMES, LottoSettings, OfficialSource, Source, build_sources
from bot.store.fetched_draws import record_fetch
from engine.lotto import missing_wheels

# Results are on the official site minutes after the 20:00 draw; the archive follows within the hour.
FETCH_DELAY = dt.timedelta(minutes=15)


def next_fetch_time(after: dt.datetime) -> dt.datetime:
    """The first moment after ``after`` to fetch a draw: a scheduled draw's 20:00 Rome time plus FETCH_DELAY.

    Uses the weekly schedule, which cannot foresee a draw moved for a holiday; ``draw_days_to_fetch``
    catches such a draw from the calendar at the next scheduled fetch.
    """
    if after.tzinfo is None:
        raise ValueError("next_fetch_time needs a timezone-aware datetime")
    day = after.astimezone(ROME).date()
    while True:
        if day.weekday() in draw_weekdays(day):
            moment = draw_moment(day) + FETCH_DELAY
            if moment > after:
                return moment
        day += dt.timedelta(days=1)


def fetch_draw(session: Session, day: dt.date, sources: Sequence[Source]) -> Outcome:
    """One round: every source once (each with its own short retries), then reconcile."""
    outcome, _ = _fetch_round(session, day, sources)
    return outcome


async def fetch_draw_async(
    engine: Engine,
    day: dt.date,
    *,
    settings: LottoSettings | None = None,
    names: Iterable[str] = SOURCE_NAMES,
) -> Outcome:
    """``fetch_draw`` in a worker thread, with its own session and HTTP clients (neither is thread-safe).

    Cancelled (the bot stops), it stops the thread at its next wait between retries: the event loop's end joins
    its worker threads, and the back-off alone (seconds to minutes) would otherwise hold the bot's stop."""
    chosen = tuple(names)
    resolved = settings or LottoSettings.from_env()
    stop = threading.Event()

    def sleep(seconds: float) -> None:
        if stop.wait(seconds):
            raise FetchStopped("the fetch was stopped")

    def work() -> Outcome:
        sources = build_sources(resolved, chosen, sleeper=sleep)
        with Session(engine) as session:
            return fetch_draw(session, day, sources)

    try:
        return await asyncio.to_thread(work)
    except asyncio.CancelledError:
        stop.set()
        raise


class FetchStopped(Exception):
    """Raised in a fetch's thread, at a wait between retries, once the fetch was cancelled: it asks no source
    again and stores nothing more."""


def fetch_until_available(
    engine: Engine,
    day: dt.date,
    sources: Sequence[Source],
    *,
    policy: RetryPolicy | None = None,
    sleeper: Sleeper = time.sleep,
) -> Outcome:
    """Fetch rounds until the draw is stored, the sources disagree, or ``policy.attempts`` rounds failed.

    Waits ``policy.delays()`` between rounds (by default 2, 4, 8, 16, 30... minutes): a draw is often
    not published at the first try.
    """
    policy = policy or LottoSettings().availability
    with Session(engine) as session:
        stored = get_draw(session, day)
        if stored is not None and not missing_wheels(stored):
            return reconcile(session, day)  # nothing to fetch: answered without the network
    delays = policy.delays()
    outcome = Outcome(day, Status.WAITING, f"the draw of {iso(day)} was not fetched")
    faults: list[SourceFault] = []
    for attempt in range(policy.attempts):
        with Session(engine) as session:
            outcome, faults = _fetch_round(session, day, sources)
        if outcome.status is not Status.WAITING:
            return outcome
        hopeless = [f for f in faults if not f.retryable]
        if hopeless and _cannot_reach_two(sources, hopeless):
            return replace(outcome, status=Status.GAVE_UP, message=(
                f"gave up on the draw of {iso(day)} after {attempt + 1} attempt{'s' if attempt else ''}: "
                f"{hopeless[-1]} (trying again will not help); a GM may type the numbers only if no "
                f"source holds them, else the operator imports the official archive (legatus lotto import)"))
        if attempt < len(delays):
            sleeper(delays[attempt])
    last = str(faults[-1]) if faults else outcome.message
    return replace(outcome, status=Status.GAVE_UP, message=(
        f"gave up on the draw of {iso(day)} after {policy.attempts} attempts; last error: {last}"))


def draw_days_to_fetch(
    session: Session, official: OfficialSource, since: dt.date, until: dt.date
) -> list[dt.date]:
    """The draw days in [since, until] that the official calendar lists and the store lacks.

    This is how a draw moved for a holiday (2010-05-03 was a Monday) is found: from the calendar, never
    from the weekday.
    """
    days: list[dt.date] = []
    year, month = since.year, since.month
    while (year, month) <= (until.year, until.month):
        for day in official.calendar(year, month):
            if since <= day <= until:
                stored = get_draw(session, day)
                if stored is None or missing_wheels(stored):
                    days.append(day)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return days


def _fetch_round(session: Session, day: dt.date, sources: Sequence[Source]) -> tuple[Outcome, list[SourceFault]]:
    faults: list[SourceFault] = []
    for source in sources:
        try:
            fetched = source.fetch(day)
        except SourceFault as fault:
            faults.append(fault)
            continue
        record_fetch(session, fetched)
    outcome = reconcile(session, day)
    return replace(outcome, faults=tuple(line for f in faults for line in f.lines)), faults


def _cannot_reach_two(sources: Sequence[Source], hopeless: list[SourceFault]) -> bool:
    """True when too few sources are left that may still answer for two of them ever to agree."""
    broken = {f.source for f in hopeless}
    return len([s for s in sources if s.name not in broken]) < 2
