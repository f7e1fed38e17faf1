"""The return of crusaders (12.0 Crusade): units set aside come back in the Joint Recruitment Phase of a later game
turn, as soon as there is a friendly, totally controlled area where they may be placed.

A set-aside entry is ``[power, kind, turn sent]``; ``[OWED, "fleet", turn]`` is the fleet a Crusade could not take,
which the first purchase of that game turn's Recruitment Phase must provide (``owed_fleet``).
"""
from __future__ import annotations

from engine.mediterranean_empires import control, placement
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.rules_data import UNIT_WORDS
from engine.mediterranean_empires.state import Unit

OWED = "owed"


def due(ctx: Ctx, side: str) -> list[list]:
    """The crusaders that come back now: sent in an earlier game turn, of a power still friendly, with a place."""
    st = ctx.state
    return [e for e in st.sides[side].set_aside
            if e[0] != OWED and len(e) > 2 and e[2] < st.turn and control.side_of_power(st, e[0]) == side
            and placement.places(ctx, side, e[0], e[1])]


def word(entry: list) -> str:
    return f"{UNIT_WORDS[entry[1]]} of {entry[0]}"


def announce(ctx: Ctx, side: str) -> None:
    back = due(ctx, side)
    if back:
        ctx.say(f"Player {side}'s crusaders come back from the Holy Land: " + ", ".join(word(e) for e in back) +
                " ('return a levy of France to Vienne'; those not placed when you say 'done' go where most of "
                "their power's units stand).")


def bring_back(ctx: Ctx, side: str, power: str, kind: str, area: str, count: int = 1) -> None:
    """Places returning crusaders (free: they are not recruited, and do not count against three recruits an area)."""
    st = ctx.state
    if st.phase != "recruitment":
        raise Rejection("crusaders come back in the Joint Recruitment Phase")
    if st.sides[side].done:
        raise Rejection("you have said 'done' for this Recruitment Phase")
    for _ in range(count):
        entry = next((e for e in due(ctx, side) if e[0] == power and e[1] == kind), None)
        if entry is None:
            raise Rejection(f"no {UNIT_WORDS[kind]} of {power} is coming back from the Crusade now")
        wrong = placement.refusal(ctx, side, power, kind, area)
        if wrong:
            raise Rejection(wrong)
        _place(ctx, side, entry, area)


def bring_back_rest(ctx: Ctx, side: str) -> None:
    """At 'done': every crusader still due comes back to its default place."""
    for entry in due(ctx, side):
        where = placement.places(ctx, side, entry[0], entry[1])
        if where:
            _place(ctx, side, entry, where[0])


def _place(ctx: Ctx, side: str, entry: list, area: str) -> None:
    st = ctx.state
    st.sides[side].set_aside.remove(entry)
    st.units[st.next_unit] = Unit(st.next_unit, entry[0], entry[1], area)
    st.next_unit += 1
    ctx.say(f"A {word(entry)} comes back from the Crusade to {area}.")


def owed_fleet(ctx: Ctx, side: str) -> list | None:
    """The fleet this game turn's Crusade still asks of the side, if any."""
    st = ctx.state
    return next((e for e in st.sides[side].set_aside if e[0] == OWED and e[2] == st.turn), None)


def set_aside_count(ctx: Ctx, power: str, kind: str) -> int:
    """Counters away on the Crusade: they are not in the recruit pool (6.2: the counter sheet is the limit)."""
    return sum(1 for s in ctx.state.sides.values() for e in s.set_aside if e[0] == power and e[1] == kind)
