"""The title tracks and Claims: the seed's example (a legion bought raises the military level by one), leaders,
ties settled by the previous leader, and the "15+" marker."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import titles


def test_the_seeds_example_a_legion_bought_raises_the_military_level_by_one() -> None:
    b = board()
    before = titles.levels(rules(), b)["military"]["Romans"]
    b.provinces["Latium"].legions["Romans"] += 1
    after = titles.levels(rules(), b)
    assert (before, after["military"]["Romans"]) == (5, 6)
    assert after["commerce"]["Romans"] == 5 and after["politics"]["Romans"] == 7


def test_each_track_counts_what_the_data_says() -> None:
    b = board()
    assert titles.counts(b, "Romans") == {"caravan": 3, "market": 2, "temple": 1, "city": 2, "capital": 1,
                                          "legendary": 0, "legion": 3, "trireme": 1, "fortress": 1, "influence": 3}


def test_the_highest_level_takes_the_title() -> None:
    b = board()
    b.provinces["Peloponnesus"].legions["Greeks"] = 3
    b.provinces["Sicilia"].influence = "Carthaginians"
    b.provinces["Sicilia"].built = {"caravan"}  # Carthaginians: commerce 6, politics 8
    b.provinces["Etruria"].built.add("temple")  # Romans: politics 8
    with pytest.raises(Rejection, match="Romans, Carthaginians tie for Political leader at level 8: Greeks, the "
                                        "previous Political leader, names the new one among them"):
        titles.claim(rules(), b)
    assert titles.needs_choice(rules(), b) == {"politics": ["Romans", "Carthaginians"]}
    leaders = titles.claim(rules(), b, {"politics": "Romans"})
    assert leaders == {"commerce": "Carthaginians", "politics": "Romans", "military": "Greeks"}


def test_a_tie_is_settled_only_among_the_tied() -> None:
    b = board()
    with pytest.raises(Rejection, match="Carthaginians names 'Egyptians' Trade master, who is not among the tied "
                                        r"\(Romans, Greeks, Carthaginians\)"):
        titles.claim(rules(), b, {"commerce": "Egyptians", "politics": "Greeks", "military": "Romans"})
    assert titles.claim(rules(), b, {"commerce": "Carthaginians", "politics": "Greeks", "military": "Greeks"}) == \
        {"commerce": "Carthaginians", "politics": "Greeks", "military": "Greeks"}


def test_past_fifteen_the_marker_turns_over_and_the_level_still_counts() -> None:
    assert [titles.marker(n, 15) for n in (14, 15, 16, 18)] == ["14", "15", "15+ at 1", "15+ at 3"]
    b = board()
    b.provinces["Latium"].legions["Romans"] = 14  # 17 with the trireme and fortress
    b.provinces["Attica"].legions["Greeks"] = 12  # 16
    assert titles.levels(rules(), b)["military"]["Romans"] == 17
    assert titles.claim(rules(), b, {"commerce": "Carthaginians", "politics": "Greeks"})["military"] == "Romans"
