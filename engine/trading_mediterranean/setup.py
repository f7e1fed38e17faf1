"""Set-up: a civilization's starting mat, the turn order from a roll, the development deck stacked by turn."""
from __future__ import annotations

from dataclasses import dataclass

from engine.trading_mediterranean.rules_data import CALAMITY_KINDS, Rules
from engine.trading_mediterranean.state import Civ, Track


def new_civ(rules: Rules, seat: str) -> Civ:
    """4.1-4.3: 5 VP, markers on 0, seven cubes: one per farm, one on industry, one on the warehouse. The boards
    start on their first side (the seed: "for now it makes no difference which side")."""
    cubes = {f"farm:{good}": 1 for good in rules.farms}
    cubes["industry"] = 1
    cubes["warehouse"] = 1
    return Civ(seat, rules.start_vp, rules.start_money, Track("democracy"), Track("venus"), cubes=cubes)


def turn_order(seats: list[str], permutation: list[int]) -> list[str]:
    """1: "Randomly determine a turn order": ``permutation`` is a shuffle of range(len(seats)) derived from the
    campaign's public randomness (engine/tabletop/shuffle.py)."""
    if sorted(permutation) != list(range(len(seats))):
        raise ValueError(f"a turn order needs a permutation of 0..{len(seats) - 1}, not {permutation}")
    return [seats[i] for i in permutation]


@dataclass(frozen=True)
class Reveal:
    """What one turn's civic phase reveals."""

    turn: int
    developments: tuple[str, ...]
    calamities: tuple[str, ...]  # one of each kind from turn 2


def stack_developments(rules: Rules, shuffled: dict[str, list[str]]) -> list[Reveal]:
    """6: the development deck stacked by turn. ``shuffled`` holds each age's developments and each calamity
    kind's cards in a shuffled order (keys: the ages, 'unhappiness', 'barbarian'); each turn takes the next cards of
    its age and of each calamity kind, so a turn's reveal is the "6 random <age> cards" the seed asks for."""
    taken = {k: 0 for k in shuffled}
    for age in {s.age for s in rules.stack}:
        mine = sorted(d.name for d in rules.developments if d.age == age)
        if sorted(shuffled.get(age, [])) != mine:
            raise ValueError(f"the shuffled {age} age must hold exactly its developments: {', '.join(mine)}")
    for kind in CALAMITY_KINDS:
        mine = sorted(c.name for c in rules.calamities if c.kind == kind)
        if sorted(shuffled.get(kind, [])) != mine:
            raise ValueError(f"the shuffled {kind} calamities must be exactly: {', '.join(mine)}")
    out = []
    for turn, s in enumerate(rules.stack, start=1):
        devs = shuffled[s.age][taken[s.age]:taken[s.age] + s.developments]
        taken[s.age] += s.developments
        cal: list[str] = []
        for kind in CALAMITY_KINDS:
            cal += shuffled[kind][taken[kind]:taken[kind] + s.calamities]
            taken[kind] += s.calamities
        out.append(Reveal(turn, tuple(devs), tuple(cal)))
    return out
