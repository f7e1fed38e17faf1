"""Rules version 2: after a turn in which Piracy was played the whole luxury deck is reshuffled (seed: "The luxury
deck is reshuffled at the end of any turn in which the Piracy card was played"), its draw pile with its discard
pile, bound to the public randomness and keyed by the deck key like every hidden shuffle. Piracy passes for a luxury
good in trade and earns nothing when spent."""
from __future__ import annotations

from engine.tabletop import shuffle
from engine.trading_mediterranean import game as gm
from engine.verify import verify
from tests.engine.trading_mediterranean.tm_players import harbours_only, play
from tests.engine.trading_mediterranean.tm_table import RULES, Table, replay

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


def test_a_scripted_game_deals_piracy_spends_it_and_gathers_the_whole_luxury_deck_again() -> None:
    # The players buy harbours and warehouse nothing; the tag is the second that find_piracy_game.py tried (the
    # first spends no Piracy in six turns): Bob's harbour is dealt Piracy in turn 2.
    t = Table(FOUR, "piracy in play 1", rules_version=2)
    play(t, FOUR, pick=harbours_only, warehouses=False, until=lambda g: (g.turn, g.phase) == (2, gm.TRADING))
    luxury = {s: [(h.id, h.face, h.card) for h in hold.cards if h.deck == "luxury"]
              for s, hold in t.state.table.holdings.items() if s in FOUR}
    assert luxury == {"Ann": [("luxury.1", "luxury", "spice poverty")], "Bob": [("luxury.2", "luxury", "piracy")],
                      "Cat": [], "Dan": []}
    play(t, FOUR, pick=harbours_only, warehouses=False, until=lambda g: g.piracy)
    g = t.state
    assert (g.turn, g.phase) == (2, gm.CALAMITY)
    assert "Card luxury.2 is revealed: piracy (it matches digest 459defd466f2…)." in t.messages
    # Bob's spice or gold was Piracy: no luxury income, where Ann's spice earned $3.
    assert [m for m in t.messages if " earns $" in m][-4:] == [
        "Ann earns $7 (ore $1, salt $1, spice $3, timber $1, wool $1)", "Bob earns $5 (ore $1, salt $3, wool $1)",
        "Dan earns $5 (grain $1, ore $1, salt $1, timber $1, wool $1)", "Cat earns $6 (grain $1, ore $1, timber $3, wool $1)"]
    deck = g.table.decks["luxury"]
    drawn, spent = list(deck.pile or []), list(deck.discard)
    assert (len(drawn), spent, [s.label for s in deck.shuffles]) == (23, ["spice poverty", "piracy"], ["luxury.shuffle1"])

    play(t, FOUR, pick=harbours_only, warehouses=False, until=lambda g: (g.turn, g.phase) == (3, gm.CIVIC))
    g = t.state
    deck = g.table.decks["luxury"]
    gathering = deck.shuffles[-1]
    (binding,) = [b for b in g.book.bindings if b.id == gathering.roll]
    assert (gathering.label, gathering.done, binding.where) == ("luxury.gathering2", True, ["drand:1162"])
    assert "The luxury deck's gathering is bound to drand quicknet round 1162, label 'luxury.gathering2'." in t.messages
    # The draw pile and the discard pile gathered, shuffled under the deck key; turn 3 deals from the top of it, and
    # the spice poverty Ann spent in turn 2 comes back to her.
    k = shuffle.shuffle_key("luxury.gathering2", binding.values or [], g.table.key)
    gathered = shuffle.permute(sorted(drawn + spent), k, "luxury.gathering2.0")
    assert gathered[:2] == ["spice poverty", "spice dictatorship"] and gathered.index("piracy") == 15
    assert (deck.pile, deck.discard, deck.size) == (gathered[2:], [], 23)
    assert [(h.id, h.card) for h in g.table.holdings["Ann"].cards if h.deck == "luxury"] == [("luxury.3", "spice poverty")]
    assert [(h.id, h.card) for h in g.table.holdings["Bob"].cards if h.deck == "luxury"] == [("luxury.4", "spice dictatorship")]
    assert not g.piracy

    play(t, FOUR, pick=harbours_only, warehouses=False)
    assert (t.state.phase, t.state.outcome, len(t.events)) == (gm.OVER, "Ann wins with 12 VP (Ann 12, Cat 8, Bob 7, Dan 6)", 456)
    exported = t.export()
    public = replay(exported)
    assert public.head == t.folded.head and RULES.public_view(public.state) == RULES.public_view(t.state)
    result = verify(RULES, exported, {}, beacon_check=lambda data: None)
    assert [str(f) for f in result.findings] == []
    assert result.notes[0] == ("150 sealed content(s) revealed and replayed as the bot's fold ran them; 150 of the 150 "
                               "the bot sealed itself (stratagem markers drawn) are among them")
