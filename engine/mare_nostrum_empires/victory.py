"""The four ways to win, checked as soon as one is met (after every order that changes the board).

Building the Pyramids; a 5th Hero or Wonder (the national hero each empire starts with counts); controlling 4
capitals or legendary cities (the seed's "4 capitales ou 4 cités légendaires" read together: there are only 3
legendary cities, so a count of 4 of them alone could never be met; control is the controller of the capital or
legendary city building); holding the three titles at once."""
from __future__ import annotations

from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Board

TILES_TO_WIN = 5
CITIES_TO_WIN = 4


def cities_held(board: Board, empire: str) -> list[str]:
    return sorted(name for name, prov in board.provinces.items()
                  if prov.controller("capital") == empire or prov.controller("legendary") == empire)


def winners(rules: RulesData, board: Board) -> list[tuple[str, str]]:
    """(empire, why) for every empire that meets a condition now, in seating order."""
    out = []
    for empire in board.empires:
        screen = board.screens[empire]
        if screen.pyramids:
            out.append((empire, "have built the Pyramids"))
        elif len(screen.tiles) >= TILES_TO_WIN:
            out.append((empire, f"hold {len(screen.tiles)} Heroes and Wonders"))
        elif len(held := cities_held(board, empire)) >= CITIES_TO_WIN:
            out.append((empire, f"control {len(held)} capitals and legendary cities ({', '.join(held)})"))
        elif all(board.leaders.get(t) == empire for t in rules.titles):
            out.append((empire, "hold the three titles"))
    return out
