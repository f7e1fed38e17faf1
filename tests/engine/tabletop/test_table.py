"""The table: the deck key before any hidden shuffle, shuffles settled from the chance book, piles stacked by turn,
draws from the top and the bottom sealed to their holder, a reshuffle of the discard pile, and what the export's fold
(without the key) knows."""
from __future__ import annotations

import json

import pytest

from engine import canonical, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.tabletop import decks, shuffle
from engine.tabletop import table as tb

KEY = "5eed" * 8
RANDOMNESS = canonical.sha256_hex("a beacon")


def event(seq: int, kind: str = "x", actor: str = "legatus", data: dict | None = None, secret: dict | None = None) -> Event:
    return Event(seq, kind, actor, data or {}, draws=(f"drand:{100 + seq}",), secret=secret)


def seal_key(t: tb.Table, book: chance.ChanceBook, seq: int, with_secret: bool) -> None:
    digest = secrets.digest(tb.KEY_CONTENT, KEY)
    e = event(seq, secrets.SEALED, data={"key": tb.KEY, "sealed": digest},
              secret={"content": tb.KEY_CONTENT, "salt": KEY} if with_secret else None)
    tb.on_sealed(t, e)
    tb.advance(t, book, e)


def beacon(book: chance.ChanceBook, seq: int, round_no: int) -> Event:
    e = event(seq, "beacon.recorded", data={"round": round_no, "randomness": RANDOMNESS})
    chance.record(book, e)
    return e


def development() -> decks.DeckSpec:
    return decks.spec_from_data("development", {"piles": [{"Pottery": 1, "Law": 1}, {"Flood": 1, "Mining": 1}]})


def test_a_hidden_deck_waits_for_the_key_then_stacks_its_piles_by_turn() -> None:
    t, book = tb.new_table([development()], ["A", "B"]), chance.ChanceBook()
    assert tb.advance(t, book, event(1)) == [] and book.bindings == []  # no shuffle before the key
    assert [n.key for n in tb.needs(t)] == [tb.KEY]
    seal_key(t, book, 2, with_secret=True)
    (binding,) = book.bindings
    assert (binding.label, binding.where, binding.lo, binding.hi, binding.count) == (
        "development.shuffle1", ["drand:102"], 1, 2**31, 2)
    said = tb.advance(t, book, beacon(book, 3, 102))
    assert said == ["The development deck is shuffled (4 cards); its order stays hidden."]
    k = shuffle.shuffle_key("development.shuffle1", binding.values or [], KEY)
    expected = shuffle.permute(["Law", "Pottery"], k, "development.shuffle1.0") + shuffle.permute(
        ["Flood", "Mining"], k, "development.shuffle1.1")
    assert t.decks["development"].pile == expected  # turn 1's pile entirely above turn 2's


def test_cards_drawn_from_the_top_and_the_bottom_are_sealed_in_draw_order() -> None:
    t, book = tb.new_table([development()], ["A", "B"]), chance.ChanceBook()
    seal_key(t, book, 2, with_secret=True)
    tb.advance(t, book, beacon(book, 3, 102))
    pile = list(t.decks["development"].pile or [])
    tb.deal(t, "development", "A")
    tb.deal(t, "development", "B", decks.BOTTOM)
    tb.advance(t, book, event(4))
    first, second = tb.needs(t)[0], None
    assert json.loads(first.content) == {"content": {"card": pile[0], "deck": "development", "draw": "development.1"},
                                         "public": {"deck": "development", "face": "development", "from": "top", "seat": "A"}}
    with pytest.raises(Rejection, match="no card drawn as 'development.2' waits for its seal \\(the next is development.1\\)"):
        tb.on_sealed(t, event(5, secrets.SEALED, data={"key": "development.2", "sealed": "0" * 64}))
    wrong = {"card": pile[1], "deck": "development", "draw": "development.1"}
    with pytest.raises(Rejection, match="the card sealed as 'development.1' is not the one its shuffle puts there"):
        tb.on_sealed(t, event(5, secrets.SEALED, data={"key": "development.1", "deck": "development", "seat": "A",
                                                       "face": "development", "sealed": secrets.digest(wrong, KEY)},
                              secret={"content": wrong, "salt": KEY}))
    for seq, need in ((5, first), (6, None)):
        need = need or tb.needs(t)[0]
        spec = json.loads(need.content)
        second = spec["content"]["card"]
        tb.on_sealed(t, event(seq, secrets.SEALED, data={"key": need.key, **spec["public"],
                                                         "sealed": secrets.digest(spec["content"], KEY)},
                              secret={"content": spec["content"], "salt": KEY}))
    assert [h.card for h in t.holdings["A"].cards] == [pile[0]] and second == pile[-1]
    assert t.holdings["B"].public()["held"][0] == {"id": "development.2", "deck": "development", "face": "development",
                                                   "sealed": t.holdings["B"].cards[0].digest}


def test_the_export_fold_knows_sizes_only_and_a_reshuffle_goes_under_the_pile() -> None:
    t, book = tb.new_table([development()], ["A"]), chance.ChanceBook()
    seal_key(t, book, 2, with_secret=False)  # the export: the seal without its content
    tb.advance(t, book, beacon(book, 3, 102))
    deck = t.decks["development"]
    assert (deck.pile, deck.size, t.key) == (None, 4, None)
    tb.deal(t, "development", "A")
    tb.advance(t, book, event(4))
    assert tb.needs(t) == [] and t.public()["waiting"] == ["development.1"]  # only the bot can make that seal
    decks.discard(deck, "Law")
    said = tb.reshuffle(t, book, event(5), "development")
    assert said == "The development deck's reshuffle is bound to drand quicknet round 105, label 'development.reshuffle2'."
    tb.advance(t, book, beacon(book, 6, 105))
    assert (deck.size, deck.discard, deck.pile) == (4, [], None)


def test_an_open_deck_needs_no_key_and_shows_its_order() -> None:
    relics = decks.spec_from_data("relics", {"cards": {"Cup": 1, "Lamp": 1, "Mirror": 1}, "hidden": False})
    t, book = tb.new_table([relics], ["A"]), chance.ChanceBook()
    assert tb.needs(t) == []
    tb.advance(t, book, event(1))
    tb.deal(t, "relics", "A", decks.BOTTOM)
    said = tb.advance(t, book, beacon(book, 2, 101))
    order = shuffle.permute(["Cup", "Lamp", "Mirror"], shuffle.shuffle_key("relics.shuffle1", book.bindings[0].values or [], None),
                            "relics.shuffle1.0")
    assert said == [f"The relics deck is shuffled (3 cards): from the top, {', '.join(order)}.",
                    f"A draws {order[-1]} from the bottom of the relics deck."]
    assert t.decks["relics"].public()["pile"] == order[:2]


def test_where_the_key_comes_first_nothing_but_its_seal_is_taken_before_it() -> None:
    t = tb.new_table([development()], ["A", "B"], key_first=True)
    with pytest.raises(Rejection) as exc:
        tb.check_key_first(t, event(2, "trade.offered", actor="ann"))
    assert exc.value.reason == ("the deck key is sealed first, when the campaign is created; 'trade.offered' "
                                "(event #2) cannot come before it")
    with pytest.raises(Rejection):  # a seal of anything else is no key
        tb.check_key_first(t, event(2, secrets.SEALED, data={"key": "development.1"}))
    tb.check_key_first(t, event(2, secrets.SEALED, data={"key": tb.KEY}))
    seal_key(t, tb_book := chance.ChanceBook(), 2, with_secret=True)
    assert tb_book.bindings and t.key_seq == 2
    tb.check_key_first(t, event(3, "trade.offered", actor="ann"))  # once sealed, the game goes on


def test_a_table_of_the_first_logs_takes_events_before_its_key() -> None:
    t = tb.new_table([development()], ["A", "B"])  # key_first False: the deck key was sealed at the first post
    tb.check_key_first(t, event(2, "player.assigned", actor="gm"))
    open_only = tb.new_table([decks.spec_from_data("relics", {"cards": {"Cup": 1}, "hidden": False})], ["A"],
                             key_first=True)
    tb.check_key_first(open_only, event(2, "player.assigned", actor="gm"))  # no hidden deck: no key to wait for


def test_a_draw_queued_before_the_key_waits_for_it_instead_of_finding_the_deck_empty() -> None:
    t, book = tb.new_table([development()], ["A"]), chance.ChanceBook()
    tb.deal(t, "development", "A")
    assert tb.advance(t, book, event(1)) == [] and [d.label for d in t.queue] == ["development.1"]
    seal_key(t, book, 2, with_secret=True)
    tb.advance(t, book, beacon(book, 3, 102))
    assert t.queue == [] and [d.label for d, _, _ in t.sealing] == ["development.1"]


def luxury() -> decks.DeckSpec:
    return decks.spec_from_data("luxury", {"cards": {"spice venus": 1, "spice mars": 1, "gold venus": 1, "gold mars": 1,
                                                     "piracy": 1}})


def test_a_whole_deck_gathered_shuffles_its_draw_pile_with_its_discard_pile() -> None:
    bot, export = (tb.new_table([luxury()], ["A"]), chance.ChanceBook()), (tb.new_table([luxury()], ["A"]), chance.ChanceBook())
    for (t, book), knows in ((bot, True), (export, False)):
        seal_key(t, book, 2, with_secret=knows)
        tb.advance(t, book, beacon(book, 3, 102))
    before = list(bot[0].decks["luxury"].pile or [])
    assert before == ["gold venus", "piracy", "gold mars", "spice venus", "spice mars"]
    for t, book in (bot, export):
        tb.deal(t, "luxury", "A")
        tb.advance(t, book, event(4))
        decks.discard(t.decks["luxury"], before[0])  # the card dealt, spent and discarded face up
        said = tb.reshuffle_whole(t, book, event(5), "luxury")
        assert said == "The luxury deck's gathering is bound to drand quicknet round 105, label 'luxury.gathering2'."
        deck = t.decks["luxury"]
        assert (deck.size, deck.discard) == (0, [])  # nothing to draw until the gathering's value is out
        with pytest.raises(Rejection, match="the luxury deck is being shuffled: it waits for its public value"):
            decks.take(deck)
        tb.advance(t, book, beacon(book, 6, 105))
        assert (deck.size, deck.discard) == (5, [])
    # The bot's fold (and verify's, with the key) knows the new order: every card, the discarded one among them.
    assert bot[0].decks["luxury"].pile == ["spice mars", "gold mars", "spice venus", "piracy", "gold venus"]
    (_, gathering) = bot[1].bindings
    k = shuffle.shuffle_key("luxury.gathering2", gathering.values or [], KEY)
    assert bot[0].decks["luxury"].pile == shuffle.permute(sorted(before), k, "luxury.gathering2.0")
    assert export[0].decks["luxury"].pile is None and export[0].public()["decks"] == bot[0].public()["decks"]
