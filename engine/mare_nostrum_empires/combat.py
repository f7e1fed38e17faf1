"""Phase 4, Military: a battle in one throw.

One die per unit (white on land, blue at sea), from the campaign's public source; each side adds its dice, a
fortress adds 5 and cancels one hit against its side, and each full 5 is a hit (the sum divided by 5, rounded
down). Each hit sends a unit back to the reserve. A side left with no unit loses; when both keep units it is the
seed's tie: at sea nothing happens, on land the province is at war."""
from __future__ import annotations

from dataclasses import dataclass

from engine.events import Rejection

FACES = 6
FORTRESS_POINTS = 5


@dataclass(frozen=True)
class Result:
    attacker_losses: int
    defender_losses: int
    attacker_left: int
    defender_left: int
    at_sea: bool

    @property
    def outcome(self) -> str:
        """'conquest' (the defenders are gone, attackers remain), 'repelled', 'tie' or 'both destroyed'."""
        if self.defender_left == 0 and self.attacker_left > 0:
            return "conquest"
        if self.attacker_left == 0 and self.defender_left > 0:
            return "repelled"
        if self.attacker_left and self.defender_left:
            return "tie"
        return "both destroyed"


def hits(dice: list[int], fortress: bool = False, points: int = 0) -> int:
    """``points``: added to the sum besides a fortress's (a tile's ability)."""
    for face in dice:
        if not 1 <= face <= FACES:
            raise Rejection(f"a die shows 1 to {FACES}, not {face}")
    return (sum(dice) + (FORTRESS_POINTS if fortress else 0) + points) // 5


def fight(attacker: list[int], defender: list[int], defender_fortress: bool, at_sea: bool = False,
          attacker_fortress: bool = False) -> Result:
    """``attacker`` and ``defender``: one die per unit. A fortress only stands on land."""
    if at_sea and (defender_fortress or attacker_fortress):
        raise Rejection("a fortress stands in a province: there is none at sea")
    if not attacker or not defender:
        raise Rejection("a battle needs units on both sides")
    return throw(len(attacker), hits(attacker, attacker_fortress), 1 if attacker_fortress else 0,
                 len(defender), hits(defender, defender_fortress), 1 if defender_fortress else 0, at_sea)


def throw(attackers: int, attacker_hits: int, attacker_cancels: int, defenders: int, defender_hits: int,
          defender_cancels: int, at_sea: bool) -> Result:
    """The losses once each side's hits are counted: a side's cancels take hits off those against it, and no side
    loses more units than it has (dice may outnumber units when a tile adds one)."""
    lost_d = min(max(attacker_hits - defender_cancels, 0), defenders)
    lost_a = min(max(defender_hits - attacker_cancels, 0), attackers)
    return Result(lost_a, lost_d, attackers - lost_a, defenders - lost_d, at_sea)
