"""The chance book's refusals in full (engine/chance/book.py): an unknown source named at creation or held by a
book built by hand, and the first roll id a game may give (its book's next one, never one before)."""
from __future__ import annotations

import pytest

from engine.chance import book as chance
from engine.events import Event, Rejection


def _event() -> Event:
    return Event(seq=1, kind="roll", actor="gm", data={}, draws=("drand:9",))


def test_an_unknown_source_is_refused_at_creation_quoted_to_forty_characters_with_every_name() -> None:
    with pytest.raises(Rejection) as short:
        chance.new_book("dice cup", {})
    assert short.value.reason == "unknown randomness 'dice cup': use lottery, drand, commit-reveal, fixed"
    with pytest.raises(Rejection) as long:
        chance.new_book("0123456789" * 5, {})
    assert long.value.reason == ("unknown randomness '0123456789012345678901234567890123456789': "
                                 "use lottery, drand, commit-reveal, fixed")


def test_a_binding_of_an_unknown_source_in_a_book_built_by_hand_is_refused_by_name() -> None:
    binding = chance.Binding(1, "siege", 1, 6, 1, "dice cup", ["siege"])
    with pytest.raises(Rejection) as refused:
        chance.describe(binding)
    assert refused.value.reason == "unknown source of chance 'dice cup'"


def test_a_game_may_give_its_books_next_id_itself() -> None:
    book = chance.new_book(chance.DRAND, {})
    chance.ask(book, _event(), "a", 1, 6)
    assert book.next_id == 2
    given = chance.ask(book, _event(), "b", 1, 6, roll_id=2)
    assert (given.id, book.next_id) == (2, 3)
    with pytest.raises(Rejection) as reused:
        chance.ask(book, _event(), "c", 1, 6, roll_id=2)
    assert reused.value.reason == "roll #2 comes before this book's next id #3; a roll's id is never reused"
