"""The final ranking's ties: groups listed best first, a missing roll refused, rolls ordering only within a tie."""
from __future__ import annotations

import pytest

from engine.trading_mediterranean import scoring
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ

RULES = default_rules()


def table(vps: dict[str, int]) -> list[Civ]:
    civs = []
    for seat, vp in vps.items():
        c = new_civ(RULES, seat)
        c.vp = vp
        civs.append(c)
    return civs


def test_two_tied_groups_best_first_and_a_lone_seat_needs_no_roll() -> None:
    civs = table({"E": 10, "D": 20, "C": 10, "B": 20, "A": 15})
    assert scoring.key(civs[0]) == (10, 0, 0)
    assert scoring.tied_for_a_roll(civs) == [["B", "D"], ["C", "E"]]
    assert scoring.tied_for_a_roll(table({"A": 3})) == []


def test_a_missing_roll_is_refused() -> None:
    civs = table({"A": 10, "B": 10})
    with pytest.raises(ValueError) as refused:
        scoring.ranking(civs, {"A": 4})
    assert str(refused.value) == "the tie between A, B needs a distinct roll for each"


def test_the_highest_roll_wins_its_tie_and_a_roll_never_lifts_a_lower_key() -> None:
    civs = table({"A": 10, "B": 10, "C": 11})
    civs[0].culture = {"drama": 1}
    civs[1].culture = {"drama": 1}
    assert scoring.ranking(civs, {"A": 1, "B": 6}) == ["C", "B", "A"]
    assert scoring.ranking(civs, {"A": 6, "B": 1}) == ["C", "A", "B"]


def test_culture_then_buildings_break_a_vp_tie_without_a_roll() -> None:
    civs = table({"A": 10, "B": 10, "C": 10})
    civs[0].buildings = ["Forum"]
    civs[2].culture = {"drama": 1}
    assert scoring.tied_for_a_roll(civs) == []
    assert scoring.ranking(civs, {}) == ["C", "A", "B"]
