"""The search that chose test_tm_piracy_in_play.py's game. Piracy is one luxury card in 25, dealt only to a harbour,
and the scripted players' usual purchases build few harbours: 42 whole games of theirs never spent it (and they
warehouse their luxury cards, so a Piracy dealt stays in a warehouse). Here four players buy harbours and nothing
else and warehouse nothing, and each table's tag (its salts, so its deck key and beacons) is tried in turn; the game
stops at the first turn that spends Piracy. Prints each tag's turn, who spent it and the harbours
then standing, and the first tag found by an early turn (so that the reshuffled luxury deck is dealt from again).

    python -m tests.engine.trading_mediterranean.find_piracy_game [TAGS] [BY_TURN]
"""
from __future__ import annotations

import sys

from engine.trading_mediterranean import game as gm
from tests.engine.trading_mediterranean.tm_players import harbours_only, play
from tests.engine.trading_mediterranean.tm_table import Table

FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}


def tag_of(i: int) -> str:
    return f"piracy in play {i}"


def piracy_turn(tag: str) -> tuple[int | None, Table]:
    """The turn in which the table's game first spends Piracy (None: never), and the table as it then stands."""
    t = Table(FOUR, tag, rules_version=2)
    play(t, FOUR, pick=harbours_only, until=lambda g: g.piracy, warehouses=False)
    return (t.state.turn if t.state.phase != gm.OVER else None), t


def main(tags: int, by_turn: int) -> None:
    for i in range(tags):
        turn, t = piracy_turn(tag_of(i))
        harbours = {s: c.cubes.get("harbour", 0) for s, c in t.state.civs.items()}
        print(f"{tag_of(i)!r}: Piracy spent in turn {turn}; harbours {harbours}", flush=True)
        if turn is not None and turn <= by_turn:
            print(f"found: {tag_of(i)!r}, turn {turn}")
            return
    print(f"none of {tags} tags spends Piracy by turn {by_turn}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
