"""Conquest: pillage one building (the seed's table), occupy buildings, convert an influence marker."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import conquest, production
from engine.mare_nostrum_empires.state import Board


def conquered(province: str = "Etruria", by: str = "Greeks") -> Board:
    b = board()
    b.provinces[province].legions = {by: 2}
    b.provinces[province].conqueror = by
    return b


def test_the_pillage_table() -> None:
    assert conquest.pillage(rules(), conquered(), "Greeks", "Etruria", "caravan") == "marble"
    assert conquest.pillage(rules(), conquered(), "Greeks", "Etruria", "market") is None
    assert conquest.pillage(rules(), conquered(), "Greeks", "Etruria", "city") == "tax"
    assert conquest.pillage(rules(), conquered("Latium"), "Greeks", "Latium", "capital") == "tax"
    b = conquered("Sicilia")
    b.provinces["Sicilia"].built = {"legendary"}
    with pytest.raises(Rejection, match="gives a legendary good or a tax: say which"):
        conquest.pillage(rules(), b, "Greeks", "Sicilia", "legendary")
    assert conquest.pillage(rules(), b, "Greeks", "Sicilia", "legendary", "legendary") == "legendary"
    assert b.provinces["Sicilia"].built == set()


def test_only_one_building_is_pillaged_and_only_by_the_conqueror() -> None:
    b = conquered()
    conquest.pillage(rules(), b, "Greeks", "Etruria", "city")
    assert b.provinces["Etruria"].built == {"caravan", "market"}
    with pytest.raises(Rejection, match="the Greeks have not conquered Etruria"):
        conquest.pillage(rules(), b, "Greeks", "Etruria", "caravan")
    with pytest.raises(Rejection, match="Etruria has no temple to pillage"):
        conquest.pillage(rules(), conquered(), "Greeks", "Etruria", "temple")


def test_occupied_buildings_yield_to_the_conqueror_until_it_leaves() -> None:
    b = conquered()
    with pytest.raises(Rejection, match="one unit on each building: 3 buildings named, 2 units in Etruria"):
        conquest.occupy(b, "Greeks", "Etruria", ["caravan", "market", "city"], 2)
    conquest.occupy(b, "Greeks", "Etruria", ["caravan", "market"], 2)
    assert production.collect(rules(), b, "Greeks").goods["marble"] == 3  # Attica's 1 and Etruria's doubled 2
    assert production.collect(rules(), b, "Romans").taxes == 4  # the city still pays the Romans


def test_an_influence_marker_is_converted_under_the_three_conditions() -> None:
    b = conquered("Campania")
    conquest.stand_on_marker(b, "Greeks", "Campania")
    with pytest.raises(Rejection, match="Campania is not adjacent to the Greeks' empire: the marker stays"):
        conquest.convert(rules(), b, "Greeks", "Campania")
    b.provinces["Magna Graecia"].influence = "Greeks"
    conquest.convert(rules(), b, "Greeks", "Campania")
    assert b.provinces["Campania"].influence == "Greeks"


def test_an_enemy_unit_landing_ends_the_conquest_and_the_province_is_at_war() -> None:
    b = conquered("Campania")
    conquest.stand_on_marker(b, "Greeks", "Campania")
    conquest.enemy_lands(b, "Romans", "Campania")
    prov = b.provinces["Campania"]
    assert (prov.conqueror, prov.converting, prov.at_war) == (None, None, True)
    with pytest.raises(Rejection, match="no Greeks unit stands on the influence marker of Campania"):
        conquest.convert(rules(), b, "Greeks", "Campania")
