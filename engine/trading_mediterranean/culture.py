"""Culture: a cube in the next box of a symbol's row scores the development's points; a full row scores the row
bonus, a full column (every row holding that many cubes) its column bonus; a building that doubles a symbol
doubles both its points and its row bonus."""
from __future__ import annotations

from engine.events import Rejection
from engine.trading_mediterranean.rules_data import Development, Rules
from engine.trading_mediterranean.state import Civ

ROW = 3


def place(rules: Rules, civ: Civ, dev: Development, symbol: str | None = None) -> int:
    """Place the cube and score; returns the points taken."""
    chosen = dev.culture if dev.culture != "any" else symbol
    if chosen not in rules.culture_symbols:
        raise Rejection(f"{dev.name} takes a culture box of any symbol: name one of {', '.join(rules.culture_symbols)}"
                        f", not {symbol!r}")
    have = civ.culture.get(chosen, 0)
    if have >= ROW:
        raise Rejection(f"{civ.seat}'s {chosen} row is full ({ROW} cubes)")
    doubled = 2 if any(rules.building(b).doubles == chosen for b in civ.buildings) else 1
    before = _columns(rules, civ)
    civ.culture[chosen] = have + 1
    points = dev.vp * doubled
    if have + 1 == ROW:
        points += rules.row_bonus * doubled
    for col in range(before, _columns(rules, civ)):
        points += rules.column_bonus[col]
    civ.vp += points
    return points


def _columns(rules: Rules, civ: Civ) -> int:
    return min(civ.culture.get(s, 0) for s in rules.culture_symbols)
