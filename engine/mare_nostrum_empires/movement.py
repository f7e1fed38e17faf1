"""Phase 4, Military: moving triremes and legions.

Triremes move first, one sea to an adjacent sea; after its move a trireme may fight one enemy fleet of the sea,
the mover choosing which (one fight per sea). Legions then move one province to an adjacent one, or along their
empire's trireme chain: seas holding its triremes, joined to each other, carry a legion from any province
touching one of them to any other province touching one of them. A legion entering a province an enemy army holds
fights there: the battle cannot be avoided."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Board


def check_trireme_move(rules: RulesData, board: Board, empire: str, sea: str, to: str) -> None:
    for name in (sea, to):
        if name not in rules.map.seas:
            raise Rejection(f"'{name}' is not a sea: triremes move from sea to sea")
    if board.triremes[sea].get(empire, 0) < 1:
        raise Rejection(f"the {empire} have no trireme in {sea}")
    if to not in rules.map.sea_neighbours(sea):
        raise Rejection(f"a trireme moves one sea: {to} is not next to {sea} (next to it: "
                        f"{', '.join(rules.map.sea_neighbours(sea))})")


def sea_opponents(board: Board, empire: str, sea: str) -> list[str]:
    """The fleets a trireme arriving in ``sea`` may fight (one of them, or none)."""
    return sorted(e for e, n in board.triremes[sea].items() if n and e != empire)


def chain_reach(rules: RulesData, board: Board, empire: str, start: str) -> list[str]:
    """The provinces a legion in ``start`` reaches along its empire's trireme chain."""
    seas = [s for s in rules.map.lands[start].coast if board.triremes[s].get(empire, 0)]
    seen = set(seas)
    while seas:
        sea = seas.pop()
        for nxt in rules.map.sea_neighbours(sea):
            if nxt not in seen and board.triremes[nxt].get(empire, 0):
                seen.add(nxt)
                seas.append(nxt)
    return sorted({p for s in seen for p in rules.map.seas[s].coast if p in board.provinces and p != start})


def check_legion_move(rules: RulesData, board: Board, empire: str, start: str, to: str) -> str:
    """How the legion goes ("march" or "by sea"), or a refusal that lists where it could go."""
    for name in (start, to):
        if name not in board.provinces:
            raise Rejection(f"'{name}' is not a province on the board")
    if board.provinces[start].legions.get(empire, 0) < 1:
        raise Rejection(f"the {empire} have no legion in {start}")
    if to in rules.map.land_neighbours(start):
        return "march"
    reach = chain_reach(rules, board, empire, start)
    if to in reach:
        return "by sea"
    near = [p for p in rules.map.land_neighbours(start) if p in board.provinces]
    raise Rejection(f"a legion in {start} moves to an adjacent province ({', '.join(near)}) or along your trireme "
                    f"chain ({', '.join(reach) or 'none reaches it'}), not to {to}")


def battle_due(board: Board, empire: str, province: str) -> list[str]:
    """The enemy armies a legion of ``empire`` must fight in ``province``."""
    return sorted(e for e, n in board.provinces[province].legions.items() if n and e != empire)
