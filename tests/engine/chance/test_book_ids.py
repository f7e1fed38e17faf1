"""The shared chance book (engine/chance/book.py) never hands a roll id out twice: after an undo the fold rebuilds
the book without the undone binding and ``carry`` keeps what was handed out, the next id included."""
from __future__ import annotations

from engine.chance import book as chance
from engine.events import Event


def test_a_roll_bound_after_an_undo_takes_a_fresh_id_and_a_fresh_round() -> None:
    """GM with Discord: roll, undo, roll again; "roll #1" in the first post must not come to name the second."""
    asking = Event(seq=2, kind="order", actor="ann", draws=("drand:100",))
    before = chance.ChanceBook(source=chance.DRAND)
    first = chance.ask(before, asking, "siege", 1, 6)
    rebuilt = chance.ChanceBook(source=chance.DRAND)  # the fold without the undone order
    chance.carry(before, rebuilt)
    again = chance.ask(rebuilt, Event(seq=4, kind="order", actor="ann", draws=("drand:100",)), "siege", 1, 6)
    assert (first.id, again.id) == (1, 2)
    assert again.label != first.label
