"""The table's words and checks in full (engine/tabletop/table.py): the deck key's content as every campaign sealed
it, the public view, each refusal of a seal and a reveal whole, and what a seal says."""
from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.engine.tabletop.test_table import KEY, beacon, development, event, seal_key

from engine import canonical, secrets
from engine.chance import book as chance
from engine.events import Rejection
from engine.ruleset import Need
from engine.tabletop import decks, hands
from engine.tabletop import table as tb

# The content every campaign's deck-key seal holds: its digest is in their logs, so the words never change.
SEALED_KEY_CONTENT = {"deck key": "the salt of this seal keys every hidden shuffle of this campaign"}


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(Rejection) as refused:
        call()
    return refused.value.reason


def dealt(with_secret: bool = True) -> tuple[tb.Table, chance.ChanceBook]:
    """The development deck keyed and shuffled, one card drawn for A and waiting for its seal."""
    t, book = tb.new_table([development()], ["A", "B"]), chance.ChanceBook()
    seal_key(t, book, 2, with_secret=with_secret)
    tb.advance(t, book, beacon(book, 3, 102))
    tb.deal(t, "development", "A")
    tb.advance(t, book, event(4))
    return t, book


def test_the_deck_key_is_asked_for_and_taken_with_the_content_every_campaign_sealed() -> None:
    t = tb.new_table([development()], ["A"])
    assert tb.needs(t) == [Need("seal", "deck-key", content=canonical.dumps({"content": SEALED_KEY_CONTENT,
                                                                              "public": {}}))]
    digest = secrets.digest(SEALED_KEY_CONTENT, KEY)
    said = tb.on_sealed(t, event(2, secrets.SEALED, data={"key": "deck-key", "sealed": digest},
                                 secret={"content": SEALED_KEY_CONTENT, "salt": KEY}))
    assert said == [f"The deck key is sealed (digest {digest[:12]}…): every hidden shuffle is keyed by it, and it is "
                    "revealed at the game's end."]
    assert t.public()["deck_key"] == {"seq": 2, "sealed": digest}
    other = tb.new_table([development()], ["A"])
    wrong = {"deck key": "another sentence"}
    assert refusal(lambda: tb.on_sealed(other, event(2, secrets.SEALED, data={
        "key": "deck-key", "sealed": secrets.digest(wrong, KEY)}, secret={"content": wrong, "salt": KEY}))) == (
        "the deck key's seal must hold the deck key's content")


def test_a_deck_the_table_lacks_is_refused_with_the_decks_it_has() -> None:
    t = tb.new_table([development(), decks.spec_from_data("relics", {"cards": {"Cup": 1}, "hidden": False})], ["A"])
    assert refusal(lambda: tb.deal(t, "goods", "A")) == "there is no deck 'goods': the decks are development, relics"


def test_a_card_of_an_open_deck_is_held_face_up_and_revealed() -> None:
    relics = decks.spec_from_data("relics", {"cards": {"Cup": 1}, "hidden": False})
    t, book = tb.new_table([relics], ["A"]), chance.ChanceBook()
    tb.advance(t, book, event(1))
    tb.deal(t, "relics", "A")
    tb.advance(t, book, beacon(book, 2, 101))
    assert t.holdings["A"].cards == [hands.Held("relics.1", "relics", "Cup", card="Cup", revealed=True)]


def test_a_seal_with_no_card_waiting_names_none_as_the_next() -> None:
    t = tb.new_table([development()], ["A"])
    tb.on_sealed(t, event(2, secrets.SEALED, data={"key": "deck-key", "sealed": secrets.digest(SEALED_KEY_CONTENT, KEY)}))
    assert refusal(lambda: tb.on_sealed(t, event(3, secrets.SEALED, data={"key": "development.1", "sealed": "0" * 64}))) == (
        "no card drawn as 'development.1' waits for its seal (the next is none)")


def _seal(t: tb.Table, seq: int, **public: str) -> list[str]:
    need_public = {"deck": "development", "seat": "A", "face": "development", "from": "top", **public}
    return tb.on_sealed(t, event(seq, secrets.SEALED, data={"key": "development.1", **need_public, "sealed": "c" * 64}))


def test_a_seal_naming_another_seat_or_face_is_refused_whole() -> None:
    t, _ = dealt()
    assert refusal(lambda: _seal(t, 5, seat="B")) == (
        "the seal of 'development.1' names another deck or seat than the draw (development, A)")
    assert refusal(lambda: _seal(t, 5, face="Law")) == (
        "the seal of 'development.1' shows the face 'Law', not the card's 'development'")
    export, _ = dealt(with_secret=False)  # the export's fold does not know the card: the face must be the deck's
    assert refusal(lambda: _seal(export, 5, face="Law")) == "'Law' is not a face of the development deck"
    assert _seal(export, 5) == ["A draws a card from the top of the development deck, face down: development.1, "
                                f"sealed {'c' * 12}…"]


def test_a_seal_showing_a_face_other_than_the_decks_name_says_it() -> None:
    spec = decks.spec_from_data("development", {"cards": {"Law": 1}, "faces": {"Law": "turn 2"}})
    t, book = tb.new_table([spec], ["A"]), chance.ChanceBook()
    seal_key(t, book, 2, with_secret=False)
    tb.advance(t, book, beacon(book, 3, 102))
    tb.deal(t, "development", "A")
    tb.advance(t, book, event(4))
    assert _seal(t, 5, face="turn 2") == ["A draws a card from the top of the development deck, face down (it shows "
                                          f"turn 2): development.1, sealed {'c' * 12}…"]


def test_a_sealed_card_is_asked_for_once_and_only_from_its_holder() -> None:
    t, _ = dealt()
    need = tb.needs(t)[0]
    spec = json.loads(need.content)
    tb.on_sealed(t, event(5, secrets.SEALED, data={"key": need.key, **spec["public"],
                                                   "sealed": secrets.digest(spec["content"], KEY)},
                          secret={"content": spec["content"], "salt": KEY}))
    assert refusal(lambda: tb.reveal(t, "B", "development.1")) == "B holds no card 'development.1'"
    assert tb.reveal(t, "A", "development.1").seq == 5 and t.due == [5]
    tb.reveal(t, "A", "development.1")
    assert t.due == [5]
    card, digest = spec["content"]["card"], secrets.digest(spec["content"], KEY)
    said = tb.on_revealed(t, event(6, secrets.REVEALED, data={"seq": 5, "content": spec["content"], "salt": KEY}))
    assert said == [f"Card development.1 is revealed: {card} (it matches digest {digest[:12]}…)."]
    tb.reveal_all(t)
    assert t.due == [2]
    said = tb.on_revealed(t, event(7, secrets.REVEALED, data={"seq": 2, "content": SEALED_KEY_CONTENT, "salt": KEY}))
    assert said == [f"The deck key is revealed ({KEY}): anyone can now derive every shuffle again."]
    assert (t.key, t.key_revealed, t.due) == (KEY, True, [])


def test_the_sealed_events_of_a_table_are_the_key_and_the_sealed_cards_only() -> None:
    t, _ = dealt(with_secret=False)
    _seal(t, 5)
    t.holdings["B"].cards.append(hands.Held("relics.1", "relics", "Cup", card="Cup", revealed=True))  # face up
    assert tb.sealed_seqs(t) == {2, 5}


def test_the_key_is_sealed_once_and_nothing_sealed_is_revealed_before_it_is_due() -> None:
    t, _ = dealt()
    again = event(5, secrets.SEALED, data={"key": "deck-key", "sealed": "b" * 64})
    assert refusal(lambda: tb.on_sealed(t, again)) == "the deck key is already sealed (event #2); it is sealed once"
    early = event(5, secrets.REVEALED, data={"seq": 2, "content": SEALED_KEY_CONTENT, "salt": KEY})
    assert refusal(lambda: tb.on_revealed(t, early)) == "the deck key is revealed at the game's end, not before"
    need = tb.needs(t)[0]
    spec = json.loads(need.content)
    tb.on_sealed(t, event(5, secrets.SEALED, data={"key": need.key, **spec["public"],
                                                   "sealed": secrets.digest(spec["content"], KEY)},
                          secret={"content": spec["content"], "salt": KEY}))
    card = event(6, secrets.REVEALED, data={"seq": 5, "content": spec["content"], "salt": KEY})
    assert refusal(lambda: tb.on_revealed(t, card)) == (
        "the card sealed in event #5 is not due to be revealed: it stays with its holder")
