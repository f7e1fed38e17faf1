"""Phase 3, Placement: where what is bought may go.

An influence marker goes in a province that is adjacent to one of yours, neutral (no influence marker yet) and
free of any enemy army: the seed lists the three with "Soit… soit… soit", and all three are required (with any one
of them an adjacent enemy province could simply be taken over, which would make the conquest's conversion of a
marker pointless). From rules version 3 a province touching a sea of your trireme chain that reaches one of your
provinces is adjacent too (sea_adjacency.py): the islands have no land border. Legions and buildings go in a
province under your influence that is not at war (a capital at war still may); a trireme goes in a sea touching a
province under your influence, enemy triremes or not; one fortress per province; a building only where the province
shows its site, once."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum_empires import abilities, sea_adjacency
from engine.mare_nostrum_empires.rules_data import BUILDINGS, RulesData
from engine.mare_nostrum_empires.state import Board


def _province(board: Board, name: str) -> None:
    if name not in board.provinces:
        raise Rejection(f"'{name}' is not a province on the board")


def _yours_in_peace(board: Board, empire: str, name: str, what: str) -> None:
    _province(board, name)
    prov = board.provinces[name]
    if prov.influence != empire:
        holder = "neutral" if prov.influence is None else f"under the {prov.influence}' influence"
        raise Rejection(f"{what} goes in a province under your influence: {name} is {holder}")
    if prov.at_war and "capital" not in prov.built:
        raise Rejection(f"{name} is at war: nothing is built or placed there until the war ends (a capital at war "
                        f"excepted)")


def check_influence(rules: RulesData, board: Board, empire: str, name: str) -> None:
    _province(board, name)
    prov = board.provinces[name]
    if prov.influence is not None:
        raise Rejection(f"{name} already holds the {prov.influence}' influence marker: an influence marker goes in a "
                        f"neutral province")
    enemies = sorted(e for e, n in prov.legions.items() if n and e != empire)
    if enemies:
        raise Rejection(f"{name} holds legions of the {', '.join(enemies)}: an influence marker goes where no enemy army is")
    if not sea_adjacency.adjacent(rules, board, empire, name):
        raise Rejection(f"{name} is not adjacent to any of your provinces"
                        + (": neither by land nor by a sea of your trireme chain reaching one of them"
                           if sea_adjacency.by_sea(board) else ""))


def check_unit(rules: RulesData, board: Board, empire: str, unit: str, where: str) -> None:
    if unit == "trireme":
        if where not in rules.map.seas:
            raise Rejection(f"a trireme goes in a sea, and '{where}' is not one")
        coast = [p for p in rules.map.seas[where].coast if p in board.provinces and board.provinces[p].influence == empire]
        if not coast and where not in abilities.trireme_seas(rules, board, empire):
            raise Rejection(f"{where} touches none of your provinces: a trireme goes in a sea next to one"
                            + (" or touching a province of your trireme chain"
                               if abilities.has(rules, board, empire, "trireme_placement") else ""))
        return
    _yours_in_peace(board, empire, where, f"a {unit}")
    if unit == "fortress" and board.provinces[where].fortress is not None:
        raise Rejection(f"{where} already has a fortress: one per province")


def check_building(rules: RulesData, board: Board, empire: str, building: str, where: str) -> None:
    if building not in BUILDINGS:
        raise Rejection(f"'{building}' is not a building: {', '.join(BUILDINGS)}")
    _yours_in_peace(board, empire, where, f"a {building}")
    if building not in rules.provinces[where].sites:
        raise Rejection(f"{where} shows no {building} site: it shows {', '.join(rules.provinces[where].sites)}")
    if building in board.provinces[where].built:
        raise Rejection(f"{where} already has its {building}")


def check_limit(rules: RulesData, board: Board, empire: str, piece: str, have: int) -> None:
    limit = rules.empire_limits.get(piece)
    if limit is not None and have >= limit:
        raise Rejection(f"{empire} has all its {limit} {piece} pieces on the board")
