"""Phase 4, Military: moving triremes and legions.

Triremes move first, one sea to an adjacent sea; after its move a trireme may fight one enemy fleet of the sea,
the mover choosing which (one fight per sea). Legions then move one province to an adjacent one, or along their
empire's trireme chain: seas holding its triremes, joined to each other, carry a legion from any province
touching one of them to any other province touching one of them. A legion entering a province an enemy army holds
fights there: the battle cannot be avoided."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.events import Rejection
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.state import Board


def check_trireme_move(rules: RulesData, board: Board, empire: str, sea: str, to: str, reach: int = 1) -> None:
    """``reach``: how many seas a trireme may move (1, or a tile's number)."""
    for name in (sea, to):
        if name not in rules.map.seas:
            raise Rejection(f"'{name}' is not a sea: triremes move from sea to sea")
    if board.triremes[sea].get(empire, 0) < 1:
        raise Rejection(f"the {empire} have no trireme in {sea}")
    if reach > 1:
        within = _within(sea, reach, lambda s: rules.map.sea_neighbours(s))
        if to not in within:
            raise Rejection(f"your triremes move up to {reach} seas: {to} is farther from {sea} (within reach: "
                            f"{', '.join(sorted(within))})")
        return
    if to not in rules.map.sea_neighbours(sea):
        raise Rejection(f"a trireme moves one sea: {to} is not next to {sea} (next to it: "
                        f"{', '.join(rules.map.sea_neighbours(sea))})")


def _within(start: str, steps: int, neighbours: Callable[[str], Iterable[str]]) -> set[str]:
    """The areas at most ``steps`` moves from ``start`` (without it), moving through those ``neighbours`` gives."""
    seen, edge = {start}, [start]
    for _ in range(steps):
        edge = [n for a in edge for n in neighbours(a) if n not in seen]
        seen.update(edge)
    return seen - {start}


def long_march(rules: RulesData, board: Board, empire: str, start: str, reach: int) -> list[str]:
    """The provinces farther than next door that a legion in ``start`` reaches in up to ``reach`` moves by land
    (a tile's ability), passing only through provinces on the board where no enemy legion stands (entering one is a
    battle, which ends the move)."""
    def onward(area: str) -> list[str]:
        if area != start and battle_due(board, empire, area):
            return []
        return [p for p in rules.map.land_neighbours(area) if p in board.provinces]
    return sorted(_within(start, reach, onward) - set(rules.map.land_neighbours(start)))


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


def check_legion_move(rules: RulesData, board: Board, empire: str, start: str, to: str, reach: int = 1) -> str:
    """How the legion goes ("march", "by sea", or "long march" when ``reach``, a tile's number of provinces, takes
    it farther than next door), or a refusal that lists where it could go."""
    for name in (start, to):
        if name not in board.provinces:
            raise Rejection(f"'{name}' is not a province on the board")
    if board.provinces[start].legions.get(empire, 0) < 1:
        raise Rejection(f"the {empire} have no legion in {start}")
    if to in rules.map.land_neighbours(start):
        return "march"
    chain = chain_reach(rules, board, empire, start)
    if to in chain:
        return "by sea"
    far = long_march(rules, board, empire, start, reach) if reach > 1 else []
    if to in far:
        return "long march"
    near = [p for p in rules.map.land_neighbours(start) if p in board.provinces]
    raise Rejection(f"a legion in {start} moves to an adjacent province ({', '.join(near)}) or along your trireme "
                    f"chain ({', '.join(chain) or 'none reaches it'})"
                    + (f" or up to {reach} provinces ({', '.join(far) or 'none reachable'})" if reach > 1 else "")
                    + f", not to {to}")


def battle_due(board: Board, empire: str, province: str) -> list[str]:
    """The enemy armies a legion of ``empire`` must fight in ``province``."""
    return sorted(e for e, n in board.provinces[province].legions.items() if n and e != empire)
