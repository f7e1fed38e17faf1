"""The map's legend says which colour is which player's, who plays it, what it holds and who is to act (issue 24:
both rows read "Independent" in grey, with no player and no turn)."""
from __future__ import annotations

from tests.engine.mediterranean_empires.me_play import game


def test_the_legend_names_each_sides_colour_player_and_areas_and_who_acts() -> None:
    ruleset = game()
    state = ruleset.initial_state({"players": {"Player A": "ann", "Player B": "bob"}})
    picture = ruleset.picture(state)
    france, aragon, others = picture.standings
    assert (france.power, france.player, aragon.power, aragon.player, others.power) == (
        "France", "ann", "Aragon", "bob", None)
    held = {p: sum(1 for s in picture.spaces if s.fill == p) for p in ("France", "Aragon")}
    assert france.text == f"Player A (ann) · France, Anjou and allies · {held['France']} areas" and held["France"] > 1
    assert aragon.text == f"Player B (bob) · Aragon and allies · {held['Aragon']} areas" and held["Aragon"] > 1
    assert picture.legend[:2] == (("France", france.text), ("Aragon", aragon.text))
    assert {"France", "Aragon"} <= set(picture.powers)  # painted in the powers' own colours, not a grey "Independent"
    assert picture.info == (("phase", "Stratagems phase: Player A (ann) to act"),)


def test_an_area_s_count_is_singular_for_one_unit_or_fleet() -> None:
    ruleset = game()
    picture = ruleset.picture(ruleset.initial_state({"players": {"Player A": "ann", "Player B": "bob"}}))
    marks = {s.name: s.marks for s in picture.spaces}
    assert marks["Istria"] == ("1 unit",) and marks["Venice"] == ("2 units",)
    assert marks["Sea of Sardinia"] == ("1 fleet",) and marks["Upper Adriatic"] == ("4 fleets",)
    assert marks["Alboran Sea"] == ()  # no fleet: no count
