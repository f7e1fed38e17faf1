"""The game's data: the board, the screens, the tokens, the tiles, and the refusals of a spoiled file."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import raw, rebuild, rules

from engine.mare_nostrum_empires.rules_data import RulesError


def test_the_board_has_every_province_with_its_good_and_sites_and_the_three_legendary_cities() -> None:
    r = rules()
    assert len(r.provinces) == 38 and len(r.map.seas) == 14
    assert len(r.resources) == 13
    assert r.legendary_cities() == {"Syracuse": "Sicilia", "Jerusalem": "Judaea", "Troy": "Troas"}
    assert r.capitals() == {"Rome": "Latium", "Athens": "Attica", "Carthage": "Africa", "Memphis": "Aegyptus",
                            "Babylon": "Babylonia"}
    assert r.provinces["Troas"].sites == ("legendary", "temple", "caravan", "market")
    assert r.provinces["Troas"].city_site == "legendary"
    assert {p.good for p in r.provinces.values()} == set(r.resources)


def test_each_empire_starts_with_three_provinces_nine_tokens_and_its_national_hero() -> None:
    r = rules()
    for empire in r.empires.values():
        assert len(empire.provinces) == 3
        assert sum(empire.goods.values()) + empire.taxes == 9
        assert r.tiles[empire.hero].empire == empire.name
    assert [r.empires[e].hero for e in r.empires] == ["Caesar", "Pericles", "Hannibal", "Cleopatra", "Hammurabi"]


def test_the_hidden_empires_by_player_count() -> None:
    r = rules()
    assert r.in_play(5) == ("Romans", "Greeks", "Carthaginians", "Egyptians", "Babylonians")
    assert r.in_play(4) == ("Romans", "Greeks", "Carthaginians", "Egyptians")
    assert r.in_play(3) == ("Romans", "Greeks", "Carthaginians")
    assert "Babylonia" not in r.provinces_in_play(4) and "Aegyptus" in r.provinces_in_play(4)
    assert len(r.provinces_in_play(3)) == 32
    with pytest.raises(RulesError, match="3 to 5 players, not 6"):
        r.in_play(6)


def test_prices_and_the_price_of_a_hero_by_round() -> None:
    r = rules()
    assert (r.prices["legion"], r.prices["temple"], r.prices["pyramids"]) == (3, 6, 12)
    assert [r.tile_price(n) for n in (1, 2, 3, 4, 5, 6, 7, 12)] == [4, 4, 5, 5, 6, 6, 7, 7]
    assert r.commerce == {"I": (1, 2), "II": (2, 3), "III": (3, 4)}


def test_a_building_the_province_does_not_show_is_refused() -> None:
    data = raw()
    data["empire"]["Romans"]["provinces"]["Latium"] = ["capital", "city"]
    with pytest.raises(RulesError, match="Latium does not show a city site"):
        rebuild(data)


def test_two_city_sites_in_one_province_are_refused() -> None:
    data = raw()
    data["province"]["Sardinia"]["sites"] = ["caravan", "city", "capital"]
    with pytest.raises(RulesError, match="'Sardinia' shows more than one of city, capital, legendary"):
        rebuild(data)


def test_an_unknown_good_and_a_missing_province_are_refused() -> None:
    data = raw()
    data["province"]["Sardinia"]["good"] = "silver"
    with pytest.raises(RulesError, match="its good 'silver' is not one of the resources"):
        rebuild(data)
    data = raw()
    del data["province"]["Cyprus"]
    with pytest.raises(RulesError, match="'Cyprus' has no"):
        rebuild(data)


def test_a_trireme_set_up_in_a_sea_away_from_the_empire_is_refused() -> None:
    data = raw()
    data["empire"]["Romans"]["units"]["triremes"] = {"Pontus Euxinus": 1}
    with pytest.raises(RulesError, match="'Pontus Euxinus', which is not a sea touching its provinces"):
        rebuild(data)


def test_heroes_prices_must_start_at_round_one() -> None:
    data = raw()
    data["prices"]["heroes_wonders"] = [{"from": 2, "price": 4}]
    with pytest.raises(RulesError, match="must start at round 1"):
        rebuild(data)
