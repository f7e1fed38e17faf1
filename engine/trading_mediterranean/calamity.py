"""Calamities: the victim is the player furthest down the happiness (unhappiness calamity) or safety (barbarian
calamity) track; nobody below the start space, no victim; a tie is put to the other players, the peasantry, as a
vote with a deadline whose default, no majority, is the seed's: the calamity does not resolve and each of them
loses 5 VP."""
from __future__ import annotations

from dataclasses import dataclass

from engine.events import Rejection
from engine.tabletop import votes
from engine.trading_mediterranean import tracks
from engine.trading_mediterranean.rules_data import Calamity, Rules
from engine.trading_mediterranean.state import Civ

UNDECIDED = "no one"
TRACK = {"unhappiness": "happiness", "barbarian": "safety"}
IMPROVEMENT_LOSS = {"army": ("safety", -2), "colosseum": ("happiness", -2)}


@dataclass(frozen=True)
class Victim:
    seat: str | None  # None: no victim (nobody below the start, or the peasantry undecided)
    tied: tuple[str, ...] = ()  # the tied seats, when the peasantry must choose


def find_victim(civs: list[Civ], kind: str) -> Victim:
    track = TRACK[kind]
    low = min(getattr(c, track) for c in civs)
    if low >= 0:
        return Victim(None)
    tied = tuple(c.seat for c in civs if getattr(c, track) == low)
    return Victim(tied[0]) if len(tied) == 1 else Victim(None, tied)


def ask_peasantry(civs: list[Civ], victim: Victim, calamity: str) -> votes.Vote | None:
    """The vote of the non-tied players; None when every player is tied (nobody can decide, nobody is penalised:
    the calamity does not resolve)."""
    voters = [c.seat for c in civs if c.seat not in victim.tied]
    if not voters:
        return None
    return votes.ask(f"Who suffers {calamity}? The tied players are {', '.join(victim.tied)}.",
                     [*victim.tied, UNDECIDED], voters, UNDECIDED)


def settle(rules: Rules, civs: list[Civ], vote: votes.Vote | None) -> tuple[str | None, list[str]]:
    """The decided vote: (victim or None, the indecisive seats that lose 5 VP, already taken)."""
    if vote is None:
        return None, []
    if vote.result is None:
        raise Rejection("the peasantry's vote is not decided yet")
    if vote.result != UNDECIDED:
        return vote.result, []
    for c in civs:
        if c.seat in vote.voters:
            c.vp -= rules.calamity_indecision_vp
    return None, list(vote.voters)


def strike(rules: Rules, civ: Civ, calamity: Calamity, cubes: list[str], buildings: list[str]) -> list[str]:
    """The calamity's losses; the victim names which cubes (places) and which buildings go. Losing an improvement
    cube loses its ability (an army's or colosseum's two steps), losing the warehouse cube empties the warehouse
    (the caller discards those cards)."""
    if len(cubes) != min(calamity.cubes, civ.population()):
        raise Rejection(f"{calamity.name} takes {calamity.cubes} population cube(s): name {calamity.cubes} places, "
                        f"not {len(cubes)}")
    standing = len(civ.buildings)
    if len(buildings) != min(calamity.buildings, standing):
        raise Rejection(f"{calamity.name} destroys {calamity.buildings} building(s): name {min(calamity.buildings, standing)}")
    left = dict(civ.cubes)
    for place in cubes:
        if left.get(place, 0) < 1:
            raise Rejection(f"{civ.seat} has no cube on '{place}' to lose; its cubes are "
                            f"{', '.join(f'{p} {n}' for p, n in sorted(civ.cubes.items()) if n)}")
        left[place] -= 1
    for b in buildings:
        if b not in civ.buildings:
            raise Rejection(f"{civ.seat} has no building '{b}'; it has {', '.join(civ.buildings) or 'none'}")
    civ.cubes = {p: n for p, n in left.items() if n}
    for place in cubes:
        if place in IMPROVEMENT_LOSS:
            track, by = IMPROVEMENT_LOSS[place]
            tracks.step(rules, civ, track, by)
    civ.buildings = [b for b in civ.buildings if b not in buildings]
    civ.vp -= calamity.vp
    if calamity.halve_money:
        civ.money //= 2
    return [f"{calamity.name} strikes {civ.seat}"]
