"""Phase 3, Placement: influence (the three conditions), legions, triremes, fortresses, buildings, war."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import placement


def test_influence_goes_in_a_neutral_adjacent_province_free_of_enemy_armies() -> None:
    b = board()
    placement.check_influence(rules(), b, "Romans", "Gallia Cisalpina")
    with pytest.raises(Rejection, match="Sicilia is not adjacent to any of your provinces"):
        placement.check_influence(rules(), b, "Romans", "Sicilia")
    with pytest.raises(Rejection, match="Etruria already holds the Romans' influence marker"):
        placement.check_influence(rules(), b, "Greeks", "Etruria")
    b.provinces["Gallia Cisalpina"].legions["Greeks"] = 1
    with pytest.raises(Rejection, match="Gallia Cisalpina holds legions of the Greeks: an influence marker goes where no "
                                        "enemy army is"):
        placement.check_influence(rules(), b, "Romans", "Gallia Cisalpina")
    with pytest.raises(Rejection, match="'Atlantis' is not a province on the board"):
        placement.check_influence(rules(), b, "Romans", "Atlantis")


def test_a_hidden_empires_province_is_off_the_board() -> None:
    with pytest.raises(Rejection, match="'Aegyptus' is not a province on the board"):
        placement.check_unit(rules(), board(3), "Romans", "legion", "Aegyptus")


def test_legions_go_under_your_influence_and_not_where_there_is_war_except_a_capital() -> None:
    b = board()
    placement.check_unit(rules(), b, "Romans", "legion", "Campania")
    with pytest.raises(Rejection, match="a legion goes in a province under your influence: Attica is under the "
                                        "Greeks' influence"):
        placement.check_unit(rules(), b, "Romans", "legion", "Attica")
    b.provinces["Campania"].at_war = True
    with pytest.raises(Rejection, match="Campania is at war"):
        placement.check_unit(rules(), b, "Romans", "legion", "Campania")
    b.provinces["Latium"].at_war = True
    placement.check_unit(rules(), b, "Romans", "legion", "Latium")


def test_triremes_go_in_a_sea_touching_your_influence_even_beside_enemy_triremes() -> None:
    b = board()
    b.triremes["Mare Tyrrhenum"]["Carthaginians"] = 1
    placement.check_unit(rules(), b, "Romans", "trireme", "Mare Tyrrhenum")
    with pytest.raises(Rejection, match="Mare Aegaeum touches none of your provinces"):
        placement.check_unit(rules(), b, "Romans", "trireme", "Mare Aegaeum")
    with pytest.raises(Rejection, match="'Latium' is not one"):
        placement.check_unit(rules(), b, "Romans", "trireme", "Latium")


def test_one_fortress_per_province() -> None:
    b = board()
    placement.check_unit(rules(), b, "Romans", "fortress", "Etruria")
    with pytest.raises(Rejection, match="Latium already has a fortress: one per province"):
        placement.check_unit(rules(), b, "Romans", "fortress", "Latium")


def test_buildings_only_where_the_province_shows_them_and_once() -> None:
    b = board()
    placement.check_building(rules(), b, "Romans", "temple", "Campania")
    placement.check_building(rules(), b, "Romans", "market", "Latium")
    with pytest.raises(Rejection, match="Latium shows no city site: it shows capital, temple, caravan, market"):
        placement.check_building(rules(), b, "Romans", "city", "Latium")
    with pytest.raises(Rejection, match="Latium already has its temple"):
        placement.check_building(rules(), b, "Romans", "temple", "Latium")


def test_an_empire_cannot_place_more_pieces_than_it_has() -> None:
    placement.check_limit(rules(), board(), "Romans", "legion", 11)
    with pytest.raises(Rejection, match="Romans has all its 12 legion pieces on the board"):
        placement.check_limit(rules(), board(), "Romans", "legion", 12)
