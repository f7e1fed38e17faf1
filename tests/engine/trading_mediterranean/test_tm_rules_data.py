"""The data file: the seed's component counts and figures, and refusals that name what is wrong."""
from __future__ import annotations

import copy
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from engine.trading_mediterranean.rules_data import RulesError, default_rules, parse

RULES = default_rules()
RAW = tomllib.loads((Path(__file__).resolve().parents[3] / "data/rulesets/trading-mediterranean.toml").read_text())


def test_the_components_match_the_seeds_list() -> None:
    specs = {s.name: s for s in RULES.deck_specs()}
    assert sorted(specs) == ["civic", "grain", "luxury", "ore", "salt", "timber", "wool"]
    assert [len(specs[g].cards()) for g in ("salt", "timber", "wool", "grain", "ore")] == [18] * 5
    assert len(specs["civic"].cards()) == 48
    assert Counter(specs["civic"].face(c) for c in specs["civic"].cards()) == {"wine": 12, "dye": 12, "slaves": 12, "art": 12}
    assert len(specs["luxury"].cards()) == 25 and specs["luxury"].cards().count("piracy") == 1
    assert specs["luxury"].faces_shown() == ["luxury"]  # Piracy passes for spice or gold
    assert all(s.hidden for s in specs.values())
    assert len(RULES.developments) == 36
    assert Counter(d.age for d in RULES.developments) == {"stone": 18, "bronze": 12, "iron": 6}
    assert Counter(c.kind for c in RULES.calamities) == {"unhappiness": 5, "barbarian": 5}
    assert len(RULES.buildings) == 24 and len({b.tile for b in RULES.buildings}) == 12


def test_basic_goods_carry_four_unhappy_bottoms_and_civic_goods_favour_their_idea() -> None:
    basic = RULES.cards["basic"]
    assert basic["poverty"] + basic["depression"] == 4
    for good, idea in (("art", "democracy"), ("slaves", "dictatorship"), ("dye", "venus"), ("wine", "mars")):
        cards = RULES.cards[good]
        assert max(cards, key=lambda b: cards[b]) == idea
        assert {"barbarians", "barbarian fury"} <= set(cards)


def test_the_seeds_figures_for_buildings() -> None:
    palace = RULES.building("Palace")
    assert (palace.side, palace.cost, palace.population, palace.arrow) == ("dictatorship", 6, 2, 1)
    assert [b.cost for b in RULES.buildings if b.give] == [3, 3, 3, 3]
    assert [b.cost for b in RULES.buildings if b.doubles] == [4, 4, 4, 4]


def test_the_cards_that_may_not_be_warehoused() -> None:
    assert sorted(n for n, b in RULES.bottoms.items() if b.no_warehouse) == [
        "barbarian fury", "corruption", "depression", "slave revolt", "zealots"]


def test_an_income_table_that_breaks_a_seed_figure_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    raw["income"]["civic"][5] = 26
    with pytest.raises(RulesError, match=r"the civic incomes give \$28 for 7, but the seed says wine 7 -> \$29"):
        parse(raw)


def test_a_deck_of_the_wrong_size_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    raw["cards"]["basic"]["prosperity"] = 3
    with pytest.raises(RulesError, match="the basic decks hold 95 cards; the seed's component list says 90"):
        parse(raw)


def test_a_development_with_an_unknown_place_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    raw["developments"][0]["place"] = "moon"
    with pytest.raises(RulesError, match="development 'Settlement' place is 'moon'; it must be one of city"):
        parse(raw)


def test_a_turn_five_price_outside_the_bronze_age_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    raw["developments"][0]["cost_turn5"] = 2
    with pytest.raises(RulesError, match="only bronze age developments have a turn-5 price"):
        parse(raw)


def test_a_missing_building_side_is_refused() -> None:
    raw = copy.deepcopy(RAW)
    del raw["buildings"][0]["dictatorship"]
    with pytest.raises(RulesError, match=r"building tile 1 \(dictatorship\) is missing"):
        parse(raw)


def test_bronze_prices_vary_by_turn() -> None:
    city = RULES.development("City")
    assert (city.price(4), city.price(5)) == (8, 7)
    assert RULES.development("Town").price(5) == 5


def test_an_unknown_building_development_or_calamity_is_refused_with_the_list_of_known_ones() -> None:
    with pytest.raises(RulesError) as building:
        RULES.building("city")
    assert str(building.value) == "there is no building 'city': the buildings are " + ", ".join(
        b.name for b in RULES.buildings)
    assert "Forum" in str(building.value) and RULES.building(" forum ").name == "Forum"
    with pytest.raises(RulesError) as development:
        RULES.development("99 grain")
    assert str(development.value).startswith("there is no development '99 grain': the developments are Settlement, ")
    assert str(development.value).endswith(", Lighthouse")
    with pytest.raises(RulesError) as calamity:
        RULES.calamity("Flood")
    assert str(calamity.value) == ("there is no calamity 'Flood': the calamities are Riots, Famine, Plague, Rebellion, "
                                   "Exodus, Raid, Sack, Invasion, Burning, Pillage")
