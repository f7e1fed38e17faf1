"""Claims and victory at their edges: what a conqueror's occupation moves between empires' counts, fleets summed
over every sea, a tie Homer wins with nobody to name, a lone leader whatever is named, and the order and
exclusivity of the four victories."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import titles, victory
from engine.mare_nostrum_empires.rules_version import ABILITIES


def test_an_occupied_building_counts_for_its_conqueror_not_the_influence_holder() -> None:
    b = board()
    b.provinces["Attica"].occupied["capital"] = "Romans"
    b.provinces["Attica"].fortress = "Romans"
    b.provinces["Attica"].legions = {"Romans": 2, "Greeks": 1}
    romans, greeks = titles.counts(b, "Romans"), titles.counts(b, "Greeks")
    assert (romans["capital"], romans["fortress"], romans["legion"], romans["influence"]) == (2, 2, 5, 3)
    assert (greeks["capital"], greeks["fortress"], greeks["legion"], greeks["influence"]) == (0, 0, 2, 3)
    assert (greeks["temple"], greeks["caravan"]) == (1, 3)


def test_triremes_are_summed_over_every_sea_and_zero_fleets_add_nothing() -> None:
    b = board()
    b.triremes["Mare Ionium"]["Greeks"] = 3
    b.triremes["Mare Libycum"]["Romans"] = 0
    assert (titles.counts(b, "Greeks")["trireme"], titles.counts(b, "Romans")["trireme"]) == (5, 1)


def test_levels_of_each_title_at_the_start() -> None:
    assert titles.levels(rules(), board()) == {
        "commerce": {"Romans": 5, "Greeks": 5, "Carthaginians": 5},
        "politics": {"Romans": 7, "Greeks": 7, "Carthaginians": 7},
        "military": {"Romans": 5, "Greeks": 5, "Carthaginians": 5}}


@pytest.mark.parametrize(("level", "top", "shown"), [(0, 15, "0"), (10, 10, "10"), (11, 10, "10+ at 1"),
                                                     (30, 15, "15+ at 15")])
def test_the_marker(level: int, top: int, shown: str) -> None:
    assert titles.marker(level, top) == shown


def test_tied_lists_every_empire_at_the_best_level_in_order() -> None:
    assert titles.tied({"A": 3, "B": 4, "C": 4, "D": 1}) == ["B", "C"]
    assert titles.tied({"A": 0}) == ["A"]


def test_a_lone_leader_takes_the_title_whatever_is_named() -> None:
    b = board()
    b.provinces["Attica"].legions["Greeks"] = 9
    b.provinces["Latium"].built.add("market")  # Romans: commerce 6
    b.provinces["Etruria"].built.add("temple")  # Romans: politics 8
    assert titles.needs_choice(rules(), b) == {}
    assert titles.claim(rules(), b, {"military": "Romans", "politics": "Greeks"}) == {
        "commerce": "Romans", "politics": "Romans", "military": "Greeks"}


def test_homer_wins_a_tie_at_claims_and_no_one_is_asked() -> None:
    b = board()
    b.rules_version = ABILITIES
    b.screens["Romans"].tiles.append("Homer")
    assert titles.needs_choice(rules(), b) == {}
    assert titles.claim(rules(), b) == {"commerce": "Romans", "politics": "Romans", "military": "Romans"}


def test_homer_outside_the_tie_leaves_it_to_be_named() -> None:
    b = board()
    b.rules_version = ABILITIES
    b.screens["Romans"].tiles.append("Homer")
    b.provinces["Attica"].built.add("market")  # Greeks: commerce 6, alone
    b.provinces["Attica"].built.add("city")  # Greeks: politics 8, alone
    b.provinces["Africa"].legions["Carthaginians"] += 1  # Carthaginians: military 6
    b.provinces["Attica"].legions["Greeks"] += 1  # Greeks: military 6, tied; Romans (Homer) stay at 5
    assert titles.needs_choice(rules(), b) == {"military": ["Greeks", "Carthaginians"]}
    with pytest.raises(Rejection) as refused:
        titles.claim(rules(), b)
    assert str(refused.value) == ("Greeks, Carthaginians tie for Military leader at level 6: Romans, the previous "
                                  "Military leader, names the new one among them")
    assert titles.claim(rules(), b, {"military": "Carthaginians"}) == {
        "commerce": "Greeks", "politics": "Greeks", "military": "Carthaginians"}


def test_the_pyramids_come_first_and_an_empire_wins_once() -> None:
    b = board()
    b.screens["Greeks"].pyramids = True
    b.screens["Greeks"].tiles += ["Alexander", "Ulysses", "Mausoleum", "Homer"]
    b.leaders = dict.fromkeys(b.leaders, "Greeks")
    assert victory.winners(rules(), b) == [("Greeks", "have built the Pyramids")]


def test_several_winners_in_seating_order_each_with_its_reason() -> None:
    b = board()
    b.screens["Carthaginians"].pyramids = True
    b.screens["Romans"].tiles += ["Alexander", "Ulysses", "Mausoleum", "Homer", "Oracle of Delphi"]
    b.leaders = dict.fromkeys(b.leaders, "Greeks")
    assert victory.winners(rules(), b) == [("Romans", "hold 6 Heroes and Wonders"),
                                           ("Greeks", "hold the three titles"),
                                           ("Carthaginians", "have built the Pyramids")]


def test_four_capitals_alone_win_on_a_five_empire_board() -> None:
    b = board(5)
    for capital in ("Attica", "Africa", "Aegyptus"):
        b.provinces[capital].occupied["capital"] = "Romans"
    assert victory.cities_held(b, "Greeks") == []
    assert victory.winners(rules(), b) == [
        ("Romans", "control 4 capitals and legendary cities (Aegyptus, Africa, Attica, Latium)")]


def test_a_title_left_unheld_is_not_held_by_anyone() -> None:
    b = board()
    b.leaders = {"commerce": "Romans", "politics": "Romans"}
    assert victory.winners(rules(), b) == []
