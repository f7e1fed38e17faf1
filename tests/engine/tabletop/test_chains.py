"""Pick chains: the seat picked from picks next, one round trip per pair."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.events import Rejection
from engine.tabletop import chains


def test_a_pick_chain_follows_the_last_pick_with_one_round_trip_per_pair() -> None:
    c = chains.start(["A", "B", "C"], "A")
    assert chains.pick(c, "A", "B") == "B"
    with pytest.raises(Rejection, match="B picks now, not A"):
        chains.pick(c, "A", "C")
    assert chains.pick(c, "B", "A") == "A"
    with pytest.raises(Rejection, match="A has already picked from B: one round trip per pair; pick from C"):
        chains.pick(c, "A", "B")
    assert chains.pick(c, "A", "C") == "C"
    assert chains.pick(c, "C", "A") is None  # A has picked from B and C: nobody left to pick from
    with pytest.raises(Rejection, match="the pick chain is over"):
        chains.pick(c, "A", "C")


def _refusal(call: Callable[[], object]) -> str:
    with pytest.raises(Rejection) as refused:
        call()
    return refused.value.reason


def test_a_chain_starts_only_with_one_of_its_seats() -> None:
    assert _refusal(lambda: chains.start(["A", "B", "C"], "Z")) == "'Z' is not one of the seats of the chain (A, B, C)"
    c = chains.start(["A", "B", "C"], "B")
    assert (c.seats, c.next, c.picks, c.public()) == (("A", "B", "C"), "B", [], {"next": "B", "picks": []})


def test_a_seat_picks_from_another_seat_of_the_chain_and_is_told_whom_it_may_pick_from() -> None:
    c = chains.start(["A", "B", "C", "D"], "A")
    assert _refusal(lambda: chains.pick(c, "A", "A")) == "'A' cannot be picked from: pick from B, C, D"
    assert _refusal(lambda: chains.pick(c, "A", "Z")) == "'Z' cannot be picked from: pick from B, C, D"
    assert (c.next, c.picks) == ("A", [])
    assert chains.pick(c, "A", "B") == "B" and chains.pick(c, "B", "A") == "A"
    assert _refusal(lambda: chains.pick(c, "A", "B")) == (
        "A has already picked from B: one round trip per pair; pick from C, D")
    assert c.public() == {"next": "A", "picks": [["A", "B"], ["B", "A"]]}


def test_a_lone_seat_has_nobody_to_pick_from_and_an_ended_chain_takes_no_pick() -> None:
    lone = chains.start(["A"], "A")
    assert _refusal(lambda: chains.pick(lone, "A", "B")) == "'B' cannot be picked from: pick from nobody"
    c = chains.start(["A", "B"], "A")
    assert chains.pick(c, "A", "B") == "B" and chains.pick(c, "B", "A") is None
    assert _refusal(lambda: chains.pick(c, "B", "A")) == "the pick chain is over"
    assert c.public() == {"next": None, "picks": [["A", "B"], ["B", "A"]]}
