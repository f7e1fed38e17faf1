"""Production on the tabletop's hidden decks: both folds show the same public table; the civic deal keeps
Waldorf's rule in both; at the end every card, those put back included, is revealed and checked against its seal."""
from __future__ import annotations

import json

import pytest

from engine import canonical, secrets
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.tabletop import table as tb
from tests.engine.trading_mediterranean.tm_driver import Driver


def test_waldorfs_rule_on_sealed_cards_in_both_folds() -> None:
    d = Driver("waldorf-3")
    d.produce()
    hold = d.bot.table.holdings["Waldorf"]
    civic = [(h.id, h.card) for h in hold.cards if h.deck == "civic"]
    # Dealt from the bottom: dye, art, dye, then two more dyes, each a third, each put back on top, then an art.
    assert civic == [("civic.1", "dye venus"), ("civic.2", "art barbarians"), ("civic.3", "dye prosperity"),
                     ("civic.6", "art democracy")]
    assert [(h.id, h.card) for h in d.bot.dealing.put_back] == [("civic.4", "dye venus"), ("civic.5", "dye zealots")]
    assert [(h.id, h.face, h.card) for h in d.export.dealing.put_back] == [("civic.4", "dye", None), ("civic.5", "dye", None)]
    pile = d.bot.table.decks["civic"].pile
    assert pile is not None and pile[:2] == ["dye zealots", "dye venus"]  # the last put back is the top card
    assert [m for m in d.bot.said if "third" in m] == [
        "Waldorf may not be dealt a third dye: civic.4 goes back on top of the civic deck",
        "Waldorf may not be dealt a third dye: civic.5 goes back on top of the civic deck"]
    assert d.bot.table.public() == d.export.table.public()
    assert d.export.table.decks["civic"].size == 44
    for seat, n in (("Waldorf", 9), ("Geoff", 7), ("Mark", 5), ("Paul", 5)):
        assert len(d.bot.table.holdings[seat].cards) == n


def test_the_export_fold_sees_faces_never_bottoms() -> None:
    d = Driver("waldorf-3")
    d.produce()
    assert all(h.card is None for hold in d.export.table.holdings.values() for h in hold.cards)
    assert all(h.card is not None for hold in d.bot.table.holdings.values() for h in hold.cards)
    assert {h.face for h in d.export.table.holdings["Geoff"].cards if h.deck == "luxury"} == {"luxury"}


def test_at_the_end_every_card_and_the_one_put_back_are_revealed_and_checked() -> None:
    d = Driver("waldorf-3")
    d.produce()
    d.append("game.ended", {}, actor="gm")
    d.serve()
    put = d.export.dealing.put_back[0]
    assert put.revealed and put.card == d.bot.dealing.put_back[0].card
    assert all(h.revealed for hold in d.export.table.holdings.values() for h in hold.cards)
    assert d.export.table.key_revealed


def test_a_bot_sealing_another_card_than_the_shuffle_gives_is_refused() -> None:
    d = Driver("waldorf-3")
    d.serve()
    d.append("production.started", {})
    while True:
        needs = tb.needs(d.bot.table) + chance.needs(d.bot.book)
        need = needs[0]
        if need.source == "seal" and need.key.startswith("civic"):
            break
        spec = json.loads(str(need.content)) if need.source == "seal" else None
        if spec is not None:
            salt = canonical.sha256_hex(f"salt {need.key}")[:32]
            d.append(secrets.SEALED, {"key": need.key, **spec["public"], "sealed": secrets.digest(spec["content"], salt)},
                     {"content": spec["content"], "salt": salt})
        else:
            d.append("beacon.recorded", {"round": int(need.key), "randomness": canonical.sha256_hex(f"waldorf-3 beacon {need.key}")})
    spec = json.loads(str(need.content))
    other = "art democracy" if spec["content"]["card"] != "art democracy" else "art prosperity"
    forged = {**spec["content"], "card": other}
    salt = "0" * 32
    event = Event(len(d.events) + 1, secrets.SEALED, "legatus",
                  {"key": need.key, **spec["public"], "face": "art", "sealed": secrets.digest(forged, salt)},
                  secret={"content": forged, "salt": salt})
    with pytest.raises(Rejection, match="is not the one its shuffle puts there|shows the face"):
        d.bot.apply(event)


def test_a_deck_short_of_cards_is_reshuffled_from_its_discard_pile() -> None:
    d = Driver("waldorf-3")
    d.produce()
    grain = d.bot.table.decks["grain"]
    export_grain = d.export.table.decks["grain"]
    for fold, deck in ((d.bot, grain), (d.export, export_grain)):
        deck.discard = ["grain mars"] * 3
        deck.size = 2
        if deck.pile is not None:
            deck.pile = deck.pile[:2]
        for civ in fold.civs:
            civ.cubes["farm:grain"] = 1
    d.produce()
    assert [s.label for s in grain.shuffles] == ["grain.shuffle1", "grain.reshuffle2"]
    assert grain.size == 1 and d.bot.table.public() == d.export.table.public()
