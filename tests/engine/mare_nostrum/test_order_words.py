"""The words of an order line (engine/mare_nostrum/order_words.py): tokens that quote the player's own spelling
back, and the keyword a first word stands for."""
from __future__ import annotations

import pytest

from engine.mare_nostrum.order_words import Head, Line, classify, tokens


def test_tokens_are_normalised_and_keep_their_span_in_the_line() -> None:
    text = "Attack Sicília from Rome's"
    toks = tokens(text)
    assert [t.word for t in toks] == ["attack", "sicilia", "from", "romes"]
    assert Line(text, toks).span(toks[1:2]) == "Sicília"


@pytest.mark.parametrize(("word", "head"), [
    ("invade", Head("attack", "invade", "exact")),
    ("fort", Head("fortify", "fortify", "prefix")),
    ("atack", Head("attack", "attack", "near")),
    ("for", None),  # a common word that begins a keyword is not one
    ("sea", Head("sea", "sea", "exact")),
    ("se", None),  # short everyday words are never guessed
])
def test_a_first_word_stands_for_a_keyword_exactly_by_its_beginning_or_by_a_near_miss(word: str,
                                                                                        head: Head | None) -> None:
    assert classify(word) == head
