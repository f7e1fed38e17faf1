"""Phase 1, Production, rule by rule from the seed."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import production


def test_round_one_skips_production() -> None:
    assert [production.due(n) for n in (1, 2, 3)] == [False, True, True]


def test_a_caravan_gives_its_good_and_a_market_doubles_it() -> None:
    b = board()
    made = production.collect(rules(), b, "Romans")
    assert made.goods == {"gladiators": 1, "marble": 2, "wine": 2}
    b.provinces["Latium"].built.add("market")
    assert production.collect(rules(), b, "Romans").goods["gladiators"] == 2


def test_a_city_gives_a_tax_and_a_temple_doubles_it() -> None:
    b = board()
    assert production.collect(rules(), b, "Romans").taxes == 4  # capital doubled, two cities
    b.provinces["Etruria"].built.add("temple")
    assert production.collect(rules(), b, "Romans").taxes == 5


def test_a_building_occupied_by_a_conqueror_yields_to_the_conqueror() -> None:
    b = board()
    b.provinces["Etruria"].occupied["caravan"] = "Greeks"
    assert production.collect(rules(), b, "Romans").goods == {"gladiators": 1, "wine": 2}
    # Attica's caravan gives the Greeks 1 marble; Etruria's adds 1, not doubled: its market is still Roman.
    assert production.collect(rules(), b, "Greeks").goods["marble"] == 2
    b.provinces["Etruria"].occupied["market"] = "Greeks"
    assert production.collect(rules(), b, "Greeks").goods["marble"] == 3


def test_a_legendary_city_gives_a_tax_and_a_legendary_good() -> None:
    b = board()
    b.provinces["Sicilia"].influence = "Carthaginians"
    b.provinces["Sicilia"].built = {"legendary"}
    made = production.collect(rules(), b, "Carthaginians")
    assert (made.taxes, made.legendary) == (5, 1)


def test_a_legendary_city_with_a_temple_gives_one_more_of_the_controllers_choice() -> None:
    b = board()
    b.provinces["Sicilia"].influence = "Carthaginians"
    b.provinces["Sicilia"].built = {"legendary", "temple"}
    assert production.legendary_choices(rules(), b, "Carthaginians") == ["Sicilia"]
    with pytest.raises(Rejection, match=r"must choose what the temple of Syracuse \(Sicilia\) adds: 'tax' or "
                                        r"'legendary'"):
        production.collect(rules(), b, "Carthaginians")
    with pytest.raises(Rejection, match="'gold' is neither 'tax' nor 'legendary'"):
        production.collect(rules(), b, "Carthaginians", {"Sicilia": "gold"})
    tax = production.collect(rules(), b, "Carthaginians", {"Sicilia": "tax"})
    card = production.collect(rules(), b, "Carthaginians", {"Sicilia": "legendary"})
    assert (tax.taxes, tax.legendary) == (6, 1)
    assert (card.taxes, card.legendary) == (5, 2)
