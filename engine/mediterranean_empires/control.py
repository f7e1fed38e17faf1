"""Area control (3.4), treasury income (6.1) and victory (4.0)."""
from __future__ import annotations

from collections.abc import Iterable

from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.rules_data import RulesData
from engine.mediterranean_empires.state import State

ACTIVE = ("major", "ally")


def side_of_power(state: State, power: str) -> str | None:
    """The side whose units these are for control and combat: majors and allies only (3.4)."""
    return state.side_of.get(power) if state.status.get(power) in ACTIVE else None


def land_sides(state: State, area: str) -> set[str]:
    return {s for u in state.units_in(area) if u.kind != "fleet" and (s := side_of_power(state, u.power))}


def land_sides_by_area(state: State) -> dict[str, set[str]]:
    """``land_sides`` of every area with units, in one pass over the units (an area without any is left out)."""
    by_area: dict[str, set[str]] = {}
    for u in state.units.values():
        if u.kind != "fleet" and (s := side_of_power(state, u.power)):
            by_area.setdefault(u.area, set()).add(s)
    return by_area


def controller(state: State, area: str) -> str | None:
    """The side in total control of a land area, or None (partial control, inactive, vassal) (3.4)."""
    return _controller(state, area, land_sides(state, area))


def controllers(state: State, areas: Iterable[str]) -> dict[str, str | None]:
    """``controller`` of each area, the units read once for all (a view or a count over the whole map)."""
    by_area = land_sides_by_area(state)
    return {a: _controller(state, a, by_area.get(a, set())) for a in areas}


def _controller(state: State, area: str, here: set[str]) -> str | None:
    if len(here) == 2:
        return None
    if len(here) == 1:
        return next(iter(here))
    holder = state.owner.get(area)
    if holder in ("A", "B"):
        return holder
    return side_of_power(state, holder) if holder else None


def partial(state: State, area: str) -> bool:
    return len(land_sides(state, area)) == 2


def settle_control(state: State) -> None:
    """After units move or die: an area held by one side's land units alone becomes that side's (3.4 a, b)."""
    # The owners this changes do not change which sides' units are where: the sides can be read once, before.
    for area, here in land_sides_by_area(state).items():
        if len(here) == 1:
            side = next(iter(here))
            holder = state.owner.get(area)
            if holder not in ("A", "B") and holder is not None and side_of_power(state, holder) == side:
                continue  # an ally's own area stays the ally's (its home area for recruiting)
            state.owner[area] = side


def area_power(state: State, area: str) -> str | None:
    holder = state.owner.get(area)
    return holder if holder not in (None, "A", "B") else None


def city_areas(rules: RulesData, state: State, side: str) -> list[str]:
    held = controllers(state, (a for a, land in rules.map.lands.items() if land.city))
    return [a for a, by in held.items() if by == side]


def income(ctx: Ctx, side: str) -> int:
    """6.1: one TP per city in a land area under the side's total control (its allies' areas too), plus 1d6 per
    city held by its vassals (1-4: one TP). Gold, trade concessions and piracy are played apart."""
    rules, state = ctx.rules, ctx.state
    tp = len(city_areas(rules, state, side))
    for area, land in rules.map.lands.items():
        power = area_power(state, area)
        if land.city and power and state.status.get(power) == "vassal" and state.side_of.get(power) == side:
            if ctx.die(f"vassal.{side}.{area}") <= 4:
                tp += 1
    return tp


def add_treasury(rules: RulesData, state: State, side: str, amount: int) -> int:
    """Adds TPs up to the cap; the excess is forfeit (6.1). Returns what was actually added."""
    s = state.sides[side]
    before = s.treasury
    s.treasury = max(0, min(rules.max_treasury, s.treasury + amount))
    return s.treasury - before


def snapshot_control(rules: RulesData, state: State) -> None:
    state.start_control = controllers(state, rules.map.lands)


def victory_points(rules: RulesData, state: State, side: str) -> int:
    """4.1: a VP per city under the side's total control that it did not control at the start; vassal and inactive
    areas never count (they are nobody's under 3.4 anyway)."""
    held = controllers(state, (a for a, land in rules.map.lands.items() if land.city))
    return sum(1 for area, by in held.items() if by == side and state.start_control.get(area) != side)


def winner(rules: RulesData, vp_a: int, vp_b: int) -> str:
    """4.0: A wins by 3 or more; 1 or 2 more is a draw; equal or less, B wins."""
    if vp_a - vp_b >= rules.vp_margin_to_win:
        return "A"
    if vp_a - vp_b >= 1:
        return "draw"
    return "B"
