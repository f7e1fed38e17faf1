"""The events in effect of a fold, shared between the runs grown from one another and never seen across branches."""
from __future__ import annotations

import pickle

import pytest

from engine.event_run import EventRun, event_run
from engine.events import Event


def ev(seq: int) -> Event:
    return Event(seq, "order", f"p{seq}")


def test_growing_shares_the_list_and_leaves_the_older_run_as_it_was() -> None:
    first = EventRun([ev(1), ev(2)])
    second = first.plus(ev(3))
    third = second.plus(ev(4))
    assert first._events is second._events is third._events  # no copy of the past events
    assert tuple(first) == (ev(1), ev(2))
    assert tuple(second) == (ev(1), ev(2), ev(3))
    assert tuple(third) == (ev(1), ev(2), ev(3), ev(4))
    assert (len(first), len(second), len(third)) == (2, 3, 4)


def test_a_second_branch_from_one_run_copies_and_neither_sees_the_other() -> None:
    base = EventRun([ev(1)])
    kept = base.plus(ev(2))
    other = base.plus(Event(2, "chat", "x"))
    assert other._events is not kept._events
    assert tuple(kept) == (ev(1), ev(2))
    assert tuple(other) == (ev(1), Event(2, "chat", "x"))
    assert tuple(base) == (ev(1),)
    # Each branch grows on without touching the other.
    assert tuple(kept.plus(ev(3))) == (ev(1), ev(2), ev(3))
    assert tuple(other.plus(ev(3))) == (ev(1), Event(2, "chat", "x"), ev(3))
    assert tuple(base.plus(ev(9))) == (ev(1), ev(9))


def test_a_run_reads_as_the_tuple_of_its_own_events() -> None:
    run = EventRun([ev(1), ev(2)]).plus(ev(3))
    run.plus(ev(4))  # grows the shared list past ``run``
    assert run == (ev(1), ev(2), ev(3))
    assert run != (ev(1), ev(2), ev(3), ev(4))
    assert run == EventRun([ev(1), ev(2), ev(3)])
    assert list(reversed(run)) == [ev(3), ev(2), ev(1)]
    assert (run[0], run[-1], run[2]) == (ev(1), ev(3), ev(3))
    assert run[1:] == (ev(2), ev(3))
    assert run[-2:] == (ev(2), ev(3))
    assert ev(4) not in run
    assert tuple(run + (ev(4), ev(5))) == (ev(1), ev(2), ev(3), ev(4), ev(5))
    with pytest.raises(IndexError):
        run[3]
    with pytest.raises(IndexError):
        run[-4]
    assert repr(EventRun([ev(1)])) == f"EventRun(({ev(1)!r},))"


def test_a_pickled_run_holds_its_own_events_only() -> None:
    run = EventRun([ev(1)]).plus(ev(2))
    run.plus(ev(3))
    back = pickle.loads(pickle.dumps(run))
    assert back == (ev(1), ev(2))
    assert back._events == [ev(1), ev(2)]


def test_event_run_keeps_a_run_and_wraps_a_tuple() -> None:
    run = EventRun([ev(1)])
    assert event_run(run) is run
    assert event_run((ev(1), ev(2))) == (ev(1), ev(2))
    assert isinstance(event_run(()), EventRun) and len(event_run(())) == 0
