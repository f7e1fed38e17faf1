"""The events in effect of a fold (``Folded.effective``): an immutable sequence that grows by one event without
copying the ones before it.

``engine.log.step`` made a new tuple of every past event for each event it folded, so a post at turn 500 paid for
the whole log again (about 59 us a step). A run is a length over a list shared by every run grown from it: growing
a run whose list ends where it ends appends to that list in place, and the older runs keep seeing only their own
prefix. Growing a run whose list has since grown past it (a second branch from one fold: a post rolled back and
tried again, a dry run beside the real one) copies its prefix first, so no run ever sees another's events.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, overload

from engine.events import Event


class EventRun(Sequence[Event]):
    """The first ``len(self)`` events of a list no run changes below its own end; equal to the tuple of them."""

    __slots__ = ("_events", "_length")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events: list[Event] = list(events)
        self._length = len(self._events)

    @classmethod
    def _over(cls, events: list[Event], length: int) -> EventRun:
        run = cls.__new__(cls)
        run._events, run._length = events, length
        return run

    def plus(self, event: Event) -> EventRun:
        """This run and ``event`` after it; this run itself stays as it was."""
        events, length = self._events, self._length
        # Appended first, then checked: list.append is atomic, so of two branches growing one run at once (threads),
        # only the one whose event landed right after the run shares the list; the other copies.
        if len(events) == length:
            events.append(event)
            if events[length] is event:
                return EventRun._over(events, length + 1)
        return EventRun._over([*islice(events, length), event], length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[Event]:
        return islice(self._events, self._length)

    def __reversed__(self) -> Iterator[Event]:
        events = self._events
        return (events[i] for i in range(self._length - 1, -1, -1))

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[:self._length][index])
        if not -self._length <= index < self._length:
            raise IndexError("event run index out of range")
        return self._events[index % self._length]

    def __add__(self, other: Iterable[Event]) -> EventRun:
        run = self
        for event in other:
            run = run.plus(event)
        return run

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EventRun):
            return self._length == other._length and (
                self._events is other._events or list(self) == list(other))
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"EventRun({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a snapshot) as its own events only, never the shared list's later ones.
        return (EventRun, (tuple(self),))


def event_run(events: Sequence[Event]) -> EventRun:
    """``events`` as a run (itself if it is one)."""
    return events if isinstance(events, EventRun) else EventRun(events)
