"""Decks as data, and the moves on a deck's piles."""
from __future__ import annotations

import dataclasses

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


@pytest.mark.parametrize("data, said", [
    (["grain"], "deck 'goods' must be a table of cards, not ['grain']"),
    ({"piles": []}, "deck 'goods': 'piles' must be a list of tables of cards (card = count)"),
    ({"piles": {"grain": 1}}, "deck 'goods': 'piles' must be a list of tables of cards (card = count)"),
    ({"piles": [{"grain": 1}, ["oil"]]}, "deck 'goods', pile 2: a pile is a table of cards (card = count), not ['oil']"),
    ({"cards": {"grain": 501}}, "deck 'goods': card 'grain' has count 501; a count is 1 to 500"),
    ({"cards": {"grain": True}}, "deck 'goods': card 'grain' has count True; a count is 1 to 500"),
    ({"cards": {"grain": 1}, "faces": ["grain"]}, "deck 'goods': faces name card(s) not in the deck: (not a table)"),
    ({"cards": {"grain": 1}, "faces": {"wine": "x", "oil": "y"}},
     "deck 'goods': faces name card(s) not in the deck: oil, wine"),
])
def test_bad_deck_data_is_refused_at_each_end_of_each_bound(data: object, said: str) -> None:
    with pytest.raises(Rejection) as exc:
        decks.spec_from_data("goods", data)  # type: ignore[arg-type]  # the point: data that is not a table
    assert exc.value.reason == said


def test_a_deck_is_hidden_unless_its_data_says_otherwise_and_counts_run_1_to_500() -> None:
    spec = decks.spec_from_data("goods", {"cards": {"wine": 1, "grain": 500}})
    assert spec.hidden is True and spec.piles == (("grain",) * 500 + ("wine",),)
    assert spec.face("wine") == "goods" and spec.faces_shown() == ["goods"]
    assert spec.cards() == ["grain"] * 500 + ["wine"]
    stacked = decks.spec_from_data("dev", {"piles": [{"b": 1, "a": 1}, {"c": 1}], "hidden": False})
    assert stacked.cards() == ["a", "b", "c"] and stacked.faces_shown() == ["a", "b", "c"]


def test_shuffled_piles_go_under_what_is_left_and_an_open_deck_shows_its_order() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"piles": [{"a": 1}, {"b": 1, "c": 1}], "hidden": False}))
    assert (deck.pile, deck.size, deck.drawn, deck.ready()) == ([], 0, 0, True)
    first = decks.Shuffle("d.shuffle1", 1, [["a"], ["b", "c"]])
    deck.shuffles.append(first)
    assert deck.ready() is False
    decks.place(deck, first, [["a"], ["c", "b"]])
    assert (deck.pile, deck.size, deck.ready()) == (["a", "c", "b"], 3, True)
    assert decks.take(deck) == "a" and (deck.size, deck.drawn) == (2, 1)
    decks.discard(deck, "a")
    second = decks.Shuffle("d.shuffle2", 4, [decks.reshuffle_pile(deck)])
    deck.shuffles.append(second)
    assert deck.public() == {"size": 2, "discard": [], "hidden": False, "pile": ["c", "b"], "shuffles": [
        {"label": "d.shuffle1", "roll": 1, "done": True}, {"label": "d.shuffle2", "roll": 4, "done": False}]}
    decks.place(deck, second, [["a"]])
    assert (deck.pile, deck.size) == (["c", "b", "a"], 3)
    assert [decks.take(deck, decks.BOTTOM), decks.take(deck), decks.take(deck)] == ["a", "c", "b"]
    assert (deck.size, deck.drawn) == (0, 4)


def test_a_draw_is_from_the_top_or_the_bottom_and_an_empty_deck_says_what_to_do() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"cards": {"a": 1}}))
    shuffle = decks.Shuffle("d.shuffle1", 1, [["a"]])
    deck.shuffles.append(shuffle)
    decks.place(deck, shuffle, [["a"]])
    with pytest.raises(Rejection) as where:
        decks.take(deck, "middle")
    assert where.value.reason == "a card is drawn from the top or the bottom, not 'middle'"
    assert deck.size == 1 and decks.take(deck) == "a"
    decks.discard(deck, "a")
    with pytest.raises(Rejection) as empty:
        decks.take(deck)
    assert empty.value.reason == "the d deck is empty: reshuffle its discard pile"
    assert deck.public() == {"size": 0, "discard": ["a"], "hidden": True,
                             "shuffles": [{"label": "d.shuffle1", "roll": 1, "done": True}]}
    assert (deck.size, deck.drawn) == (0, 1)


def test_a_reshuffle_takes_up_the_discard_pile_sorted() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"cards": {"a": 1, "b": 1, "c": 1}}))
    for card in ["c", "a", "b"]:
        decks.discard(deck, card)
    assert decks.reshuffle_pile(deck) == ["a", "b", "c"] and deck.discard == []


def test_a_deck_spec_cannot_be_changed_once_read() -> None:
    """One spec serves every fold of a campaign (the bot's and the export's tables are built from the ruleset's):
    a fold that changed it would change the other's deck."""
    spec = decks.spec_from_data("relics", {"cards": {"Cup": 1}, "hidden": False})
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(spec, "hidden", True)
    same = decks.DeckSpec("relics", (("Cup",),), False)
    assert spec == same and hash(spec) == hash(same)


def test_a_new_deck_is_empty_until_its_first_shuffle_is_placed() -> None:
    deck = decks.new_deck(decks.spec_from_data("d", {"cards": {"a": 1}}))
    assert (deck.pile, deck.size, deck.discard, deck.shuffles, deck.drawn, deck.ready()) == ([], 0, [], [], 0, True)
    with pytest.raises(Rejection) as empty:
        decks.take(deck)
    assert empty.value.reason == "the d deck is empty"
