"""Time for the shell: now, and the lottery draws that are still to come.

The engine never reads a clock. The shell stamps each event with the future draw dates a roll may be
bound to; which dates those are depends on the campaign's clock:

* ``live``: draws after this moment, from the stored calendar and the operator's published schedule;
* ``historical``: a campaign replayed on past draws (an offline game on the archive, a test): the
  campaign's own time is its turn's draw, so the coming draws are the stored draws after it.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from engine.lotto import BINDING_MARGIN as ENGINE_BINDING_MARGIN, ROME, held_at  # noqa: F401  (ROME: re-exported)

# How close to a draw a roll may still be bound to it: the engine's margin, the one verify holds bindings to.
BINDING_MARGIN = ENGINE_BINDING_MARGIN


def draw_weekdays(day: date) -> set[int]:
    """The weekly draw days in force on a given day (Monday is 0)."""
    if day >= date(2023, 7, 7):
        return {1, 3, 4, 5}  # Tue, Thu, Fri, Sat
    if day >= date(2005, 6, 21):
        return {1, 3, 5}  # Tue, Thu, Sat
    return {2, 5}  # Wed, Sat


def draw_moment(day: date) -> datetime:
    return held_at(day).astimezone(timezone.utc)


def scheduled_draws_after(moment: datetime, count: int) -> list[date]:
    """The next ``count`` draw days by the weekly schedule whose draw is still ahead of ``moment``.

    Draws moved for holidays are not foreseen here: the calendar of the source corrects them.
    """
    out: list[date] = []
    day = moment.astimezone(ROME).date()
    while len(out) < count:
        if day.weekday() in draw_weekdays(day) and draw_moment(day) - BINDING_MARGIN > moment:
            out.append(day)
        day += timedelta(days=1)
    return out


class Clock:
    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FixedClock(Clock):
    """A clock that says what it is told: for tests and for replays of a recorded session."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def now(self) -> datetime:
        return self.moment

    def advance(self, delta: timedelta) -> None:
        self.moment += delta
