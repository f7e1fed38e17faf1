"""Decks as data, and the moves on a deck's piles."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.tabletop import decks


def test_a_deck_is_read_from_data_with_its_counts_faces_and_stacked_piles() -> None:
    spec = decks.spec_from_data("development", {"piles": [{"Pottery": 2}, {"Law": 1, "Calamity": 1}],
                                                "hidden": True, "faces": {"Calamity": "turn 2"}})
    assert spec.piles == (("Pottery", "Pottery"), ("Calamity", "Law"))
    assert spec.face("Calamity") == "turn 2" and spec.face("Law") == "development"
    assert spec.faces_shown() == ["development", "turn 2"]
    open_deck = decks.spec_from_data("relics", {"cards": {"Cup": 1}, "hidden": False})
    assert open_deck.face("Cup") == "Cup" and not open_deck.hidden


@pytest.mark.parametrize("data, said", [
    ({"cards": {"grain": 0}}, "deck 'goods': card 'grain' has count 0; a count is 1 to 500"),
    ({"cards": {"grain": "3"}}, "deck 'goods': card 'grain' has count '3'; a count is 1 to 500"),
    ({"cards": {}}, "deck 'goods', pile 1: a pile is a table of cards (card = count), not {}"),
    ({"cards": {"grain": 1}, "hidden": "yes"}, "deck 'goods': 'hidden' is true or false, not 'yes'"),
    ({"cards": {"grain": 1}, "faces": {"oil": "x"}}, "deck 'goods': faces name card(s) not in the deck: oil"),
])
def test_bad_deck_data_is_refused_with_what_was_wrong(data: dict, said: str) -> None:
    with pytest.raises(Rejection) as exc:
        decks.spec_from_data("goods", data)
    assert exc.value.reason == said


def test_draws_from_the_top_and_the_bottom_discards_and_a_reshuffle() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"cards": {"a": 1, "b": 1, "c": 1}, "hidden": False}))
    shuffle = decks.Shuffle("d.shuffle1", 1, [["a", "b", "c"]])
    deck.shuffles.append(shuffle)
    with pytest.raises(Rejection, match="the d deck is being shuffled: it waits for its public value"):
        decks.take(deck)
    decks.place(deck, shuffle, [["c", "a", "b"]])
    assert (decks.take(deck), decks.take(deck, decks.BOTTOM), deck.size) == ("c", "b", 1)
    decks.discard(deck, "c")
    assert decks.reshuffle_pile(deck) == ["c"] and deck.discard == []
    with pytest.raises(Rejection, match="the d deck has no discard pile to reshuffle"):
        decks.reshuffle_pile(deck)
    assert decks.take(deck) == "a"
    with pytest.raises(Rejection, match="^the d deck is empty$"):
        decks.take(deck)
    with pytest.raises(Rejection, match="'z' is not a card of the d deck"):
        decks.discard(deck, "z")


def test_a_fold_without_the_key_knows_only_the_size() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"cards": {"a": 2}}))
    shuffle = decks.Shuffle("d.shuffle1", 1, [["a", "a"]])
    deck.shuffles.append(shuffle)
    decks.place(deck, shuffle, None)
    assert (deck.pile, deck.size, decks.take(deck), deck.size) == (None, 2, None, 1)
    assert "pile" not in deck.public()
