"""The names in an order's slots (engine/mare_nostrum/order_slots.py), read directly: what a reader gets back for
a slot, and the refusals it raises. The whole lines are tested through parse_post in test_parse.py."""
from __future__ import annotations

import pytest

from engine.mare_nostrum.order_slots import Clauses, Vocabulary, resolve
from engine.mare_nostrum.order_words import Line, Reject, Tok, tokens


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    return Vocabulary.from_names(
        provinces={"Latium": ("Rome",), "Apulia": ("Puglia",)},
        seas={"Mare Adriaticum": ("Adriatic",)},
        nations={"Romans": ("Rome's people",)},
        invaders={"Gauls": ()},
    )


def _line(text: str) -> Line:
    return Line(text, tokens(text))


def test_a_slot_resolves_to_the_canonical_name(vocab: Vocabulary) -> None:
    line = _line("build temple in Puglia")
    assert resolve(line, line.toks[3:], vocab.provinces, vocab) == "Apulia"


def test_a_name_of_another_kind_is_refused_as_a_slot_mistake(vocab: Vocabulary) -> None:
    line = _line("build temple in Adriatic")
    with pytest.raises(Reject) as refused:
        resolve(line, line.toks[3:], vocab.provinces, vocab)
    assert str(refused.value) == "'Adriatic' is a sea (Mare Adriaticum), not a province"


@pytest.mark.parametrize("empty", [None, []])
def test_an_empty_slot_is_refused_with_what_to_say(vocab: Vocabulary, empty: list[Tok] | None) -> None:
    # The readers refuse a missing slot before they resolve it; resolve still answers one in words, not a crash.
    line = _line("build temple in")
    with pytest.raises(Reject) as refused:
        resolve(line, empty, vocab.provinces, vocab)
    assert str(refused.value) == "'build temple in': say which province"


def test_marker_words_cut_a_line_into_its_clauses() -> None:
    clauses = Clauses(tokens("Apulia from Latium through the Adriatic"))
    assert [t.word for t in clauses.take_lead() or []] == ["apulia"]
    assert [t.word for t in clauses.take("through") or []] == ["the", "adriatic"]
    assert [t.word for t in clauses.take("from") or []] == ["latium"]
    assert clauses.leftover() == []
