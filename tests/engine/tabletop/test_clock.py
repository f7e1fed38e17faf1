"""Moments of the pieces that run against time (engine/tabletop/clock.py): read from the event's stamp alone."""
from __future__ import annotations

import datetime as dt

import pytest

from engine.events import Event, Rejection
from engine.tabletop import clock

UTC = dt.timezone.utc


def test_an_event_without_a_stamp_counts_as_the_epoch() -> None:
    assert clock.moment(Event(4, "x", "ann")) == dt.datetime(1970, 1, 1, tzinfo=UTC)


def test_a_stamp_keeps_its_offset_and_one_without_is_read_as_utc() -> None:
    rome = clock.moment(Event(4, "x", "ann", at="2026-11-01T13:00:05+01:00"))
    assert (rome, rome.utcoffset()) == (dt.datetime(2026, 11, 1, 12, 0, 5, tzinfo=UTC), dt.timedelta(hours=1))
    assert clock.moment(Event(4, "x", "ann", at="2026-11-01T12:00:05")) == dt.datetime(2026, 11, 1, 12, 0, 5, tzinfo=UTC)


def test_an_unreadable_stamp_is_refused_with_the_event_and_the_stamp() -> None:
    with pytest.raises(Rejection) as refused:
        clock.moment(Event(4, "x", "ann", at="yesterday noon"))
    assert refused.value.reason == "event #4 has no readable time ('yesterday noon')"


def test_later_is_written_to_the_second_and_read_back_by_until() -> None:
    start = dt.datetime(2026, 11, 1, 12, 0, 5, 700000, tzinfo=UTC)
    assert clock.later(start, 90) == "2026-11-01T12:01:35+00:00"
    assert clock.until(clock.later(start, 90)) == dt.datetime(2026, 11, 1, 12, 1, 35, tzinfo=UTC)
