"""10.2 as the seed orders an interception (rules version 2): the non-phasing player declares it, with a Military
Advantage or an Ambush marker (+1; 12.0: Ambush "+1 DRM to interception attempts"), chooses which of its units
there intercept ("any number of friendly units in the area ... declared prior to determining if the attempt is
successful"), and the phasing player may expend a Military Advantage marker (−1). Campaigns of version 1 keep
operations.py's interception with every unit and no marker of the mover."""
from __future__ import annotations

from dataclasses import dataclass

from engine.mediterranean_empires import combat, hand
from engine.mediterranean_empires.combat import AMBUSH, MILITARY_ADVANTAGE
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.rules_data import kind_word
from engine.mediterranean_empires.state import Force, Unit

NO = "do not intercept"
CHOICES = ("intercept", f"intercept with {MILITARY_ADVANTAGE}", f"intercept with {AMBUSH}", NO)
NO_MARKER = "no marker"


@dataclass(frozen=True)
class Declared:
    ids: list[int]  # the intercepting units
    modifier: int  # the markers' part of the DRM: +1 for the interceptor's, −1 for the mover's


def declare(ctx: Ctx, force: Force, area: str, blockers: list[Unit], *, exiting: bool, label: str) -> Declared | None:
    """The interception declared, or None when the non-phasing player lets the force pass (or sends no unit)."""
    opp, mover = other(force.side), force.side
    answer = ctx.oracle.ask(ctx.seat(opp), f"{label}.intercept",
                            f"Intercept the {force.power} force {'leaving' if exiting else 'entering'} {area} with "
                            f"your {len(blockers)} unit(s) there?", CHOICES, NO, {"area": area, "units": len(force.ids)})
    if answer == NO:
        return None
    modifier = 0
    if answer != "intercept":  # the marker is revealed before anything else is declared
        combat.spend_marker(ctx, opp, answer.removeprefix("intercept with "))
        modifier += 1
    ids = _units(ctx, opp, area, blockers, label)
    if not ids:
        ctx.say(f"Player {opp} sends no unit to intercept in {area}.")
        return None
    if hand.might_hold(ctx.state, mover, (MILITARY_ADVANTAGE,)):
        spent = ctx.oracle.ask(ctx.seat(mover), f"{label}.intercept_marker",
                               f"Player {opp} intercepts your force in {area} with {len(ids)} unit(s): expend a "
                               f"{MILITARY_ADVANTAGE} marker for −1 on the interception roll?",
                               (NO_MARKER, MILITARY_ADVANTAGE), NO_MARKER, {"area": area})
        if spent == MILITARY_ADVANTAGE:
            combat.spend_marker(ctx, mover, MILITARY_ADVANTAGE)
            modifier -= 1
    return Declared(ids, modifier)


def _units(ctx: Ctx, side: str, area: str, blockers: list[Unit], label: str) -> list[int]:
    """One question per power and unit type there, how many of them intercept (default: all); none when one unit."""
    groups: dict[tuple[str, str], list[int]] = {}
    for u in sorted(blockers, key=lambda u: (u.power, u.kind, u.id)):
        groups.setdefault((u.power, u.kind), []).append(u.id)
    if len(blockers) == 1:
        return [blockers[0].id]
    ids: list[int] = []
    for n, ((power, kind), here) in enumerate(groups.items(), 1):
        choices = tuple(str(k) for k in range(len(here), -1, -1))
        answer = ctx.oracle.ask(ctx.seat(side), f"{label}.g{n}.intercept_units",
                                f"How many {kind_word(kind)}(s) of {power} in {area} intercept (0-{len(here)})?",
                                choices, choices[0], {"area": area, "default": choices[0]})
        ids += here[: int(answer)]
    return ids
