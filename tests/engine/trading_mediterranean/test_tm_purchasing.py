"""Purchasing: buildings within the track's allowance (Jenna, Andy), developments once each, industry (Don),
leftover money halved."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import purchasing, tracks
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ, Track

RULES = default_rules()


def rich(seat: str, money: int = 100) -> Civ:
    civ = new_civ(RULES, seat)
    civ.money = money
    return civ


def test_the_black_palace_needs_dictator_level_one() -> None:
    civ = rich("A")
    civ.government = Track("dictatorship", 0)
    with pytest.raises(Rejection, match="A's government at dictatorship 0 allows 0 dictatorship building\\(s\\); it has 0"):
        purchasing.build(RULES, civ, "Palace")
    civ.government = Track("dictatorship", 1)
    assert purchasing.build(RULES, civ, "Palace") == ["A builds Palace for $6 (+2 population)"]
    assert (civ.money, civ.cubes["available"]) == (94, 2)


def test_jennas_marker_allows_two_white_buildings() -> None:
    jenna = rich("Jenna")
    jenna.government = Track("democracy", 3)
    purchasing.build(RULES, jenna, "Assembly")
    purchasing.build(RULES, jenna, "Forum")
    with pytest.raises(Rejection, match="allows 2 democracy building\\(s\\); it has 2"):
        purchasing.build(RULES, jenna, "Courts")


def test_andys_buildings_stand_when_his_track_drops() -> None:
    andy = rich("Andy")
    andy.government = Track("democracy", 3)
    purchasing.build(RULES, andy, "Assembly")
    purchasing.build(RULES, andy, "Forum")
    andy.government = Track("democracy", 1)
    assert andy.buildings == ["Assembly", "Forum"]
    assert tracks.allowance(RULES, andy, "democracy") == 1


def test_a_building_of_the_other_side_or_a_tile_twice_is_refused() -> None:
    civ = rich("A")
    civ.government = Track("democracy", 5)
    with pytest.raises(Rejection, match="Palace is a dictatorship building; A's government is democracy"):
        purchasing.build(RULES, civ, "Palace")
    purchasing.build(RULES, civ, "Forum")
    with pytest.raises(Rejection, match="A has built tile 3 already"):
        purchasing.build(RULES, civ, "Forum")
    poor = rich("B", 2)
    poor.government = Track("democracy", 5)
    with pytest.raises(Rejection, match="Assembly costs \\$3; B has \\$2"):
        purchasing.build(RULES, poor, "Assembly")


def test_each_development_once_per_player_per_turn_and_only_those_shown() -> None:
    civ = rich("A")
    offered = ["Festivals", "Town"]
    purchasing.develop(RULES, civ, RULES.development("Festivals"), 1, offered)
    assert civ.happiness == 1
    with pytest.raises(Rejection, match="A has bought Festivals this turn: each development once"):
        purchasing.develop(RULES, civ, RULES.development("Festivals"), 1, offered)
    with pytest.raises(Rejection, match="Palisade is not among this turn's developments \\(Festivals, Town\\)"):
        purchasing.develop(RULES, civ, RULES.development("Palisade"), 1, offered)


def test_a_worker_comes_from_available_else_a_named_rural_worker() -> None:
    civ = rich("A")
    town = RULES.development("Town")
    with pytest.raises(Rejection, match="A has no available worker: name a rural worker to move \\(grain, ore, salt, timber, wool\\)"):
        purchasing.develop(RULES, civ, town, 1, ["Town"])
    assert civ.money == 100  # nothing half-applied
    purchasing.develop(RULES, civ, town, 1, ["Town"], rural="grain")
    assert (civ.cubes["farm:grain"], civ.cubes["city"], civ.money) == (0, 1, 95)


def test_iron_age_developments_need_an_available_worker() -> None:
    civ = rich("A")
    metropolis = RULES.development("Metropolis")
    with pytest.raises(Rejection, match="iron age development: it needs an available worker and A has none"):
        purchasing.develop(RULES, civ, metropolis, 6, ["Metropolis"], rural="grain")
    civ.cubes["available"] = 1
    purchasing.develop(RULES, civ, metropolis, 6, ["Metropolis"])
    assert (civ.cubes["city"], civ.vp) == (1, 7)


def test_industry_development_and_dons_two_dollar_points() -> None:
    don = rich("Don", 20)
    don.cubes["available"] = 2
    industry = RULES.development("Industry")
    purchasing.develop(RULES, don, industry, 1, ["Industry"], target="ore")
    purchasing.end_of_turn(don)
    don.money = 20
    purchasing.develop(RULES, don, industry, 2, ["Industry"], target="wool")
    assert (don.industry, purchasing.vp_price(RULES, don)) == (2, 2)
    assert purchasing.buy_vp(RULES, don, 4) == ["Don buys 4 VP for $8"]
    assert (don.vp, don.money) == (9, 6)
    with pytest.raises(Rejection, match="buy 1 to 1000 victory points, not 0"):
        purchasing.buy_vp(RULES, don, 0)


def test_the_price_never_falls_below_a_dollar() -> None:
    civ = rich("A")
    civ.industry = 5
    assert purchasing.vp_price(RULES, civ) == 1


def test_wonders_score_three_per_building() -> None:
    civ = rich("A")
    civ.buildings = ["Forum", "Assembly", "Shrine"]
    purchasing.develop(RULES, civ, RULES.development("Great Palace"), 6, ["Great Palace"])
    assert civ.vp == 5 + 6


def test_a_status_move_either_way_within_its_reach() -> None:
    civ = rich("A")
    civ.religion = Track("venus", 1)
    with pytest.raises(Rejection, match="Prophet moves up to 2 step\\(s\\) either way, not 3"):
        purchasing.develop(RULES, civ, RULES.development("Prophet"), 1, ["Prophet"], steps=3)
    purchasing.develop(RULES, civ, RULES.development("Prophet"), 1, ["Prophet"], steps=-2)
    assert civ.religion == Track("mars", 0)


def test_leftover_money_is_halved_rounded_down() -> None:
    civ = rich("A", 3)
    purchasing.end_of_turn(civ)
    assert civ.money == 1
