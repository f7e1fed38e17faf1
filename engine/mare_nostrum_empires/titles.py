"""The title tracks and Phase 5, Claims.

Each track counts what an empire controls (the data's `counts`: buildings, units, influence markers); the levels
are read again after every phase, so buying a legion raises the military level at once (the seed's example). At
Claims the highest level of each track takes its title; a tie is settled by the previous holder, who names one of
the tied empires. A level past the track's top turns the marker over ("15+") and it starts again at the bottom:
the level itself keeps counting, so 17 still beats 15."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum_empires import abilities
from engine.mare_nostrum_empires.rules_data import BUILDINGS, RulesData
from engine.mare_nostrum_empires.state import Board


def counts(board: Board, empire: str) -> dict[str, int]:
    """How many of each countable thing ``empire`` controls."""
    out = dict.fromkeys((*BUILDINGS, "legion", "trireme", "fortress", "influence"), 0)
    for prov in board.provinces.values():
        for building in prov.built:
            if prov.controller(building) == empire:
                out[building] += 1
        out["legion"] += prov.legions.get(empire, 0)
        out["fortress"] += prov.fortress == empire
        out["influence"] += prov.influence == empire
    out["trireme"] = sum(sea.get(empire, 0) for sea in board.triremes.values())
    return out


def levels(rules: RulesData, board: Board) -> dict[str, dict[str, int]]:
    """Title -> empire -> level."""
    out: dict[str, dict[str, int]] = {key: {} for key in rules.titles}
    for empire in board.empires:
        have = counts(board, empire)
        for key, title in rules.titles.items():
            out[key][empire] = sum(have[c] for c in title.counts)
    return out


def marker(level: int, top: int) -> str:
    """Where the marker stands: past the top it is turned over to "15+" and counts again from the bottom."""
    return str(level) if level <= top else f"{top}+ at {level - top}"


def tied(levels_of: dict[str, int]) -> list[str]:
    best = max(levels_of.values())
    return [e for e, level in levels_of.items() if level == best]


def claim(rules: RulesData, board: Board, choices: dict[str, str] | None = None) -> dict[str, str]:
    """The leaders after Claims. ``choices``: title -> the empire the previous leader names among the tied (the
    previous leader, if tied, may name itself)."""
    choices = choices or {}
    now = levels(rules, board)
    leaders: dict[str, str] = {}
    for key, title in rules.titles.items():
        best = tied(now[key])
        winner = best[0] if len(best) == 1 else abilities.tie_winner(rules, board, best)
        if winner is not None:
            leaders[key] = winner
            continue
        previous = board.leaders[key]
        named = choices.get(key)
        if named is None:
            raise Rejection(f"{', '.join(best)} tie for {title.name} at level {now[key][best[0]]}: {previous}, "
                            f"the previous {title.name}, names the new one among them")
        if named not in best:
            raise Rejection(f"{previous} names '{named}' {title.name}, who is not among the tied "
                            f"({', '.join(best)})")
        leaders[key] = named
    return leaders


def needs_choice(rules: RulesData, board: Board) -> dict[str, list[str]]:
    """Title -> the tied empires, for every title whose successor must be named (by the previous leader, or the
    holder of a tile naming it: abilities.tie_chooser); a tie a tile wins needs no one to name."""
    now = levels(rules, board)
    return {key: best for key in rules.titles
            if len(best := tied(now[key])) > 1 and abilities.tie_winner(rules, board, best) is None}
