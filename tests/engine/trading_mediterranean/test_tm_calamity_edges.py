"""Calamities at their edges: the victim one step below the start, the peasantry's exact question, the indecision
penalty on the voters alone, and every loss and refusal of ``strike`` with its words."""
from __future__ import annotations

import dataclasses

import pytest

from engine.events import Rejection
from engine.tabletop import votes
from engine.trading_mediterranean import calamity
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ

RULES = default_rules()


def civs(track: str, levels: dict[str, int]) -> list[Civ]:
    out = []
    for seat, level in levels.items():
        c = new_civ(RULES, seat)
        setattr(c, track, level)
        out.append(c)
    return out


@pytest.mark.parametrize(("kind", "track"), [("unhappiness", "happiness"), ("barbarian", "safety")])
def test_one_step_below_the_start_is_a_victim_and_the_start_is_not(kind: str, track: str) -> None:
    assert calamity.find_victim(civs(track, {"A": 0, "B": -1, "C": 2}), kind) == calamity.Victim("B")
    assert calamity.find_victim(civs(track, {"A": 0, "B": 0}), kind) == calamity.Victim(None)
    # The other track does not count: a civ low on it alone is no victim.
    other = "safety" if track == "happiness" else "happiness"
    assert calamity.find_victim(civs(other, {"A": -3, "B": 0}), kind) == calamity.Victim(None)


def test_the_tie_keeps_seating_order_and_only_the_lowest() -> None:
    table = civs("happiness", {"C": -2, "A": -1, "B": -2})
    assert calamity.find_victim(table, "unhappiness") == calamity.Victim(None, ("C", "B"))


def test_the_peasantrys_exact_question() -> None:
    table = civs("safety", {"A": -2, "B": 0, "C": -2})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "barbarian"), "Sack")
    assert vote is not None
    assert vote.question == "Who suffers Sack? The tied players are A, C."
    assert (vote.options, vote.voters, vote.default) == (("A", "C", "no one"), ("B",), "no one")


def test_a_decided_victim_costs_the_voters_nothing_and_indecision_costs_exactly_five() -> None:
    table = civs("happiness", {"A": -1, "B": -1, "C": 0})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "unhappiness"), "Riots")
    assert vote is not None and votes.cast(vote, "C", "A") == "A"
    assert calamity.settle(RULES, table, vote) == ("A", [])
    assert [c.vp for c in table] == [5, 5, 5]
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "unhappiness"), "Riots")
    assert vote is not None and votes.cast(vote, "C", calamity.UNDECIDED) == calamity.UNDECIDED
    assert calamity.settle(RULES, table, vote) == (None, ["C"])
    assert [c.vp for c in table] == [5, 5, 0]


def test_an_undecided_vote_is_refused_in_words() -> None:
    table = civs("happiness", {"A": -1, "B": -1, "C": 0})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "unhappiness"), "Riots")
    with pytest.raises(Rejection) as refused:
        calamity.settle(RULES, table, vote)
    assert str(refused.value) == "the peasantry's vote is not decided yet"
    assert [c.vp for c in table] == [5, 5, 5]


def test_famine_takes_one_cube_and_two_vp() -> None:
    civ = new_civ(RULES, "A")
    assert calamity.strike(RULES, civ, RULES.calamity("Famine"), ["farm:ore"], []) == ["Famine strikes A"]
    assert (civ.vp, civ.population(), "farm:ore" in civ.cubes, civ.money) == (3, 6, False, RULES.start_money)


def test_a_place_with_two_cubes_keeps_one() -> None:
    civ = new_civ(RULES, "A")
    civ.cubes["city"] = 2
    calamity.strike(RULES, civ, RULES.calamity("Famine"), ["city"], [])
    assert civ.cubes["city"] == 1


def test_losing_a_colosseum_costs_two_happiness_and_an_army_two_safety() -> None:
    civ = new_civ(RULES, "A")
    civ.cubes.update({"colosseum": 1, "army": 1})
    civ.happiness, civ.safety = 3, 3
    calamity.strike(RULES, civ, RULES.calamity("Riots"), ["colosseum", "army"], [])
    assert (civ.happiness, civ.safety) == (1, 1)


def test_a_small_population_loses_only_what_it_has() -> None:
    civ = new_civ(RULES, "A")
    civ.cubes = {"city": 2}
    calamity.strike(RULES, civ, RULES.calamity("Plague"), ["city", "city"], [])
    assert civ.cubes == {}
    civ.cubes = {"city": 2}
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Plague"), ["city"], [])
    assert str(refused.value) == "Plague takes 3 population cube(s): name 3 places, not 1"


def test_too_many_places_are_refused() -> None:
    civ = new_civ(RULES, "A")
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Famine"), ["farm:ore", "farm:salt"], [])
    assert str(refused.value) == "Famine takes 1 population cube(s): name 1 places, not 2"


def test_a_missing_cube_is_refused_listing_the_cubes_held() -> None:
    civ = new_civ(RULES, "A")
    civ.cubes["city"] = 0
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Famine"), ["city"], [])
    assert str(refused.value) == ("A has no cube on 'city' to lose; its cubes are farm:grain 1, farm:ore 1, "
                                  "farm:salt 1, farm:timber 1, farm:wool 1, industry 1, warehouse 1")


def test_rebellion_destroys_the_named_building_only() -> None:
    civ = new_civ(RULES, "A")
    civ.buildings = ["Forum", "Temple"]
    before = dict(civ.cubes)
    assert calamity.strike(RULES, civ, RULES.calamity("Rebellion"), [], ["Forum"]) == ["Rebellion strikes A"]
    assert (civ.buildings, civ.cubes, civ.vp) == (["Temple"], before, 5)


def test_a_building_count_or_name_wrong_is_refused_and_nothing_changes() -> None:
    civ = new_civ(RULES, "A")
    civ.buildings = ["Forum"]
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Rebellion"), [], [])
    assert str(refused.value) == "Rebellion destroys 1 building(s): name 1"
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Rebellion"), [], ["Temple"])
    assert str(refused.value) == "A has no building 'Temple'; it has Forum"
    assert civ.buildings == ["Forum"]
    civ.buildings = []
    assert calamity.strike(RULES, civ, RULES.calamity("Burning"), [], []) == ["Burning strikes A"]
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Burning"), [], ["Forum"])
    assert str(refused.value) == "Burning destroys 1 building(s): name 0"


def test_pillage_takes_three_vp_and_keeps_the_money_and_exodus_halves_an_odd_sum_down() -> None:
    civ = new_civ(RULES, "A")
    civ.money = 9
    calamity.strike(RULES, civ, RULES.calamity("Pillage"), [], [])
    assert (civ.vp, civ.money) == (2, 9)
    calamity.strike(RULES, civ, RULES.calamity("Exodus"), [], [])
    assert (civ.vp, civ.money) == (2, 4)


def test_a_victim_is_a_value_that_cannot_be_changed_after_it_is_found() -> None:
    victim = calamity.find_victim(civs("happiness", {"A": -1}), "unhappiness")
    with pytest.raises(dataclasses.FrozenInstanceError):
        victim.seat = "B"  # type: ignore[misc]  # the assignment a frozen dataclass must refuse
    assert {victim} == {calamity.Victim("A")}


def test_a_building_refusal_lists_every_building_held() -> None:
    civ = new_civ(RULES, "A")
    civ.buildings = ["Forum", "Temple"]
    with pytest.raises(Rejection) as refused:
        calamity.strike(RULES, civ, RULES.calamity("Burning"), [], ["Palace"])
    assert str(refused.value) == "A has no building 'Palace'; it has Forum, Temple"
