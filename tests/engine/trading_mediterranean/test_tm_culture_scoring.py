"""Culture rows and columns, doubling buildings, and the end: VP, culture cubes, buildings, then a roll."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import culture, scoring
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ

RULES = default_rules()


def test_a_full_row_and_a_full_column_score_their_bonuses() -> None:
    civ = new_civ(RULES, "A")
    assert culture.place(RULES, civ, RULES.development("Shamans")) == 1
    assert culture.place(RULES, civ, RULES.development("Oral Poetry")) == 1
    assert culture.place(RULES, civ, RULES.development("Cave Paintings")) == 1 + 1  # the first column
    assert culture.place(RULES, civ, RULES.development("Academy")) == 2
    assert culture.place(RULES, civ, RULES.development("Great Library")) == 3 + 3  # the philosophy row
    assert civ.vp == 5 + 1 + 1 + 2 + 2 + 6
    with pytest.raises(Rejection, match="A's philosophy row is full \\(3 cubes\\)"):
        culture.place(RULES, civ, RULES.development("Shamans"))


def test_a_doubling_building_doubles_points_and_row_bonus_and_the_scholar_picks() -> None:
    civ = new_civ(RULES, "A")
    civ.buildings = ["Oracle"]  # doubles drama
    civ.culture = {"drama": 2}
    assert culture.place(RULES, civ, RULES.development("Scholar"), "drama") == 2 * 1 + 2 * 3
    with pytest.raises(Rejection, match="Scholar takes a culture box of any symbol: name one of philosophy, drama, architecture, not None"):
        culture.place(RULES, civ, RULES.development("Scholar"))


def test_the_ranking_and_its_tie_breaks() -> None:
    civs = [new_civ(RULES, s) for s in "ABCDE"]
    for c, vp in zip(civs, (30, 30, 30, 12, 12)):
        c.vp = vp
    civs[0].culture = {"drama": 1}
    civs[1].culture = {"drama": 1}
    civs[1].buildings = ["Forum"]
    civs[2].buildings = ["Forum", "Shrine"]
    assert scoring.tied_for_a_roll(civs) == [["D", "E"]]
    with pytest.raises(ValueError, match="the tie between D, E needs a distinct roll for each"):
        scoring.ranking(civs, {"D": 3, "E": 3})
    assert scoring.ranking(civs, {"D": 2, "E": 5}) == ["B", "A", "C", "E", "D"]
