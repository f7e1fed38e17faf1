"""Choices the seed leaves to the player (rules version 2): 8.1, "The player may only place the King in any friendly
total controlled area on the map occupied by units belonging to that faction"; 10.3.2 DV+S, the attacker "may" pick
a stratagem marker. Campaigns created before the version keep the choice made for the player."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.mediterranean_empires import combat, hand, turn
from engine.mediterranean_empires.combat import Battle
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import Scripted
from engine.mediterranean_empires.rules_data import default_rules
from engine.mediterranean_empires.rules_version import SEED_READINGS
from engine.mediterranean_empires.state import State, Unit, new_state

RULES = default_rules()


class Asking(Scripted):
    """Scripted dice and answers, keeping every question asked: (seat, question, choices, default)."""

    def __init__(self, dice: Iterable[int] = (), answers: dict[str, Any] | None = None) -> None:
        super().__init__(dice, answers)
        self.asked: list[tuple[str, str, tuple[str, ...], str]] = []

    def ask(self, seat: str, label: str, question: str, choices: Iterable[str], default: str,
            context: dict[str, Any] | None = None, mode: str = "reaction") -> str:
        self.asked.append((seat, question, tuple(choices), default))
        return super().ask(seat, label, question, choices, default, context, mode)


def add(st: State, power: str, kind: str, area: str) -> int:
    st.units[st.next_unit] = Unit(st.next_unit, power, kind, area)
    st.next_unit += 1
    return st.next_unit - 1


def king_died(version: int) -> State:
    """The King of France died last game turn; six French levies stand in Vienne (more than anywhere else), one in
    Albi, both under Player A's total control."""
    st = new_state(RULES)
    st.rules_version, st.turn = version, 2
    for area in ("Vienne", "Albi"):
        for u in st.units_in(area):
            del st.units[u.id]
        st.owner[area] = "A"
    for _ in range(6):
        add(st, "France", "levy", "Vienne")
    add(st, "France", "levy", "Albi")
    st.kings["France"].area, st.kings["France"].died_turn = None, 1
    return st


def french_areas(st: State) -> list[str]:
    return sorted({u.area for u in st.units.values() if u.power == "France" and u.area in RULES.map.lands})


def test_the_player_places_his_new_king() -> None:
    st = king_died(SEED_READINGS)
    oracle = Asking([1], {"king_area": "Albi"})
    turn.new_king(Ctx(RULES, st, oracle), "France")
    ((seat, question, choices, default),) = oracle.asked
    assert seat == "Player A" and question.startswith("Where is the new King of France (+")
    # Every French-occupied area under Player A's total control, the former default (most French units) first.
    assert default == "Vienne" and sorted(choices) == french_areas(st) and choices[0] == "Vienne" and "Albi" in choices
    assert st.kings["France"].area == "Albi"


def test_before_the_version_the_king_goes_where_most_of_his_units_are() -> None:
    st = king_died(1)
    oracle = Asking([1], {"king_area": "Albi"})
    turn.new_king(Ctx(RULES, st, oracle), "France")
    assert oracle.asked == [] and st.kings["France"].area == "Vienne"


def spoils(version: int, answer: str | None) -> tuple[State, Asking]:
    st = new_state(RULES)
    st.rules_version = version
    att = [add(st, "France", "field_army", "Navarre") for _ in range(3)]
    dfd = [add(st, "Aragon", "levy", "Navarre") for _ in range(2)]
    st.unseen = ["Gold"]  # the pool holds one marker
    oracle = Asking([6, 1], {"spoils_pick": answer} if answer else None)
    assert combat.resolve(Ctx(RULES, st, oracle), Battle("Navarre", "field", "A", "B", att, dfd, "t")) == "DV+S"
    assert not any(i in st.units for i in dfd)
    return st, oracle


def test_dv_plus_s_the_attacker_may_decline_the_marker() -> None:
    st, oracle = spoils(SEED_READINGS, "no marker")
    assert oracle.asked == [("Player A", "DV+S in Navarre: pick a stratagem marker as spoils?",
                             ("take a marker", "no marker"), "take a marker")]
    assert hand.known(st, "A") == [] and st.unseen == ["Gold"]


def test_dv_plus_s_the_default_picks() -> None:
    st, _ = spoils(SEED_READINGS, None)
    assert hand.known(st, "A") == ["Gold"]


def test_before_the_version_the_pick_is_made_for_the_attacker() -> None:
    st, oracle = spoils(1, "no marker")
    assert oracle.asked == [] and hand.known(st, "A") == ["Gold"]
