"""Pick chains: the seat picked from picks next, one round trip per pair."""
from __future__ import annotations

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
