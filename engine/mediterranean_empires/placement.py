"""Where a unit may be placed in the Joint Recruitment Phase (6.2): recruits and returning crusaders alike."""
from __future__ import annotations

from engine.mediterranean_empires import control
from engine.mediterranean_empires.context import Ctx


def refusal(ctx: Ctx, side: str, power: str, kind: str, area: str) -> str | None:
    """Why a unit of ``power`` cannot be placed in ``area`` for ``side``, or None: land units in an area under the
    side's total control (an ally's only where there is a city) or in a city its vassal's units occupy (7.2a),
    fleets in a sea by a city it totally controls."""
    st, amap = ctx.state, ctx.rules.map
    if kind == "fleet":
        if area not in amap.seas or not any(area in amap.port_seas(land) and control.controller(st, land) == side
                                            for land in amap.seas[area].coast):
            return f"a fleet is placed in a sea by a city you totally control; {area} is not one"
        return None
    if area in amap.lands and amap.lands[area].city and any(
            st.status.get(u.power) == "vassal" and st.side_of.get(u.power) == side for u in st.units_in(area)):
        return None  # 7.2a: "in any land area (with a city) occupied by the vassal's units"
    if area not in amap.lands or control.controller(st, area) != side or control.partial(st, area):
        return (f"units are placed in an area under your total control, or in a city your vassal's units occupy "
                f"(7.2a); {area} is neither")
    if st.status.get(power) != "major" and not amap.lands[area].city:
        return f"allied units are placed in an area with a city; {area} has none"
    return None


def places(ctx: Ctx, side: str, power: str, kind: str) -> list[str]:
    """Every area a unit of ``power`` may be placed in, the one holding most of the power's units first (then map
    order): the default place."""
    st, amap = ctx.state, ctx.rules.map
    areas = list(amap.seas) if kind == "fleet" else list(amap.lands)
    fit = [a for a in areas if refusal(ctx, side, power, kind, a) is None]
    return sorted(fit, key=lambda a: -sum(1 for u in st.units_in(a) if u.power == power))
