"""When a province is adjacent to an empire, for an influence marker placed (placement.py) and a marker converted
after a conquest (conquest.py): the seed's "adjacente à une de vos provinces" and "adjacente à son Empire".

By land borders alone the islands (Sicilia with Syracuse, Sardinia, Creta, Cyprus) have no neighbour, so no empire
could ever place influence there or convert one, and Syracuse could never be built. The seed joins provinces by sea
("Une chaîne de trirèmes va permettre à un joueur de relier deux provinces séparées par les eaux"), so from rules
version 3 a province also counts as adjacent when it touches a sea of a trireme chain of the empire that reaches one
of its provinces (the chain a legion sails along, movement.chain_reach). Older campaigns keep land borders only, so
their logs fold as they did."""
from __future__ import annotations

from engine.mare_nostrum_empires import movement
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.rules_version import ISLANDS_BY_SEA
from engine.mare_nostrum_empires.state import Board


def by_sea(board: Board) -> bool:
    """Whether the campaign's rules let a trireme chain make a province adjacent."""
    return board.rules_version >= ISLANDS_BY_SEA


def adjacent(rules: RulesData, board: Board, empire: str, province: str) -> bool:
    """Whether ``province`` borders one of ``empire``'s provinces by land or, by the campaign's rules, by its chain."""
    if any(board.provinces[p].influence == empire for p in rules.map.land_neighbours(province)
           if p in board.provinces):
        return True
    if not by_sea(board):
        return False
    mine = [p for p, prov in board.provinces.items() if prov.influence == empire and p != province]
    return any(province in movement.chain_reach(rules, board, empire, p) for p in mine)
