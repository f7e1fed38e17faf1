"""Legendary goods face down (rules version 2): dealt from a hidden deck sealed to the holder, seen by the holder
alone, shown when they leave the screen. The attacks first: another player, the GM and an outsider with the export
cannot name a face-down good."""
from __future__ import annotations

import pytest

from engine import canonical
from engine.events import Event, Rejection
from engine.mare_nostrum_empires import hidden_row, legendary, purchase
from engine.mare_nostrum_empires.ruleset import MareNostrumEmpires
from engine.mare_nostrum_empires.state import Screen
from engine.tabletop import shuffle
from tests.engine.mare_nostrum_empires.mne_board import raw, rebuild
from tests.engine.mare_nostrum_empires.mne_play import Play
from tests.engine.mare_nostrum_empires.test_mne_game import claims, user

GOOD = "gems"  # what the shuffle keyed by this test's deck key deals first (derived again below)


def pick_all(p: Play, token: str = "tax") -> None:
    """The pick chain played out: each picker takes ``token`` (else the first token) from its first target."""
    while (ex := p.state.commerce and p.state.commerce.exchange) and ex.chain.next is not None:
        who = ex.chain.next
        target = next(t for t in ex.chain.targets(who) if ex.offers[t])
        what = token if token in ex.offers[target] else ex.offers[target][0]
        p.post(user(p, who), f"take {what} from {target}")


def all_done(p: Play, plays: dict[str, str] | None = None) -> None:
    """A Purchase or Military phase: the leader names the empires of ``plays`` first, each playing its lines."""
    plays = plays or {}
    assert p.state.turns is not None
    leader = user(p, p.state.turns.leader)
    for empire in [*plays, *(e for e in p.state.board.empires if e not in plays)]:
        p.post(leader, f"next {empire}")
        p.post(user(p, empire), (plays.get(empire, "") + "\ndone").strip())


def trade_taxes(p: Play) -> None:
    """Round 2's Commerce: everyone puts forward two taxes and the pick chain is played out (evenly)."""
    p.post("cat", "token II 2")
    for empire in p.state.board.empires:
        p.post(user(p, empire), "offer tax, tax")
    pick_all(p)
    if p.state.phase == "commerce":  # the unequal exchange
        p.post("cat", "give tax")
    assert p.state.phase == "purchase"


def to_round_two(rules_version: int | None = 3) -> Play:
    """Four players; the Egyptians take Judaea and build Jerusalem in round 1, so round 2's Production owes them a
    legendary good."""
    p = Play(4, rules_version=rules_version)
    p.post("cat", "token I 1")
    for empire in p.state.board.empires:
        p.post(user(p, empire), "offer tax")
    pick_all(p)
    p.post("cat", "give tax")
    all_done(p, {"Egyptians": "buy influence in Judaea with wheat, papyrus, sheep\n"
                                     "buy legendary city in Judaea with taxes"})
    all_done(p)
    claims(p)
    assert (p.state.round, p.state.phase) == (2, "commerce")
    return p


def test_a_legendary_good_is_dealt_face_down_and_its_holder_alone_sees_what_it_is() -> None:
    p = to_round_two()
    assert p.state.board.screens["Egyptians"].legendary == ["legendary.1"]
    mine = p.rs.private_view(p.state, "Egyptians")
    assert (mine["legendary"], mine["legendary_cards"]) == ([GOOD], {"legendary.1": GOOD})
    for other in ("Romans", "Greeks", "Carthaginians"):
        assert p.rs.private_view(p.state, other)["legendary"] == []
        assert "legendary_cards" not in p.rs.private_view(p.state, other)
    public = p.rs.public_view(p.state)
    assert public["screens"]["Egyptians"]["legendary"] == 1
    assert public["row_deck"]["decks"]["legendary"]["size"] == 38
    assert p.rs.seat_of(p.state, "gm") is None  # the GM has no private view: the public one and the status
    for text in (canonical.dumps(public), p.rs.status(p.state), *p.said[-8:]):
        assert GOOD not in text, text
    # The draw is the shuffle's top card under the deck key: derived again from the key's salt and the value.
    table = p.state.table
    assert table is not None and table.key is not None
    values = next(b.values for b in p.state.book.bindings if b.label == "legendary.shuffle1")
    assert values is not None
    deck = sorted(r for r in p.rs.rules.resources for _ in range(3))
    key = shuffle.shuffle_key("legendary.shuffle1", values, table.key)
    assert shuffle.permute(deck, key, "legendary.shuffle1.0")[0] == GOOD


def test_an_outsider_with_the_export_cannot_name_a_face_down_legendary_good() -> None:
    p = to_round_two()
    sealed = next(e for e in p.events if e.kind == "secret.sealed" and e.data["key"] == "legendary.1")
    assert set(sealed.data) == {"key", "deck", "seat", "face", "from", "sealed"}
    assert sealed.data["face"] == "legendary" and GOOD not in canonical.dumps(sealed.data)
    exported = p.replay()  # the public log alone
    assert exported.table is not None
    card = exported.table.holdings["Egyptians"].cards[0]
    assert (card.id, card.card, card.revealed) == ("legendary.1", None, False)
    assert exported.table.key is None and exported.table.decks["legendary"].pile is None
    assert p.rs.public_view(exported) == p.rs.public_view(p.state)
    assert legendary.resource(exported, "legendary.1") is None


def test_a_legendary_good_paid_is_shown_then_goes_face_up_to_the_discard_pile() -> None:
    p = to_round_two()
    trade_taxes(p)
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Egyptians")
    with pytest.raises(Rejection, match="the goods must all be different: 'gems' is named 2 times"):
        p.post("dan", "buy legion in Aegyptus with legendary gems, legendary.1, wheat")
    with pytest.raises(Rejection, match="'legendary oil': Egyptians hold no legendary oil there to name"):
        p.post("dan", "buy legion in Aegyptus with legendary oil, sheep, wheat")
    p.post("dan", "buy legion in Aegyptus with legendary gems, sheep, wheat")
    assert p.state.board.screens["Egyptians"].legendary == []
    assert p.state.table is not None
    digest = p.state.table.holdings["Egyptians"].cards[0].digest or ""
    assert p.said[-2:] == ["The Egyptians buy legion in Aegyptus (paid with legendary.1, sheep, wheat).",
                           f"Card legendary.1 is revealed: {GOOD} (it matches digest {digest[:12]}…)."]
    assert p.state.table.decks["legendary"].discard == [GOOD]
    exported = p.replay()
    assert legendary.resource(exported, "legendary.1") == GOOD
    assert p.rs.public_view(exported) == p.rs.public_view(p.state)


def test_a_legendary_good_left_at_the_end_of_the_turn_goes_back_shown() -> None:
    p = to_round_two()
    trade_taxes(p)
    all_done(p)
    assert all(s.legendary == [] for s in p.state.board.screens.values())
    assert p.state.table is not None and p.state.table.decks["legendary"].discard == [GOOD]
    assert p.state.spent == []
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_a_legendary_good_put_forward_stays_sealed_until_every_offer_is_in_then_is_shown_and_taken() -> None:
    p = to_round_two()
    p.post("cat", "token II 2")
    p.post("dan", "offer legendary gems, tax")
    offered = p.events[-1]
    assert offered.kind == "commerce.offered" and GOOD not in canonical.dumps(offered.data)
    assert p.state.table is not None and p.state.table.due == []  # nothing shown while offers are still to come
    assert legendary.label(p.state, "legendary.1") == "legendary.1"
    for empire in ("Romans", "Greeks", "Carthaginians"):
        p.post(user(p, empire), "offer tax, tax")
    assert legendary.label(p.state, "legendary.1") == f"legendary.1 ({GOOD})"
    assert any(line.startswith(f"The offers are revealed: ") and f"Egyptians: legendary.1 ({GOOD})" in line
               for line in p.said)
    p.post("cat", f"take legendary {GOOD} from Egyptians")
    assert p.events[-1].data["order"] == {"kind": "take", "target": "Egyptians", "token": "legendary.1"}
    pick_all(p)
    if p.state.phase == "commerce":
        p.post("cat", "give tax")
    assert p.state.board.screens["Carthaginians"].legendary == ["legendary.1"]
    assert p.state.board.screens["Egyptians"].legendary == []
    assert p.rs.private_view(p.state, "Carthaginians")["legendary"] == [GOOD]
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_a_campaign_created_before_keeps_its_legendary_goods_drawn_in_public() -> None:
    p = to_round_two(rules_version=None)
    assert p.state.table is None and p.events[0].kind == "order"  # no deck key
    assert p.state.board.screens["Egyptians"].legendary == ["gladiators"]  # the roll's resource, in the public log
    assert "The Egyptians draw a legendary good: gladiators." in p.said


def test_nothing_comes_before_the_deck_key_in_a_new_campaign() -> None:
    p = Play(4, rules_version=3)
    fresh = p.rs.initial_state(p.setup)
    with pytest.raises(Rejection, match="the deck key is sealed first, when the campaign is created; 'order'"):
        p.rs.apply(fresh, Event(1, "order", "cat", {"seat": "Carthaginians",
                                                    "order": {"kind": "token", "token": "I", "face": 1}}))
    with pytest.raises(Rejection, match="rules_version 9 is not one of this game's: 1 to "):
        p.rs.initial_state({**p.setup, "rules_version": 9})


def test_the_gm_ordering_for_a_seat_names_its_face_down_goods_by_card_and_learns_nothing_from_a_refusal() -> None:
    p = to_round_two()
    trade_taxes(p)
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Egyptians")
    refusals = []
    for wanted in (GOOD, "oil"):  # held, and not held: the same answer
        with pytest.raises(Rejection) as exc:
            p.gm("Egyptians", f"buy legion in Aegyptus with legendary {wanted}, sheep, wheat")
        refusals.append(exc.value.reason.replace(wanted, "<resource>"))
    assert refusals[0] == refusals[1] == (
        "'legendary <resource>': the Egyptians' legendary goods are face down, and only their player names one by "
        "what it is; to order for the Egyptians, name the card (legendary.1)")
    assert p.rs.public_view(p.state)["screens"]["Egyptians"]["legendary_cards"] == ["legendary.1"]
    p.gm("Egyptians", "buy legion in Aegyptus with legendary.1, sheep, wheat")
    assert p.state.board.provinces["Aegyptus"].legions == {"Egyptians": 3}


def test_a_price_refused_for_a_face_down_good_tells_its_reason_to_the_holder_alone() -> None:
    screen = Screen({"gems": 1, "wine": 1}, 0, ["legendary.1"])
    with pytest.raises(Rejection) as exc:
        purchase.pay(screen, "Egyptians", 3, False, ["gems", "legendary.1", "wine"],
                     lambda g: "gems" if g == "legendary.1" else g)
    assert (exc.value.reason, exc.value.hidden_of) == ("the goods must all be different: 'gems' is named 2 times",
                                                        "Egyptians")
    with pytest.raises(Rejection) as plain:
        purchase.pay(screen, "Egyptians", 3, False, ["gems", "gems", "wine"])
    assert plain.value.hidden_of is None  # goods alone: nothing face down is read


def test_a_reserve_run_short_shuffles_its_discard_pile_in_and_with_none_left_deals_none() -> None:
    data = raw()
    data["limits"]["reserve"]["legendary_goods"] = 1  # 13 cards, one of each resource
    p = Play(3, rules_version=3, rs=MareNostrumEmpires(rebuild(data)))
    check = Event(99, "check", "gm", {})
    for _ in range(13):
        assert legendary.owe(p.state, "Romans", check) == []
    assert legendary.advance(p.state, check)[1] == "The legendary deck is shuffled (13 cards); its order stays hidden."
    assert legendary.owe(p.state, "Romans", check) == ["The reserve has no legendary good left: the Romans get none."]
    table = p.state.table
    assert table is not None and len(table.sealing) == 13 and table.decks["legendary"].size == 0
    table.decks["legendary"].discard.append(GOOD)  # a good gone back, shown
    assert legendary.owe(p.state, "Greeks", check) == [
        "The legendary deck's reshuffle is bound to fixed value(s) #5 to #6 given in campaign.created, label "
        "'legendary.reshuffle2' (known in advance: not verifiable)."]
    legendary.advance(p.state, check)
    assert [(d.seat, card) for d, card, _ in table.sealing[-1:]] == [("Greeks", GOOD)]
    assert table.decks["legendary"].discard == []


@pytest.mark.parametrize("token, card", [("legendary.3", True), ("legendary.12", True), ("legendary.", False),
                                         ("legendary.x", False), ("legendary 3", False), ("legendary wine", False),
                                         ("relic.3", False)])
def test_a_card_is_named_legendary_dot_and_its_number(token: str, card: bool) -> None:
    assert legendary.is_card(token) is card


def test_a_good_of_the_first_rules_is_named_by_its_resource() -> None:
    """Version 1 named a legendary good "legendary <resource>": its resource is the word after, no table read."""
    p = Play(3)
    assert p.state.table is None
    assert (legendary.resource(p.state, "legendary wine"), legendary.label(p.state, "legendary wine")) == (
        "wine", "legendary wine")


def test_a_ruleset_without_its_count_of_legendary_goods_deals_three_of_each_resource() -> None:
    """The seed's count, three of each resource, stands when an edited ruleset leaves the reserve limit out."""
    data = raw()
    del data["limits"]["reserve"]["legendary_goods"]
    edited = rebuild(data)
    table = hidden_row.new_table(edited, ("Romans", "Greeks", "Carthaginians"))
    legendary.add_deck(edited, table)
    assert table.decks[legendary.DECK].spec.piles == (tuple(sorted(r for r in edited.resources for _ in range(3))),)
    assert len(table.decks[legendary.DECK].spec.piles[0]) == 39


def _card_for_refusal(p: Play, pool: list[str], **face: bool) -> str:
    with pytest.raises(Rejection) as refused:
        legendary.card_for(p.state, "Romans", "legendary wine", pool, [], **face)
    return refused.value.reason


def test_whoever_orders_for_a_seat_names_its_face_down_cards_by_id_and_is_told_which() -> None:
    p = Play(3)
    assert _card_for_refusal(p, ["legendary.4", "tax", "legendary.9"], face_down=True, own=False) == (
        "'legendary wine': the Romans' legendary goods are face down, and only their player names one by what it is; "
        "to order for the Romans, name the card (legendary.4, legendary.9)")
    assert _card_for_refusal(p, ["tax"], face_down=True, own=False) == (
        "'legendary wine': the Romans' legendary goods are face down, and only their player names one by what it is; "
        "to order for the Romans, name the card (they hold none)")


def test_a_player_names_its_own_face_down_good_by_what_it_is() -> None:
    """``own`` is the player's own order unless the caller says otherwise: no card of wine in the pool, so the
    refusal is that it holds none, never that it must name the card."""
    assert _card_for_refusal(Play(3), [], face_down=True) == (
        "'legendary wine': Romans hold no legendary wine there to name (write 'legendary <resource>' for one you "
        "hold, or its card, e.g. 'legendary.3')")


def test_a_row_tile_being_dealt_is_no_legendary_good_being_dealt() -> None:
    """The row and the legendary goods share one table: a row tile queued, then drawn and waiting for its seal, is
    neither something Commerce waits for (``dealing``) nor something the legendary deck's ``advance`` moves on."""
    p = Play(3, rules_version=3)
    table = p.state.table
    assert p.state.row is not None and table is not None and (table.queue, table.sealing, table.unbound) == ([], [], [])
    p.state.row.face_up[2] = None
    hidden_row.refill(p.state)
    assert [(d.deck, d.label) for d in table.queue] == [("row", "row.6")] and legendary.dealing(p.state) is False
    check = Event(99, "check", "gm", {})
    assert legendary.advance(p.state, check) == []
    assert ([d.label for d in table.queue], table.sealing) == (["row.6"], [])
    hidden_row.advance(p.rs.rules, p.state, check, lambda *_: None)
    assert [(d.label, card) for d, card, _ in table.sealing] == [("row.6", "Lighthouse of Alexandria")]
    assert table.queue == [] and legendary.dealing(p.state) is False


def test_a_good_owed_beyond_the_deck_before_any_is_drawn_is_none() -> None:
    """Thirteen cards, thirteen goods owed and queued, none drawn yet: the fourteenth finds nothing coming."""
    data = raw()
    data["limits"]["reserve"]["legendary_goods"] = 1
    p = Play(3, rules_version=3, rs=MareNostrumEmpires(rebuild(data)))
    check = Event(99, "check", "gm", {})
    assert [legendary.owe(p.state, "Romans", check) for _ in range(13)] == [[]] * 13
    assert legendary.owe(p.state, "Greeks", check) == ["The reserve has no legendary good left: the Greeks get none."]
    assert p.state.table is not None and [d.seat for d in p.state.table.queue] == ["Romans"] * 13
