"""The choices version 2 asks for, read and defaulted exactly: a calamity's default losses in their full order, when
a victim has a choice at all, the question's words, every way of naming a place, and the Bank's question."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import choices
from engine.trading_mediterranean.rules_data import Calamity, default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ

RULES = default_rules()
EVERYTHING = Calamity("Everything", "unhappiness", 20, 0, 0, False)


def civ(cubes: dict[str, int] | None = None, buildings: list[str] | None = None) -> Civ:
    c = new_civ(RULES, "A")
    if cubes is not None:
        c.cubes = cubes
    c.buildings = buildings or []
    return c


def test_default_losses_follow_the_fixed_order_to_the_warehouse_last() -> None:
    every = {"warehouse": 2, "farm:ore": 1, "industry:salt": 1, "farm:grain": 2, "industry": 1, "bank": 1, "army": 1,
             "warehouse_upgrade": 1, "colosseum": 1, "culture": 1, "city": 1, "harbour": 1, "available": 2}
    cubes, buildings = choices.default_losses(civ(every), EVERYTHING)
    assert cubes == ["available", "available", "harbour", "city", "culture", "army", "colosseum", "bank",
                     "warehouse_upgrade", "farm:grain", "farm:grain", "farm:ore", "industry", "industry:salt",
                     "warehouse", "warehouse"]
    assert buildings == []


def test_default_losses_stop_at_the_calamitys_count_or_the_population() -> None:
    assert choices.default_losses(civ(), RULES.calamity("Invasion")) == (["farm:grain", "farm:ore", "farm:salt"], [])
    assert choices.default_losses(civ({"warehouse": 1, "farm:ore": 1, "city": 0}), RULES.calamity("Plague")) == (
        ["farm:ore", "warehouse"], [])
    assert choices.default_losses(civ(), RULES.calamity("Exodus")) == ([], [])


def test_default_losses_take_the_most_recent_buildings_first() -> None:
    built = civ(buildings=["Forum", "Temple", "Palace"])
    assert choices.default_losses(built, RULES.calamity("Rebellion")) == ([], ["Palace"])
    assert choices.default_losses(built, Calamity("Two", "barbarian", 0, 0, 2, False)) == ([], ["Palace", "Temple"])


@pytest.mark.parametrize(("cubes", "name", "choice"), [
    (None, "Famine", True),                                   # 1 of 7 cubes on several places
    (None, "Exodus", False),                                  # takes nothing
    ({"city": 3}, "Famine", False),                           # one place only: no choice
    ({"city": 2, "farm:ore": 0}, "Famine", False),            # an emptied place is no choice
    ({"city": 1, "farm:ore": 1}, "Famine", True),             # 1 of 2
    ({"city": 1, "farm:ore": 1}, "Sack", False),              # 2 of 2: all go
    ({"city": 1, "farm:ore": 1}, "Plague", False),            # 3 of 2: all go
])
def test_whether_the_cubes_leave_a_choice(cubes: dict[str, int] | None, name: str, choice: bool) -> None:
    assert choices.has_choice(civ(cubes), RULES.calamity(name)) is choice


@pytest.mark.parametrize(("buildings", "choice"), [([], False), (["Forum"], False), (["Forum", "Temple"], True)])
def test_whether_the_buildings_leave_a_choice(buildings: list[str], choice: bool) -> None:
    assert choices.has_choice(civ(buildings=buildings), RULES.calamity("Rebellion")) is choice


def test_the_losses_question_in_full() -> None:
    built = civ({"city": 2, "farm:ore": 1, "harbour": 0}, ["Forum", "Temple"])
    assert choices.losses_asked(Calamity("Quake", "barbarian", 1, 0, 1, False), built) == (
        "Quake strikes A: A names 1 population cube(s) and 1 building(s) to lose, 'lose <places and buildings>' "
        "(its cubes: city 2, farm:ore 1; its buildings: Forum, Temple); at the deadline: 'lose city, Temple'")
    assert choices.losses_asked(RULES.calamity("Famine"), civ({"city": 2, "farm:ore": 1})) == (
        "Famine strikes A: A names 1 population cube(s) to lose, 'lose <places and buildings>' "
        "(its cubes: city 2, farm:ore 1); at the deadline: 'lose city'")
    assert choices.losses_asked(RULES.calamity("Rebellion"), civ({"city": 1}, ["Forum", "Temple"])) == (
        "Rebellion strikes A: A names 1 building(s) to lose, 'lose <places and buildings>' "
        "(its cubes: city 1; its buildings: Forum, Temple); at the deadline: 'lose Temple'")


@pytest.mark.parametrize(("text", "cubes", "buildings"), [
    ("city, grain farm, Forum", ["city", "farm:grain"], ["Forum"]),
    ("farm grain", ["farm:grain"], []),
    ("ORE  Farm", ["farm:ore"], []),
    ("salt industry", ["industry:salt"], []),
    ("industry wool", ["industry:wool"], []),
    ("industry:timber", ["industry:timber"], []),
    ("farm:spice", ["farm:spice"], []),
    ("Warehouse Upgrade, warehouse, industry", ["warehouse_upgrade", "warehouse", "industry"], []),
    (" , available,, forum ", ["available"], ["Forum"]),
])
def test_every_way_of_naming_a_place(text: str, cubes: list[str], buildings: list[str]) -> None:
    assert choices.read_losses(RULES, civ(buildings=["Forum"]), text) == (cubes, buildings)


def test_a_place_of_the_civs_own_cubes_is_read_as_it_is() -> None:
    assert choices.read_losses(RULES, civ({"annex": 1}), "annex") == (["annex"], [])


@pytest.mark.parametrize(("text", "quoted"), [("farm spice", "farm spice"), ("grain", "grain"),
                                              ("grain wool", "grain wool"), ("Statue ", "Statue")])
def test_an_unknown_item_is_refused_quoting_it_and_listing_what_is_held(text: str, quoted: str) -> None:
    with pytest.raises(Rejection) as refused:
        choices.read_losses(RULES, civ({"city": 1, "farm:ore": 2, "harbour": 0}, ["Forum"]), text)
    assert str(refused.value) == (f"'{quoted}' is neither a place of A's cubes (city, farm:ore) nor one of its "
                                  "buildings (Forum)")
    with pytest.raises(Rejection) as refused:
        choices.read_losses(RULES, civ({"city": 1}), text)
    assert str(refused.value) == f"'{quoted}' is neither a place of A's cubes (city) nor one of its buildings (none)"


@pytest.mark.parametrize("text", ["", " , ,"])
def test_naming_nothing_is_refused(text: str) -> None:
    with pytest.raises(Rejection) as refused:
        choices.read_losses(RULES, civ(), text)
    assert str(refused.value) == "name the cubes and buildings to lose, e.g. 'lose city, grain farm'"


def test_losses_line() -> None:
    assert choices.losses_line(["city", "farm:ore"], ["Forum"]) == "lose city, farm:ore, Forum"


@pytest.mark.parametrize(("bank", "cards", "asked"), [
    (1, ["grain prosperity", "ore poverty"], True),
    (1, ["grain prosperity", "salt prosperity"], False),
    (1, ["ore poverty"], False),
    (0, ["grain prosperity", "ore poverty"], False),
    (None, ["grain prosperity", "ore poverty"], False),
])
def test_the_bank_is_asked_only_with_both_bottoms_spent(bank: int | None, cards: list[str], asked: bool) -> None:
    owner = civ()
    if bank is not None:
        owner.cubes["bank"] = bank
    assert choices.bank_question(RULES, owner, cards) is asked


@pytest.mark.parametrize(("cards", "use"), [(["grain prosperity", "ore poverty"], "prosperity"),
                                            (["ore poverty"], "poverty"), ([], "poverty"),
                                            (["ore depression", "grain prosperity"], "prosperity")])
def test_version_ones_bank_use(cards: list[str], use: str) -> None:
    assert choices.default_bank(RULES, cards) == use
    assert choices.BANK_USES == {"prosperity": "triple prosperity", "poverty": "ignore poverty"}


def test_the_warehouse_and_the_plain_industry_are_places_even_when_emptied() -> None:
    assert choices.read_losses(RULES, civ({"city": 1}), "warehouse, industry, warehouse upgrade") == (
        ["warehouse", "industry", "warehouse_upgrade"], [])


def test_a_colon_with_a_space_after_it_still_names_the_farm() -> None:
    assert choices.read_losses(RULES, civ(), "farm: grain, Salt:Industry") == (["farm:grain", "industry:salt"], [])


def test_an_unknown_item_lists_every_building() -> None:
    with pytest.raises(Rejection) as refused:
        choices.read_losses(RULES, civ({"city": 1}, ["Forum", "Temple"]), "statue")
    assert str(refused.value) == ("'statue' is neither a place of A's cubes (city) nor one of its buildings "
                                  "(Forum, Temple)")
