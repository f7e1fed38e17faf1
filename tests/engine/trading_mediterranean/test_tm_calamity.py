"""Calamities: the victim by the tracks, the tie as the peasantry's vote with the seed's -5 VP default, losses."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.tabletop import votes
from engine.trading_mediterranean import calamity
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ

RULES = default_rules()
SACK = next(c for c in RULES.calamities if c.name == "Sack")
RAID = next(c for c in RULES.calamities if c.name == "Raid")


def civs(happiness: dict[str, int]) -> list[Civ]:
    out = []
    for seat, h in happiness.items():
        c = new_civ(RULES, seat)
        c.happiness = c.safety = h
        out.append(c)
    return out


def test_the_lowest_player_is_the_victim() -> None:
    assert calamity.find_victim(civs({"A": 0, "B": -2, "C": -1}), "unhappiness") == calamity.Victim("B")
    assert calamity.find_victim(civs({"A": 0, "B": -2, "C": -1}), "barbarian") == calamity.Victim("B")


def test_nobody_below_the_start_space_means_no_victim() -> None:
    assert calamity.find_victim(civs({"A": 0, "B": 1, "C": 0}), "unhappiness") == calamity.Victim(None)


def test_a_tie_settled_by_the_peasantrys_majority() -> None:
    table = civs({"A": -2, "B": -2, "C": 0, "D": 1, "E": 0})
    victim = calamity.find_victim(table, "unhappiness")
    assert victim == calamity.Victim(None, ("A", "B"))
    vote = calamity.ask_peasantry(table, victim, "Riots")
    assert vote is not None and vote.voters == ("C", "D", "E") and vote.default == calamity.UNDECIDED
    assert votes.cast(vote, "C", "B") is None
    assert votes.cast(vote, "D", "b") == "B"
    assert calamity.settle(RULES, table, vote) == ("B", [])
    assert [c.vp for c in table] == [5] * 5


def test_an_indecisive_peasantry_loses_five_each_and_the_calamity_does_not_resolve() -> None:
    table = civs({"A": -2, "B": -2, "C": 0, "D": 1})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "barbarian"), "Sack")
    assert vote is not None
    votes.cast(vote, "C", "A")
    assert votes.cast(vote, "D", "B") == calamity.UNDECIDED
    assert calamity.settle(RULES, table, vote) == (None, ["C", "D"])
    assert [c.vp for c in table] == [5, 5, 0, 0]


def test_the_deadline_gives_the_default() -> None:
    table = civs({"A": -2, "B": -2, "C": 0})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "unhappiness"), "Plague")
    assert vote is not None
    assert votes.close(vote) == calamity.UNDECIDED
    assert calamity.settle(RULES, table, vote) == (None, ["C"])
    assert table[2].vp == 0


def test_everyone_tied_nobody_can_vote() -> None:
    table = civs({"A": -1, "B": -1})
    victim = calamity.find_victim(table, "unhappiness")
    assert calamity.ask_peasantry(table, victim, "Riots") is None
    assert calamity.settle(RULES, table, None) == (None, [])


def test_an_undecided_vote_cannot_be_settled() -> None:
    table = civs({"A": -2, "B": -2, "C": 0, "D": 0})
    vote = calamity.ask_peasantry(table, calamity.find_victim(table, "unhappiness"), "Riots")
    with pytest.raises(Rejection, match="not decided yet"):
        calamity.settle(RULES, table, vote)


def test_losing_an_army_costs_two_safety_and_the_victim_names_the_cubes() -> None:
    civ = new_civ(RULES, "A")
    civ.cubes["army"] = 1
    civ.safety = 1
    with pytest.raises(Rejection, match="Sack takes 2 population cube\\(s\\): name 2 places, not 1"):
        calamity.strike(RULES, civ, SACK, ["army"], [])
    with pytest.raises(Rejection, match="A has no cube on 'city' to lose"):
        calamity.strike(RULES, civ, SACK, ["army", "city"], [])
    assert civ.cubes["army"] == 1  # nothing half-applied
    calamity.strike(RULES, civ, SACK, ["army", "farm:salt"], [])
    assert (civ.safety, civ.population(), "army" in civ.cubes) == (-1, 6, False)


def test_raid_halves_the_money_rounded_down() -> None:
    civ = new_civ(RULES, "A")
    civ.money = 15
    calamity.strike(RULES, civ, RAID, [], [])
    assert civ.money == 7
