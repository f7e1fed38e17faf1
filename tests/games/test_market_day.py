"""Market Day through the engine alone: every tabletop piece in one game, what each fold knows, verify, and the
operator's attacks on a hidden deck (the operator runs the bot: it draws the salts, holds the private store and
could rewrite the log)."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import pytest

from engine import canonical, secrets
from engine.events import Rejection
from engine.ledger import event_hash
from engine.log import replay
from engine.verify import verify
from tests.games.market_day.harness import RULES, Table
from tests.table_without_shell import beacon, salt_of

GAME = (
    "ann>offer goods.1, 2 money for 1 grain to South secretly I will vote yes", "bob>accept 1",
    "cat>offer 1 money for 1 wine to everyone", "ann>sell goods.2", "bob>counter 2 nothing for 2 money",
    "ann>done", "bob>done", "cat>done", "ann>bid 3", "+590", "bob>bid 4", "ann>pass", "cat>pass",
    "ann>vote yes", "bob>vote yes",
)


def play(t: Table, lines: tuple[str, ...] = GAME) -> None:
    t.serve()
    for line in lines:
        if line.startswith("+"):
            t.later(int(line[1:]))
            continue
        who, text = line.split(">", 1)
        t.order(who, text)


def hands_of(t: Table) -> dict[str, list[tuple[str, str | None]]]:
    return {s: [(h.id, h.card) for h in hold.cards] for s, hold in t.state.table.holdings.items()}


def public_faces(t: Table, state: object) -> str:
    return canonical.dumps({
        "view": RULES.public_view(state), "status": RULES.status(state), "picture": dataclasses.asdict(RULES.picture(state)),
        "summary": dataclasses.asdict(RULES.summary(state)), "prompts": [dataclasses.asdict(p) for p in RULES.prompts(state)],
        "ledger": RULES.ledger(state),
    })


def test_a_whole_game_deals_trades_auctions_votes_and_scores() -> None:
    t = Table()
    t.serve()
    assert t.state.phase == "market"
    assert hands_of(t) == {
        "North": [("goods.1", "wine star"), ("goods.2", "grain"), ("goods.3", "wine")],
        "South": [("goods.4", "wine star"), ("goods.5", "grain star"), ("goods.6", "grain")],
        "East": [("goods.7", "grain"), ("goods.8", "grain star"), ("goods.9", "wine")],
    }
    play(t, GAME)
    assert t.state.phase == "over"
    assert t.state.outcome == "South wins (North 17, South 28, East 19)"
    assert [(o.id, o.status) for o in t.state.market.offers] == [(1, "accepted"), (2, "lapsed"), (3, "lapsed")]
    # A counter to an offer made to everyone leaves it open for the others.
    assert t.state.market.offers[2].counters == 2 and t.state.market.offers[2].to == "East"
    assert t.state.table.decks["goods"].discard == ["grain"]
    assert "South bids 4 for Golden Cup; a late bid: the auction now ends at 2026-11-01T12:11:13+00:00." in t.messages
    assert "The vote says yes (2 of 3 seats). Every card is revealed now." in t.messages


def test_the_export_fold_shows_the_same_public_state_at_every_event_and_no_bottom_before_its_reveal() -> None:
    t = Table()
    play(t, GAME[:8])
    assert t.state.phase == "auction"
    public_events = [replace(e, secret=None) for e in t.events]
    for n in range(1, len(t.events) + 1):
        bots, exports = replay(RULES, t.events[:n]).state, replay(RULES, public_events[:n]).state
        assert public_faces(t, bots) == public_faces(t, exports), f"after event {n}"
    faces = public_faces(t, t.state) + "\n".join(t.messages) + canonical.dumps([e.to_dict() for e in t.events])
    assert "star" not in faces  # no bottom anywhere public; the sold grain is revealed
    assert "I will vote yes" not in faces and "vote yes" not in faces.replace("'vote yes'", "")
    offered = next(e for e in t.events if e.kind == "trade.offered")
    assert offered.data["sealed"] == secrets.digest({"promise": "I will vote yes"}, t.store[offered.seq]["salt"])
    assert "wine star" in canonical.dumps(RULES.private_view(t.state, "South"))  # goods.1 is South's now
    assert RULES.private_view(t.state, "South")["offers"] == [{"id": 1, "promise": "I will vote yes"}]
    assert RULES.private_view(t.state, "North")["offers"] == [{"id": 1, "promise": "I will vote yes"}]
    assert RULES.private_view(t.state, "East")["offers"] == []
    east = RULES.private_view(t.state, "East")
    assert [(h["id"], h["card"]) for h in east["holding"]["held"]] == [
        ("goods.7", "grain"), ("goods.8", "grain star"), ("goods.9", "wine")]  # its own cards, nobody else's


def test_verify_derives_every_shuffle_and_card_again_from_the_revealed_key() -> None:
    t = Table()
    play(t)
    exported = [replace(e, secret=None) for e in t.events]
    result = verify(RULES, exported, {}, beacon_check=lambda data: None)
    assert [str(f) for f in result.findings] == []
    assert any("sealed content(s) revealed and replayed as the bot's fold ran them; 10 of the 10 the bot sealed "
               "itself" in n for n in result.notes), result.notes


def forge(t: Table, seq: int, content: dict) -> list:
    """The operator rewrites a seal's content and re-hashes the whole log (its own salt, a digest that matches)."""
    events, head = [], "0" * 64
    for e in t.events:
        if e.seq == seq:
            e = replace(e, data={**e.data, "sealed": secrets.digest(content, salt_of("forged"))})
        if e.kind == secrets.REVEALED and e.data.get("seq") == seq:
            e = replace(e, data={**e.data, "content": content, "salt": salt_of("forged")})
        e = replace(e, secret=None, hash="")
        e = replace(e, hash=event_hash(head, e))
        head = e.hash
        events.append(e)
    return events


def test_an_operator_who_seals_another_card_than_the_shuffle_gives_is_caught_by_verify() -> None:
    t = Table()
    play(t)
    goods1 = next(e for e in t.events if e.kind == secrets.SEALED and e.data["key"] == "goods.1")
    assert t.store[goods1.seq]["content"] == {"card": "wine star", "deck": "goods", "draw": "goods.1"}
    forged = forge(t, goods1.seq, {"card": "wine", "deck": "goods", "draw": "goods.1"})  # same face, no star
    result = verify(RULES, forged, {}, beacon_check=lambda data: None)
    assert [f.detail for f in result.findings] == [
        "the log with its revealed sealed contents does not replay: the card sealed as 'goods.1' is not the one "
        "its shuffle puts there"]


def test_the_bot_fold_refuses_a_seal_of_another_card_and_a_key_revealed_that_is_not_the_one_sealed() -> None:
    t = Table()
    t.serve()
    with pytest.raises(Rejection, match="only the bot seals the deck key and the cards drawn"):
        t.append(secrets.SEALED, "ann", {"key": "goods.10", "sealed": "0" * 64})
    key_seq = t.state.table.key_seq
    t.state.table.due.append(key_seq)  # as at the game's end
    with pytest.raises(Rejection, match="the revealed content does not match the digest sealed earlier"):
        t.append(secrets.REVEALED, "legatus", {"seq": key_seq, "content": t.store[key_seq]["content"], "salt": "ab" * 16})


def test_the_hidden_shuffle_is_bound_only_after_the_deck_key_is_sealed_and_to_a_value_still_to_come() -> None:
    t = Table()
    assert t.state.book.bindings == [] and [n.source for n in RULES.needs(t.state)] == ["seal"]
    t.serve()
    key_event = t.events[1]
    assert (key_event.kind, key_event.data["key"]) == (secrets.SEALED, "deck-key")
    goods = next(b for b in t.state.book.bindings if b.label == "goods.shuffle1")
    # Bound while the key's seal was applied, to the round that event offered: after the key was fixed.
    assert goods.where == [key_event.draws[0]] and t.events[2].kind == "beacon.recorded"
    assert t.events[2].data["round"] == int(key_event.draws[0].split(":")[1])


def test_the_operator_cannot_choose_the_deal_its_key_is_fixed_before_the_public_value() -> None:
    """Whatever key the operator picks, it is sealed before the beacon: the deal then follows the beacon. Two keys
    it could have chosen, each against the beacons that may come, give deals it cannot tell in advance: with its key
    fixed, every beacon gives another deal (40 beacons, many deals), so choosing the key chooses nothing."""
    key = "0f" * 16
    deals = set()
    for i in range(40):
        t = Table(beacons={"1002": beacon(f"other {i}")}, key_salt=key)
        t.serve()
        deals.add(canonical.dumps(hands_of(t)))
    assert len(deals) >= 35


def test_an_operator_who_seals_the_deck_key_once_the_shuffle_value_is_public_is_caught_by_verify() -> None:
    """The attack: wait for the beacon, try keys until one deals well, then seal it. The shuffle is bound while the
    key's seal is applied, so that seal's stamp must come before the round: here it comes years after it."""
    quick = ("ann>done", "bob>done", "cat>done", "ann>pass", "bob>pass", "cat>pass", "ann>vote no", "bob>vote no")
    honest, late = Table(clock="live"), Table(clock="live", beacons={"1002": beacon("suits the operator")})
    play(honest, quick)
    late.clock = "historical"  # offers rounds 1000+seq (2023) while stamping 2026: a key sealed after its value
    play(late, quick)
    assert honest.state.phase == late.state.phase == "over"
    check = [replace(e, secret=None) for e in honest.events]
    assert [str(f) for f in verify(RULES, check, {}, beacon_check=lambda data: None).findings] == []
    found = [f"{f.purpose}: {f.detail}" for f in verify(RULES, [replace(e, secret=None) for e in late.events], {},
                                       beacon_check=lambda data: None).findings]
    assert found == [
        "shuffle of the goods deck (roll #1): bound at 2026-11-01T12:00:02+00:00, less than 6 s before its drand "
        "value (1002, public at 2023-08-23T15:59:30+00:00): not bound in advance",
        "shuffle of the relics deck (roll #2): bound at 2026-11-01T12:00:02+00:00, less than 6 s before its drand "
        "value (1002, public at 2023-08-23T15:59:30+00:00): not bound in advance",
    ]


def test_orders_that_read_the_hand_refuse_with_public_words_only() -> None:
    t = Table()
    t.serve()
    said = RULES.read_post(t.state, "ann", "sell goods.4\noffer goods.4 for 1 wine to South\nbid 3\noffer 2 oil for nothing to South")
    assert [p.error for p in said[1:]] == [
        "'offer goods.4 for 1 wine to South': 'goods.4' is not something you can give: name money, goods.1, goods.2, "
        "goods.3, or a promise in quotes",
        None,
        "'offer 2 oil for nothing to South': '2 oil' is not something you can give: name money, goods.1, goods.2, "
        "goods.3, or a promise in quotes",
    ]
    with pytest.raises(Rejection) as exc:
        t.append("card.sold", "ann", said[0].data)
    assert exc.value.reason == "North holds no card 'goods.4' to sell: its cards are goods.1, goods.2, goods.3"
    with pytest.raises(Rejection) as exc:
        t.append("auction.bid", "ann", said[2].data)
    assert exc.value.reason.startswith("that is an order of the auction phase; the game is in the market phase")
    too_much = RULES.read_post(t.state, "ann", "bid 99999999")[0]
    assert too_much.error == "'bid 99999999': '99999999' is not an amount of money: write a whole number from 0 to 1000000"


def test_a_window_left_open_closes_by_the_deadline_order_and_the_auction_by_its_time() -> None:
    t = Table()
    t.serve()
    assert [(p.seat, p.mode, p.on_timeout) for p in RULES.prompts(t.state)] == [
        ("North", "window", "done"), ("South", "window", "done"), ("East", "window", "done")]
    with pytest.raises(Rejection, match="the market window runs until 2026-11-01T13:00:12"):
        t.append("window.closed", "ann", {})
    t.later(3600)
    t.append("window.closed", "ann", {})
    assert t.state.phase == "auction"
    t.later(600)
    t.append("auction.closed", "bob", {})
    assert t.state.phase == "vote" and "Nobody bids: the Golden Cup is discarded." in t.messages
    assert json.loads(canonical.dumps(RULES.public_view(t.state)["table"]["decks"]["relics"]["discard"])) == ["Golden Cup"]


def test_a_new_campaign_refuses_a_post_before_its_deck_key_an_old_log_replays_with_one() -> None:
    from engine.log import step

    new = Table()  # rules version 2: the bot seals the key before anything else
    assert new.events[0].data["rules_version"] == 2
    early = new._event("player.assigned", "gm", {"seat": "North", "player": "dan"})
    with pytest.raises(Rejection) as exc:
        step(RULES, new.folded, early)
    assert exc.value.reason == ("the deck key is sealed first, when the campaign is created; 'player.assigned' "
                                "(event #2) cannot come before it")
    new.serve()
    assert [e.kind for e in new.events[:2]] == ["campaign.created", "secret.sealed"]
    assert new.events[1].data["key"] == "deck-key"

    old = Table(rules_version=None)  # a first campaign's log: the key sealed at the first post
    old.append("player.assigned", "gm", {"seat": "North", "player": "dan"})
    old.serve()
    assert [e.kind for e in old.events[:3]] == ["campaign.created", "player.assigned", "secret.sealed"]
    assert old.state.phase == "market" and old.state.players["North"] == "dan"
    assert replay(RULES, old.events).head == old.folded.head
    assert replay(RULES, [replace(e, secret=None) for e in old.events]).head == old.folded.head


def test_a_rules_version_the_game_does_not_know_is_refused_at_creation() -> None:
    with pytest.raises(Rejection) as exc:
        Table(rules_version=3)
    assert exc.value.reason == "rules_version 3 is not one of Market Day's: 1 or 2"
