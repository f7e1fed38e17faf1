"""The Heroes and Wonders row: five tiles face up, the rest face down beneath them; a tile bought leaves a gap
that the next face-down tile fills at the end of the Purchase phase (not at once: a tile turned up mid-phase would
favour whoever buys after). The Pyramids stand apart. The national heroes start on their empires' screens; the
row's order is a shuffle bound like any other roll, given here as the tiles in order."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import Rejection
from engine.mare_nostrum_empires.rules_data import RulesData

FACE_UP = 5


@dataclass
class Row:
    face_up: list[str | None]  # None: a gap left by a purchase this phase
    face_down: list[str] = field(default_factory=list)  # the next to turn up first (an open shuffle: version 1)
    # A hidden row (hidden_row.py): how many tiles are face down, known to nobody, and the draws turning up into
    # their slots (draw label -> slot), each waiting for its seal and reveal.
    unseen: int = 0
    turning: dict[str, int] = field(default_factory=dict)

    def public(self) -> dict[str, object]:
        return {"face_up": list(self.face_up), "face_down": len(self.face_down) + self.unseen}


def row_tiles(rules: RulesData) -> list[str]:
    """The tiles that go in the row: every general Hero and Wonder (national heroes start on the screens; those of
    hidden empires are out of the game)."""
    return [t.name for t in rules.tiles.values() if t.empire is None]


def deal(rules: RulesData, order: list[str]) -> Row:
    expected = row_tiles(rules)
    if sorted(order) != sorted(expected):
        raise Rejection(f"the row's order must hold each of {len(expected)} tiles once: {', '.join(sorted(expected))}")
    return Row(list(order[:FACE_UP]), list(order[FACE_UP:]))


def buy(row: Row, tile: str) -> None:
    if tile not in row.face_up:
        shown = [t for t in row.face_up if t]
        raise Rejection(f"'{tile}' is not face up in the row: buy one of {', '.join(shown) or 'none left'}")
    row.face_up[row.face_up.index(tile)] = None


def refill(row: Row) -> list[str]:
    """End of the Purchase phase: the gaps filled from the face-down tiles, in order; the tiles turned up."""
    turned = []
    for i, tile in enumerate(row.face_up):
        if tile is None and row.face_down:
            row.face_up[i] = row.face_down.pop(0)
            turned.append(row.face_up[i])
    return [t for t in turned if t is not None]
