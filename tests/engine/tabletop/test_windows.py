"""Open windows: done by all at once, or the deadline read from the events' stamps."""
from __future__ import annotations

from collections.abc import Callable

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


def _refusal(call: Callable[[], object]) -> str:
    with pytest.raises(Rejection) as refused:
        call()
    return refused.value.reason


@pytest.mark.parametrize("seconds, closes_at", [(30, "2026-11-01T12:00:30+00:00"),
                                                (1209600, "2026-11-15T12:00:00+00:00")])
def test_a_window_lasts_from_thirty_seconds_to_fourteen_days_both_included(seconds: int, closes_at: str) -> None:
    assert windows.open_window("market", ["North"], at(0), seconds).closes_at == closes_at


@pytest.mark.parametrize("seconds, words", [(29, "29"), (1209601, "1209601"), (29.5, "29.5")])
def test_a_window_just_outside_the_bounds_is_refused_with_what_was_asked(seconds: float, words: str) -> None:
    assert _refusal(lambda: windows.open_window("market", ["North"], at(0), seconds)) == (
        f"a window lasts 30 seconds to 14 days, not {words} seconds")


def test_a_window_shows_its_seats_deadline_and_who_is_done() -> None:
    w = windows.open_window("market", ["North", "South"], at(0), 240)
    windows.done(w, "South")
    assert w.public() == {"name": "market", "seats": ["North", "South"], "closes_at": "2026-11-01T12:04:00+00:00",
                          "done": ["South"], "closed": ""}
    assert _refusal(lambda: windows.acting(w, "East")) == "East takes no part in the market window"
    assert _refusal(lambda: windows.close(w, at(239))) == (
        "the market window runs until 2026-11-01T12:04:00+00:00; every seat may say 'done' to end it sooner")
    windows.close(w, at(100), force=True)
    assert (w.closed, w.waiting(), w.public()["closed"]) == ("closed by the GM", [], "closed by the GM")
    assert _refusal(lambda: windows.close(w, at(300))) == "the market window is already closed (closed by the GM)"
    assert _refusal(lambda: windows.done(w, "North")) == "the market window is closed (closed by the GM)"
