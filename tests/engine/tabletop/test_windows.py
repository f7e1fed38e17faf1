"""Open windows: done by all at once, or the deadline read from the events' stamps."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.tabletop import windows


def at(seconds: int) -> Event:
    return Event(1, "x", "ann", at=f"2026-11-01T12:{seconds // 60:02d}:{seconds % 60:02d}+00:00")


def test_a_window_ends_when_all_are_done_at_once() -> None:
    w = windows.open_window("market", ["North", "South"], at(0), 240)
    assert w.closes_at == "2026-11-01T12:04:00+00:00"
    assert windows.done(w, "North") is False
    windows.acting(w, "North")  # North makes an offer after all: it is no longer done
    assert windows.done(w, "South") is False and w.waiting() == ["North"]
    assert windows.done(w, "North") is True and w.closed == "all done"
    with pytest.raises(Rejection, match="the market window is closed \\(all done\\)"):
        windows.acting(w, "North")


def test_a_window_closes_at_its_deadline_not_before_unless_the_gm_says_so() -> None:
    w = windows.open_window("market", ["North", "South"], at(0), 240)
    with pytest.raises(Rejection, match="the market window runs until 2026-11-01T12:04:00\\+00:00"):
        windows.close(w, at(239))
    windows.close(w, at(240))
    assert w.closed == "time"
    with pytest.raises(Rejection, match="a window lasts 30 seconds to 14 days, not 10 seconds"):
        windows.open_window("market", ["North"], at(0), 10)
