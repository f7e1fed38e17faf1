"""The civic phase's building abilities: arrows and bonuses for the owner, then the "give opponent" abilities in
turn order (a player may leave one unused: a promise traded for in the trading phase is its non-use)."""
from __future__ import annotations

from collections import Counter

from engine.events import Rejection
from engine.trading_mediterranean import tracks
from engine.trading_mediterranean.state import Civ
from engine.trading_mediterranean.rules_data import Rules


def own_abilities(rules: Rules, civ: Civ) -> list[str]:
    """Arrows down the building's own track, and happiness, safety or money each turn."""
    arrows: Counter[str] = Counter()
    for name in civ.buildings:
        b = rules.building(name)
        arrows[b.side] += b.arrow
        tracks.step(rules, civ, "happiness", b.happiness)
        tracks.step(rules, civ, "safety", b.safety)
        civ.money += b.money
    return tracks.apply_arrows(rules, civ, arrows)


def give_opponents(rules: Rules, civs: dict[str, Civ], order: list[str], targets: dict[str, dict[str, str | None]]) -> list[str]:
    """``targets``: seat -> {building: opponent or None (not used)}; resolved in turn order, one step down the
    opponent's track named by the building."""
    said = []
    for seat in order:
        civ = civs[seat]
        for building, target in targets.get(seat, {}).items():
            if building not in civ.buildings:
                raise Rejection(f"{seat} has no building '{building}'")
            b = rules.building(building)
            if b.give is None:
                raise Rejection(f"{building} has no \"give opponent\" ability")
            if target is None:
                said.append(f"{seat} leaves {building} unused")
                continue
            if target == seat or target not in civs:
                raise Rejection(f"{building} gives an opponent a step down: name one of "
                                f"{', '.join(s for s in order if s != seat)}, not '{target}'")
            tracks.step(rules, civs[target], b.give, -1)
            said.append(f"{seat}'s {building} gives {target} one step down {b.give}")
    return said
