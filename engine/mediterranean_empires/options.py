"""Campaign options (the optional rules of 14.0 and the scenario of 13.0): chosen at creation, kept in the state."""
from __future__ import annotations

from typing import Any

from engine.events import Rejection
from engine.mediterranean_empires.rules_data import RulesData, Scenario
from engine.mediterranean_empires.state import State

MERCENARIES, POISON, CONCESSIONS, VESPERS = "mercenaries", "poison", "concessions", "vespers"


def chosen(rules: RulesData, setup: Any) -> list[str]:
    """The options a campaign's set-up names (a list, or one string separated by commas or spaces), checked."""
    if setup is None:
        return []
    if not isinstance(setup, (str, list, tuple)):
        raise Rejection(f"options are a list of names, not {type(setup).__name__}")
    items = setup.replace(",", " ").split() if isinstance(setup, str) else [str(x) for x in setup]
    names: list[str] = []
    for item in items:
        name = item.strip().lower()
        if name not in rules.options:
            raise Rejection(f"unknown option '{item[:40]}': Mediterranean Empires has "
                            + ", ".join(f"{k} ({v.split(':')[0]})" for k, v in rules.options.items()))
        if name not in names:
            names.append(name)
    return names


def on(state: State, name: str) -> bool:
    return name in state.options


def scenario(rules: RulesData, state: State) -> Scenario | None:
    return next((rules.scenarios[n] for n in state.options if n in rules.scenarios), None)


def last_turn(rules: RulesData, state: State) -> int:
    sc = scenario(rules, state)
    return sc.turns if sc else rules.turns


def years(rules: RulesData, state: State, turn: int | None = None) -> str:
    """The years of a game turn ("1291–1300"); 13.0's first game turn starts in 1282."""
    turn = state.turn if turn is None else turn
    span = rules.year_span(turn)
    sc = scenario(rules, state)
    if sc and turn == 1:
        return f"{sc.first_year}–{span.split('–')[1]}"
    return span
