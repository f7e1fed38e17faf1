"""The end of the game: the most victory points wins; ties go to the most culture cubes, then the most buildings,
then a roll bound to the campaign's public randomness in place of rock, paper, scissors."""
from __future__ import annotations

from engine.trading_mediterranean.state import Civ


def key(civ: Civ) -> tuple[int, int, int]:
    return (civ.vp, civ.culture_cubes(), len(civ.buildings))


def tied_for_a_roll(civs: list[Civ]) -> list[list[str]]:
    """Groups of seats that VP, culture and buildings leave tied: each needs a roll."""
    groups: dict[tuple[int, int, int], list[str]] = {}
    for c in civs:
        groups.setdefault(key(c), []).append(c.seat)
    return [sorted(g) for k, g in sorted(groups.items(), reverse=True) if len(g) > 1]


def ranking(civs: list[Civ], rolls: dict[str, int]) -> list[str]:
    """Best first; ``rolls`` gives each seat of a tied group a distinct value (highest wins)."""
    for group in tied_for_a_roll(civs):
        values = [rolls.get(s) for s in group]
        if None in values or len(set(values)) != len(values):
            raise ValueError(f"the tie between {', '.join(group)} needs a distinct roll for each")
    return [c.seat for c in sorted(civs, key=lambda c: (key(c), rolls.get(c.seat, 0)), reverse=True)]
