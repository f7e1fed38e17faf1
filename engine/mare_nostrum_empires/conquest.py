"""Phase 4, Military: what a conqueror does with the province it has emptied of enemy units.

One of three: pillage one building (the seed's table: a caravan gives its good, a market or temple nothing, a
city or capital a tax, a legendary city a legendary good or a tax; the building goes back to the reserve); occupy
buildings, one unit on each (it then collects them instead of the influence holder: a market doubles only with a
caravan also occupied, a temple only with a city, capital or legendary city); or stand a unit on the influence
marker, which becomes the conqueror's at its next Military phase if the unit is still there, it is still the
conqueror and the province is adjacent to its empire (by land, or from rules version 3 by its trireme chain:
sea_adjacency.py)."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum_empires import sea_adjacency
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Board

PILLAGE = {"caravan": "good", "market": None, "temple": None, "city": "tax", "capital": "tax",
           "legendary": ("legendary", "tax")}


def _conqueror(board: Board, empire: str, province: str) -> None:
    if board.provinces[province].conqueror != empire:
        raise Rejection(f"the {empire} have not conquered {province}: only its conqueror may pillage, occupy or "
                        f"convert there")


def pillage(rules: RulesData, board: Board, empire: str, province: str, building: str,
            take: str | None = None) -> str | None:
    """Destroys ``building``; what the conqueror gains: a resource, "tax", "legendary" or None."""
    _conqueror(board, empire, province)
    prov = board.provinces[province]
    if building not in prov.built:
        raise Rejection(f"{province} has no {building} to pillage: it has {', '.join(sorted(prov.built)) or 'none'}")
    gain = PILLAGE[building]
    if isinstance(gain, tuple):
        if take not in gain:
            raise Rejection(f"pillaging the legendary city of {province} gives a legendary good or a tax: say "
                            f"'legendary' or 'tax', not '{take}'" if take else
                            f"pillaging the legendary city of {province} gives a legendary good or a tax: say which")
        gain = take
    prov.built.discard(building)
    prov.occupied.pop(building, None)
    prov.conqueror = None  # one building only: the pillage is the conqueror's one action
    return rules.provinces[province].good if gain == "good" else gain


def occupy(board: Board, empire: str, province: str, buildings: list[str], units: int) -> None:
    _conqueror(board, empire, province)
    prov = board.provinces[province]
    missing = [b for b in buildings if b not in prov.built]
    if missing:
        raise Rejection(f"{province} has no {missing[0]} to occupy")
    if len(buildings) > units:
        raise Rejection(f"one unit on each building: {len(buildings)} buildings named, {units} units in {province}")
    for building in buildings:
        prov.occupied[building] = empire


def stand_on_marker(board: Board, empire: str, province: str) -> None:
    _conqueror(board, empire, province)
    if board.provinces[province].influence in (None, empire):
        raise Rejection(f"{province} holds no enemy influence marker to convert")
    board.provinces[province].converting = empire


def convert(rules: RulesData, board: Board, empire: str, province: str) -> None:
    """At the conqueror's next Military phase: its marker replaces the other, under the three conditions."""
    prov = board.provinces[province]
    if prov.converting != empire:
        raise Rejection(f"no {empire} unit stands on the influence marker of {province}")
    if prov.conqueror != empire:
        raise Rejection(f"the {empire} are no longer the conquerors of {province}: the marker stays")
    if not sea_adjacency.adjacent(rules, board, empire, province):
        raise Rejection(f"{province} is not adjacent to the {empire}' empire"
                        + (" by land or by a sea of its trireme chain" if sea_adjacency.by_sea(board) else "")
                        + ": the marker stays")
    prov.influence = empire
    prov.converting = None


def enemy_lands(board: Board, empire: str, province: str) -> None:
    """An enemy unit arriving: the province is no longer conquered but at war."""
    prov = board.provinces[province]
    if prov.conqueror is not None and prov.conqueror != empire:
        prov.conqueror = None
        prov.converting = None
        prov.at_war = True
