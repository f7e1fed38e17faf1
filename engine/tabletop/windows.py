"""Open windows: a phase where every seat may act at once until a deadline or until every seat has said "done"
(a trading phase: four minutes for a group at the table, hours on a forum). A seat that acts after saying done is
no longer done: the window ends only when all agree at the same time."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Event, Rejection
from engine.tabletop import clock

MIN_SECONDS, MAX_SECONDS = 30, 14 * 24 * 3600


@dataclass
class Window:
    name: str
    seats: tuple[str, ...]
    closes_at: str  # the deadline (ISO, from the opening event's stamp): the countdown shows it
    done: list[str] = field(default_factory=list)
    closed: str = ""  # why it closed: "all done", "time", ""

    def waiting(self) -> list[str]:
        return [] if self.closed else [s for s in self.seats if s not in self.done]

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "seats": list(self.seats), "closes_at": self.closes_at, "done": list(self.done),
                "closed": self.closed}


def open_window(name: str, seats: list[str], event: Event, seconds: float) -> Window:
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise Rejection(f"a window lasts {MIN_SECONDS} seconds to {MAX_SECONDS // 86400} days, not {seconds:.15g} seconds")
    return Window(name, tuple(seats), clock.later(clock.moment(event), seconds))


def acting(window: Window, seat: str) -> None:
    """A seat acts in the window (an offer, an answer): refused once closed; it is no longer done."""
    if window.closed:
        raise Rejection(f"the {window.name} window is closed ({window.closed})")
    if seat not in window.seats:
        raise Rejection(f"{seat} takes no part in the {window.name} window")
    if seat in window.done:
        window.done.remove(seat)


def done(window: Window, seat: str) -> bool:
    """``seat`` says done; True when that closes the window (every seat done)."""
    acting(window, seat)
    window.done.append(seat)
    if len(window.done) == len(window.seats):
        window.closed = "all done"
        return True
    return False


def close(window: Window, event: Event, *, force: bool = False) -> None:
    """Close at the deadline (the scheduler's order, or anyone once it is past); the GM may ``force`` it earlier."""
    if window.closed:
        raise Rejection(f"the {window.name} window is already closed ({window.closed})")
    if not force and clock.moment(event) < clock.until(window.closes_at):
        raise Rejection(f"the {window.name} window runs until {window.closes_at}; every seat may say 'done' to end it sooner")
    window.closed = "time" if not force else "closed by the GM"
