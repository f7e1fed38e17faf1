"""Resolution: the seed's incomes, Mark's full example, arrows, flips (Paul), bottoms, industries, turn order."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import income, resolution, tracks
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Track

RULES = default_rules()


@pytest.mark.parametrize(("good", "n", "money"), [
    ("grain", 1, 1), ("grain", 3, 6), ("grain", 5, 15),
    ("wine", 1, 2), ("wine", 2, 5), ("wine", 5, 20), ("wine", 7, 29),
    ("dye", 2, 5), ("spice", 1, 3), ("timber", 1, 1)])
def test_the_seeds_incomes(good: str, n: int, money: int) -> None:
    assert income.set_income(RULES, good, n) == money


def test_marks_full_resolution() -> None:
    # Two black arrows and one white: one step toward dictatorship; two blue: two toward venus; a prosperity; a
    # barbarian; 3 grain $6, 1 timber $1, 2 dye $5, 1 spice $3 = $15.
    cards = ["grain dictatorship", "grain dictatorship", "grain democracy", "timber prosperity",
             "dye venus", "dye venus", "spice barbarians"]
    mark = new_civ(RULES, "Mark")
    mark.government = Track("dictatorship", 2)
    said = resolution.resolve(RULES, mark, cards)
    assert (mark.money, mark.vp, mark.safety, mark.happiness) == (15, 6, -1, 0)
    assert (mark.government, mark.religion) == (Track("dictatorship", 3), Track("venus", 2))
    assert said[0] == "Mark earns $15 (dye $5, grain $6, spice $3, timber $1)"


def test_piracy_earns_nothing() -> None:
    assert income.income(RULES, ["piracy", "gold mars"]) == {"gold": 3}


def test_opposite_arrows_cancel() -> None:
    t, flipped = tracks.move(RULES, Track("democracy", 2), Counter({"democracy": 3, "dictatorship": 3}))
    assert (t, flipped) == (Track("democracy", 2), False)


def test_pauls_revolution_destroys_his_black_buildings() -> None:
    paul = new_civ(RULES, "Paul")
    paul.government = Track("dictatorship", 2)
    paul.buildings = ["Palace", "Watchtower", "Temple of Venus"]
    said = resolution.resolve(RULES, paul, ["art democracy"] * 4)
    assert paul.government == Track("democracy", 1)
    assert paul.buildings == ["Temple of Venus"]
    assert said[-1] == "Paul's government flips from dictatorship to democracy (level 1): Palace, Watchtower destroyed"


def test_the_marker_stops_at_the_end_of_the_track() -> None:
    assert tracks.move(RULES, Track("mars", 9), Counter({"mars": 5}))[0] == Track("mars", 10)


def test_bad_bottoms_move_the_status_tracks_and_zealots_push_the_other_way() -> None:
    s = resolution.spend(RULES, ["grain poverty", "ore depression", "wine barbarians", "art barbarian fury",
                                 "dye zealots", "slaves slave revolt", "art corruption"])
    assert (s.happiness, s.safety) == (-1 - 2 - 1 - 1 - 1, -1 - 2)
    assert s.arrows == Counter({"mars": 1, "democracy": 1, "dictatorship": 1})


def test_the_bank_ignores_poverty_or_triples_prosperity() -> None:
    cards = ["grain poverty", "salt prosperity"]
    assert resolution.spend(RULES, cards, "poverty").happiness == 0
    assert resolution.spend(RULES, cards, "prosperity").vp == 3
    with pytest.raises(Rejection, match="the Bank ignores poverty or triples prosperity, not 'gold'"):
        resolution.spend(RULES, cards, "gold")


def test_warehousing_limits() -> None:
    civ = new_civ(RULES, "Ann")
    faces = {"ore depression": "ore.4"}
    resolution.check_warehouse(RULES, civ, ["grain mars", "wine mars", "dye venus"], faces)
    with pytest.raises(Rejection, match="Ann may warehouse 3 card\\(s\\), not 4"):
        resolution.check_warehouse(RULES, civ, ["grain mars"] * 4, faces)
    with pytest.raises(Rejection, match="ore.4 may not be warehoused \\(its bottom says MAY NOT WAREHOUSE\\)"):
        resolution.check_warehouse(RULES, civ, ["ore depression"], faces)
    civ.cubes["warehouse_upgrade"] = 1
    resolution.check_warehouse(RULES, civ, ["grain mars"] * 5, faces)
    civ.cubes = {"farm:grain": 1}
    with pytest.raises(Rejection, match="Ann may warehouse 0 card\\(s\\), not 1: the warehouse cube is lost"):
        resolution.check_warehouse(RULES, civ, ["grain mars"], faces)


def test_gwendolyns_dominance_and_svens_monopoly() -> None:
    gwen, sven, olaf = (new_civ(RULES, s) for s in ("Gwendolyn", "Sven", "Olaf"))
    gwen.cubes["industry:timber"] = 1
    sven.cubes["industry:wool"] = 1
    spent = {"Gwendolyn": Counter({"timber": 2}), "Sven": Counter({"wool": 3}), "Olaf": Counter({"timber": 2})}
    assert resolution.industry_bonuses(RULES, [gwen, sven, olaf], spent) == {
        "Gwendolyn": (2, "safety"), "Sven": (5, None)}
    spent["Olaf"] = Counter({"timber": 3})
    assert resolution.industry_bonuses(RULES, [gwen, sven, olaf], spent) == {"Sven": (5, None)}


def test_turn_order_by_descending_wealth_ties_keep_the_order() -> None:
    assert resolution.turn_order(["A", "B", "C", "D"], {"A": 3, "B": 9, "C": 3, "D": 9}) == ["B", "D", "A", "C"]
