"""The set-up as play (3.1-3.2, campaigns of rules version 3 on): Player A, then Player B, place the units and Kings
their major powers start with, each placement checked against the rule; ``standard set-up`` places the data's
documented placement (data/rulesets/mediterranean-empires.toml) in one line.

Readings (docs/rules/mediterranean-empires.md, "The set-up"): a major's land units go in its listed areas (3.1 steps 2
and 3, 3.2 step 2: the power's ``areas``), each of which must end with at least one of them; fleets go in a sea area
adjacent to a land area the side controls at the start (3.1's "land areas indicated"); a King goes in one of his
power's listed areas holding at least one land unit of his power. The neutrals, the ally and the vassal (3.3.1) keep
the data's placement. Units keep their ids (a unit placed is the unplaced counter of that kind with the lowest id),
and the map's units are put back in id order when the set-up ends: the standard set-up gives exactly the state older
campaigns began with.
"""
from __future__ import annotations

from engine.events import Rejection
from engine.mediterranean_empires import control
from engine.mediterranean_empires.rules_data import RulesData, kind_word
from engine.mediterranean_empires.state import State, Unit

PHASE = "set-up"
KING = "king"
PLURALS = {"field_army": "field armies", "levy": "levies", "raider": "raiders", "mercenary": "mercenaries",
           "fleet": "fleets"}


def units_word(count: int, kind: str) -> str:
    return f"{count} {kind_word(kind) if count == 1 else PLURALS[kind]}"


def join_and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def begin(rules: RulesData, st: State) -> None:
    """A new campaign's board before anyone has placed: the majors' units and Kings are off the map."""
    for uid in [u.id for u in st.units.values() if rules.powers[u.power].status == "major"]:
        st.unplaced[uid] = st.units.pop(uid)
    for power in majors(rules):
        st.kings[power].area = None
    st.phase, st.to_move = PHASE, "A"


def majors(rules: RulesData, side: str | None = None) -> list[str]:
    return [p.name for p in rules.powers.values() if p.status == "major" and side in (None, p.side)]


def ask(rules: RulesData, st: State) -> str:
    """What the side to move is asked in the set-up, with an example it could type."""
    side = st.to_move
    example = next(((u.power, u.kind, rules.powers[u.power].areas[0]) for u in st.unplaced.values()
                    if rules.powers[u.power].side == side and u.kind != "fleet"), None)
    how = (f"'place a {kind_word(example[1])} of {example[0]} in {example[2]}'" if example else
           f"'place the King of {majors(rules, side)[0]} in {rules.powers[majors(rules, side)[0]].areas[0]}'")
    return f"place your units and Kings (3.{1 if side == 'A' else 2}: {how}) or 'standard set-up'"


def left_to_place(rules: RulesData, st: State, side: str) -> str:
    """What a side still has to place, in words ("France: 5 field armies, 5 levies, 4 fleets, its King; ...")."""
    parts = []
    for power in majors(rules, side):
        counts: dict[str, int] = {}
        for u in st.unplaced.values():
            if u.power == power:
                counts[u.kind] = counts.get(u.kind, 0) + 1
        what = [units_word(n, k) for k, n in counts.items()]
        if st.kings[power].area is None:
            what.append("its King")
        if what:
            parts.append(f"{power}: {', '.join(what)}")
    return "; ".join(parts) or "nothing"


def place(rules: RulesData, st: State, side: str, power: str, kind: str, area: str, count: int) -> list[str]:
    """One placement, checked; the messages it gives (and the set-up's end once both sides have placed all)."""
    _check_power(rules, st, side, power)
    if kind == KING:
        _place_king(rules, st, power, area)
        said = [f"Player {side} places the King of {power} in {area}."]
    else:
        if not 1 <= count <= 20:
            raise Rejection(f"place 1 to 20 units at a time, not {count}")
        _place_units(rules, st, side, power, kind, area, count)
        said = [f"Player {side} places {units_word(count, kind)} of {power} in {area}."]
    return said + _after(rules, st, side)


def standard(rules: RulesData, st: State, side: str) -> list[str]:
    """The documented placement of every unit and King of the side, each placement checked like a typed one."""
    _check_turn(st, side)
    mine = set(majors(rules, side))
    if any(u.power in mine for u in st.units.values()) or any(st.kings[p].area for p in mine):
        raise Rejection(f"the standard set-up places all of Player {side}'s units, and some are placed already: "
                        f"place the rest ({left_to_place(rules, st, side)}) with 'place ...', or take yours back "
                        "with /undo")
    for power in majors(rules, side):
        for unit in sorted((u for u in st.unplaced.values() if u.power == power), key=lambda u: u.id):
            _place_units(rules, st, side, power, unit.kind, unit.area, 1)
        king_at = rules.powers[power].king_at
        if king_at is not None:
            _place_king(rules, st, power, king_at)
    said = [f"Player {side} takes the standard set-up: " + "; ".join(
        f"{power}: " + _where(st, power) + (f", the King in {st.kings[power].area}" if st.kings[power].area else "")
        for power in majors(rules, side)) + "."]
    return said + _after(rules, st, side)


def _check_turn(st: State, side: str) -> None:
    if st.to_move != side:
        raise Rejection(f"Player {st.to_move} sets up now (Player A first, 3.1; then Player B, 3.2)")


def _check_power(rules: RulesData, st: State, side: str, power: str) -> None:
    _check_turn(st, side)
    mine = majors(rules, side)
    if power not in mine:
        who = ("the set-up's data places it (3.3.1)" if rules.powers[power].status != "major"
               else f"it is Player {rules.powers[power].side}'s")
        raise Rejection(f"Player {side} places {join_and(mine)}; {power} is not among them: {who}")


def _place_units(rules: RulesData, st: State, side: str, power: str, kind: str, area: str, count: int) -> None:
    body = rules.powers[power]
    spare = sorted((u for u in st.unplaced.values() if u.power == power and u.kind == kind), key=lambda u: u.id)
    if len(spare) < count:
        raise Rejection(f"{power} has {units_word(len(spare), kind)} left to place, not {count}; left to place: "
                        f"{left_to_place(rules, st, side)}")
    if kind == "fleet":
        lands = [a for p in majors(rules, side) for a in rules.powers[p].areas]
        if area not in rules.map.seas or not any(land in rules.map.seas[area].coast for land in lands):
            raise Rejection(f"a fleet is placed in a sea area adjacent to a land area Player {side} controls "
                            f"(3.{1 if side == 'A' else 2}); {area} is not one")
    elif area not in body.areas:
        raise Rejection(f"{power}'s land units are placed in its listed areas ({join_and(list(body.areas))}); "
                        f"{area} is not one")
    else:
        _check_minimum(rules, st, power, kind, area, count)
    for unit in spare[:count]:
        del st.unplaced[unit.id]
        st.units[unit.id] = Unit(unit.id, power, kind, area)


def _check_minimum(rules: RulesData, st: State, power: str, kind: str, area: str, count: int) -> None:
    """3.1-3.2: at least one land unit of the power in each listed area. Refused at once where the land units left
    after this placement could no longer cover the listed areas still empty, so a set-up can always be finished."""
    body = rules.powers[power]
    held = {u.area for u in st.units.values() if u.power == power and u.kind != "fleet"} | {area}
    empty = [a for a in body.areas if a not in held]
    left = sum(1 for u in st.unplaced.values() if u.power == power and u.kind != "fleet") - count
    if left < len(empty):
        raise Rejection(f"at least one land unit of {power} goes in each of its listed areas (3.1-3.2): after "
                        f"{units_word(count, kind)} in {area}, {left} would be left for {len(empty)} areas still "
                        f"empty ({join_and(empty)})")


def _place_king(rules: RulesData, st: State, power: str, area: str) -> None:
    king = st.kings.get(power)
    if king is None or king.area is not None:
        raise Rejection(f"the King of {power} is placed already" if king else f"{power} has no King")
    body = rules.powers[power]
    if area not in body.areas or not any(u.power == power and u.kind != "fleet" for u in st.units_in(area)):
        beside = sorted({u.area for u in st.units.values() if u.power == power and u.kind != "fleet"})
        raise Rejection(f"the King of {power} is placed in one of {power}'s listed areas holding a land unit of "
                        f"{power} (3.0); {area} is not one: "
                        + (f"choose {join_and(beside)}" if beside else f"place a land unit of {power} first"))
    king.area = area


def _where(st: State, power: str) -> str:
    by_area: dict[str, dict[str, int]] = {}
    for u in st.units.values():
        if u.power == power:
            counts = by_area.setdefault(u.area, {})
            counts[u.kind] = counts.get(u.kind, 0) + 1
    return ", ".join(f"{' and '.join(units_word(n, k) for k, n in c.items())} in {a}" for a, c in by_area.items())


def _after(rules: RulesData, st: State, side: str) -> list[str]:
    """The side's set-up ends when all is placed; Player B's ends the set-up, and game turn 1 begins."""
    if any(rules.powers[u.power].side == side for u in st.unplaced.values()) or any(
            st.kings[p].area is None for p in majors(rules, side)):
        return [f"Player {side} has left to place: {left_to_place(rules, st, side)}."]
    if side == "A":
        st.to_move = "B"
        return ["Player A's set-up is complete. Player B sets up now (3.2): 'place ...' or 'standard set-up'."]
    st.units = dict(sorted(st.units.items()))  # the order the data's placement has: later rules read units in it
    st.phase, st.to_move = "stratagems", "A"
    control.snapshot_control(rules, st)
    return ["The set-up is complete: game turn 1 begins. Player A draws a stratagem marker first ('draw')."]
