"""The book's mark of its settled rolls (engine/chance/book.py ``settled_upto``): a speed-up a fold does not differ by,
so two books holding the same rolls are equal wherever their marks stand (a snapshot pickled before it finds 0)."""
from __future__ import annotations

from engine.chance import book as chance
from engine.events import Event

RANDOMNESS = "ab" * 32


def _event(kind: str = "roll", data: dict | None = None) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=("drand:9",))


def test_a_book_restored_without_its_mark_equals_the_book_it_was_taken_from() -> None:
    book = chance.new_book(chance.DRAND, {})
    chance.ask(book, _event(), "siege", 1, 6)
    chance.record(book, _event("beacon.recorded", {"round": 9, "randomness": RANDOMNESS}))
    chance.settle(book, _event())
    book.advance()
    assert book.settled_upto == 1 and book.pending() == []
    restored = chance.ChanceBook.__new__(chance.ChanceBook)
    restored.__setstate__({k: v for k, v in book.__dict__.items() if k != "settled_upto"})
    assert restored.settled_upto == 0 and restored == book
