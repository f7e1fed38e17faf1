"""The four victories, checked as soon as one is met."""
from __future__ import annotations

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.mare_nostrum_empires import victory


def test_nobody_has_won_at_the_start() -> None:
    assert victory.winners(rules(), board(5)) == []


def test_the_pyramids_win() -> None:
    b = board()
    b.screens["Greeks"].pyramids = True
    assert victory.winners(rules(), b) == [("Greeks", "have built the Pyramids")]


def test_a_fifth_hero_or_wonder_wins_the_national_hero_counting() -> None:
    b = board()
    b.screens["Romans"].tiles += ["Alexander", "Ulysses", "Mausoleum"]
    assert victory.winners(rules(), b) == []
    b.screens["Romans"].tiles.append("Great Library")
    assert victory.winners(rules(), b) == [("Romans", "hold 5 Heroes and Wonders")]


def test_four_capitals_and_legendary_cities_together_win() -> None:
    b = board()
    b.provinces["Attica"].occupied["capital"] = "Romans"
    b.provinces["Sicilia"].influence = "Romans"
    b.provinces["Sicilia"].built.add("legendary")
    assert victory.cities_held(b, "Romans") == ["Attica", "Latium", "Sicilia"]
    assert victory.winners(rules(), b) == []
    b.provinces["Troas"].influence = "Romans"
    b.provinces["Troas"].built.add("legendary")
    assert victory.winners(rules(), b) == [
        ("Romans", "control 4 capitals and legendary cities (Attica, Latium, Sicilia, Troas)")]


def test_a_legendary_city_not_yet_built_does_not_count() -> None:
    b = board()
    b.provinces["Troas"].influence = "Romans"
    assert victory.cities_held(b, "Romans") == ["Latium"]


def test_the_three_titles_at_once_win() -> None:
    b = board()
    b.leaders = {"commerce": "Romans", "politics": "Romans", "military": "Greeks"}
    assert victory.winners(rules(), b) == []
    b.leaders["military"] = "Romans"
    assert victory.winners(rules(), b) == [("Romans", "hold the three titles")]
