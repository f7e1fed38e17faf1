"""Moments in the pieces that run against time (windows, auctions, votes): the shell's stamp on the event (its
``at``), never a clock of the engine's own, so a replay reads the same moments and reaches the same verdicts."""
from __future__ import annotations

import datetime as dt

from engine.events import Event, Rejection


def moment(event: Event) -> dt.datetime:
    """The event's stamp; an event without one (a test's hand-built log) counts as the epoch."""
    if not event.at:
        return dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    try:
        when = dt.datetime.fromisoformat(event.at)
    except ValueError:
        raise Rejection(f"event #{event.seq} has no readable time ('{event.at}')") from None
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def later(start: dt.datetime, seconds: float) -> str:
    return (start + dt.timedelta(seconds=seconds)).isoformat(timespec="seconds")


def until(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)
