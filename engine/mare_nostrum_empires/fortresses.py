"""When a fortress falls (rules version 3, rules_version.py): the seed never lets a die hit a fortress ("chaque
trirème ou légion touchée"), but a fortress is one of an empire's unit pieces and a province holds one at most.

* **Conquered with its province**: a battle that eliminates the last defending legion conquers "a province emptied
  of all its units": the defender's fortress there falls with them.
* **Pillaged**: a conqueror who entered a province with no legion to fight finds the fortress standing; its one
  pillage may take it, as a building ("tous les bâtiments détruits retournent dans la réserve"), for no gain (as a
  market or a temple).
* **Converted**: the province whose influence marker a conqueror converts becomes its; a fortress of the former
  holder still there falls (one per province: the new holder's own could not be built while it stands).

A fortress fallen goes back to its owner's pieces (the limit counts the board), and another may be built there.
"""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum_empires.state import Board, ProvinceState

PIECE = "fortress"


def fall(prov: ProvinceState, owner: str | None) -> str | None:
    """``owner``'s fortress in ``prov`` falls, if it stands there: who owned it, else None."""
    if owner is None or prov.fortress != owner:
        return None
    prov.fortress = None
    return owner


def pillage(board: Board, empire: str, province: str) -> str:
    """The conqueror's one pillage takes the fortress: whose fortress it was."""
    prov = board.provinces[province]
    if prov.conqueror != empire:
        raise Rejection(f"the {empire} have not conquered {province}: only its conqueror may pillage, occupy or "
                        f"convert there")
    if prov.fortress is None or prov.fortress == empire:
        raise Rejection(f"{province} has no enemy fortress to pillage: it has "
                        f"{', '.join(sorted(prov.built)) or 'no building'}")
    owner = prov.fortress
    prov.fortress = None
    prov.conqueror = None  # one building only: the pillage is the conqueror's one action
    return owner
