"""Production: a card per cube, and Waldorf's civic deal from the bottom with at most a pair of one type."""
from __future__ import annotations

import pytest

from engine.tabletop import decks as dk
from engine.trading_mediterranean import production
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ

RULES = default_rules()
CIVIC = next(s for s in RULES.deck_specs() if s.name == "civic")


def civic_deck(bottom_first: list[str], above: list[str]) -> dk.Deck:
    """A civic deck whose order this fold knows: ``above`` on top, then ``bottom_first`` reversed at the bottom."""
    pile = above + list(reversed(bottom_first))
    return dk.Deck(CIVIC, pile, len(pile))


def test_waldorfs_four_cities() -> None:
    # Geoff deals him art, art, wine and art; the third art goes on top and is replaced by a dye.
    deck = civic_deck(["art democracy", "art prosperity", "wine mars", "art barbarians", "dye venus"], ["slaves dictatorship"])
    deal = production.deal_civic(deck, 4, CIVIC.face)
    assert deal.kept == ["art democracy", "art prosperity", "wine mars", "dye venus"]
    assert deal.returned == ["art barbarians"]
    assert deal.short == 0
    assert deck.pile == ["art barbarians", "slaves dictatorship"] and deck.size == 2


def test_a_deck_holding_only_thirds_stops_short_instead_of_looping() -> None:
    deck = civic_deck(["art democracy", "art prosperity", "art barbarians", "art corruption"], [])
    deal = production.deal_civic(deck, 3, CIVIC.face)
    assert deal.kept == ["art democracy", "art prosperity"]
    assert deal.short == 1
    assert deck.size == 2  # both refused arts went back on top


def test_an_empty_deck_leaves_the_rest_owed_for_a_reshuffle() -> None:
    deck = civic_deck(["wine mars"], [])
    deal = production.deal_civic(deck, 2, CIVIC.face)
    assert (deal.kept, deal.short, deck.size) == (["wine mars"], 1, 0)


def test_a_fold_that_does_not_know_the_order_cannot_deal() -> None:
    deck = dk.Deck(CIVIC, None, 3)
    with pytest.raises(ValueError, match="knows the deck's order"):
        production.deal_civic(deck, 1, CIVIC.face)


def test_cards_owed_follow_the_cubes() -> None:
    civ = new_civ(RULES, "Waldorf")
    assert production.owed(RULES, civ) == {"salt": 1, "timber": 1, "wool": 1, "grain": 1, "ore": 1}
    civ.cubes["farm:grain"] = 0
    civ.cubes["city"] = 4
    civ.cubes["harbour"] = 1
    assert production.owed(RULES, civ) == {"salt": 1, "timber": 1, "wool": 1, "ore": 1, "civic": 4, "luxury": 1}


def test_the_luxury_deck_is_reshuffled_after_a_turn_with_piracy() -> None:
    assert production.luxury_reshuffle_due(RULES, ["spice prosperity", "piracy"]) is True
    assert production.luxury_reshuffle_due(RULES, ["spice prosperity", "gold mars"]) is False
