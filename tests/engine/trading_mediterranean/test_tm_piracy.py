"""Rules version 2: after a turn in which Piracy was played the whole luxury deck is reshuffled (seed: "The luxury
deck is reshuffled at the end of any turn in which the Piracy card was played"), its draw pile with its discard
pile, bound to the public randomness and keyed by the deck key like every hidden shuffle."""
from __future__ import annotations

from engine.tabletop import shuffle
from engine.trading_mediterranean import game as gm
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import Table

FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}


def test_after_piracy_the_whole_luxury_deck_is_shuffled_again() -> None:
    t = Table(FOUR, "piracy", rules_version=2)
    play(t, FOUR, until=lambda g: g.phase == gm.PURCHASING)
    deck = t.state.table.decks["luxury"]
    before = list(deck.pile or [])
    assert (len(before), deck.size, deck.discard) == (25, 25, [])  # nobody has a harbour yet: none dealt
    t.state.piracy = True  # as if a Piracy card had been spent this turn (no harbour deals one in turn 1)
    for user in FOUR.values():
        assert t.order(user, "done") == []
    deck = t.state.table.decks["luxury"]
    gathering = deck.shuffles[-1]
    assert (gathering.label, gathering.done, deck.size) == ("luxury.gathering2", True, 25)
    assert any(m.startswith("The luxury deck's gathering is bound to drand quicknet round") for m in t.messages)
    values = next(b.values for b in t.state.book.bindings if b.id == gathering.roll)
    k = shuffle.shuffle_key("luxury.gathering2", values or [], t.state.table.key)
    assert deck.pile == shuffle.permute(sorted(before), k, "luxury.gathering2.0") != before
    assert deck.pile[:5] == ["piracy", "gold barbarians", "gold prosperity", "gold poverty", "spice poverty"]
    assert t.state.turn == 2 and not t.state.piracy
