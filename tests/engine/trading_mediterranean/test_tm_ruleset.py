"""Whole games through the ruleset (orders in words, the bot's seals, beacons, reveals), 4 and 6 players: the
export (the log without its secrets) replays to the same chain head and public view, and ``verify`` derives every
shuffle and every card again from the revealed deck key; an operator's forged seal is caught; refusals quote the
line and say what would be right."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from functools import cache

import pytest

from engine import secrets
from engine.ledger import event_hash
from engine.verify import verify
from engine.trading_mediterranean import game as gm
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import RULES, Table, replay

FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}
SIX = {**FOUR, "Eve": "eve", "Fay": "fay"}


@cache
def game(n: int) -> Table:
    players = FOUR if n == 4 else SIX
    t = Table(players, f"game {n}")
    play(t, players)
    return t


@pytest.mark.parametrize(("n", "outcome", "events", "votes"), [
    (4, "Ann wins with 12 VP (Ann 12, Bob 11, Cat 9, Dan 8)", 414, 0),
    (6, "Fay wins with 19 VP (Fay 19, Cat 12, Eve 10, Dan 10, Bob 10, Ann 4)", 676, 7),
])
def test_a_whole_game_replays_from_its_export_and_verifies(n: int, outcome: str, events: int, votes: int) -> None:
    t = game(n)
    assert t.state.phase == gm.OVER and t.state.turn == 6
    assert t.state.outcome == outcome
    assert len(t.events) == events
    assert sum(1 for e in t.events if e.kind == "vote.cast") == votes
    exported = t.export()
    again = replay(exported)
    assert again.head == t.folded.head
    assert RULES.public_view(again.state) == RULES.public_view(t.state)
    result = verify(RULES, exported, {}, beacon_check=lambda data: None)
    assert [str(f) for f in result.findings] == []
    sealed = sum(1 for e in t.events if e.kind == secrets.SEALED)
    assert any(f"{sealed} of the {sealed} the bot sealed itself" in note for note in result.notes), result.notes


def test_an_operator_who_seals_another_card_than_the_shuffle_gives_is_caught_by_verify() -> None:
    t = game(4)
    seal = next(e for e in t.events if e.kind == secrets.SEALED and e.data["key"] == "grain.1")
    content = {**t.store[seal.seq]["content"]}
    content["card"] = "grain prosperity" if content["card"] != "grain prosperity" else "grain mars"
    salt = "f" * 32
    events, head = [], "0" * 64
    for e in t.events:
        if e.seq == seal.seq:
            e = replace(e, data={**e.data, "sealed": secrets.digest(content, salt)})
        if e.kind == secrets.REVEALED and e.data.get("seq") == seal.seq:
            e = replace(e, data={**e.data, "content": content, "salt": salt})
        e = replace(e, secret=None, hash="")
        e = replace(e, hash=event_hash(head, e))
        head = e.hash
        events.append(e)
    result = verify(RULES, events, {}, beacon_check=lambda data: None)
    assert [f.detail for f in result.findings] == [
        "the log with its revealed sealed contents does not replay: the card sealed as 'grain.1' is not the one "
        "its shuffle puts there"]


def test_no_view_but_the_holders_shows_a_bottom_before_it_is_played() -> None:
    t = Table(FOUR, "views")
    assert t.state.phase == gm.CIVIC
    public = RULES.public_view(t.state)
    held = [h for hold in public["table"]["holdings"].values() for h in hold["held"]]
    assert len(held) == 20 and all("card" not in h and h["sealed"] for h in held)
    for seat in FOUR:
        mine = RULES.private_view(t.state, seat)["holding"]["held"]
        assert [(h["id"], h["card"]) for h in mine] == [(h.id, h.card) for h in t.state.table.holdings[seat].cards]


def test_orders_in_words_refused_with_what_would_be_right() -> None:
    t = Table(FOUR, "words")
    # Read before it is applied: the hand is checked first, the phase when the order is played.
    assert t.order("ann", "offer 2 grain for 1 wine to Bob") == ["'offer 2 grain for 1 wine to Bob': you hold 1 grain card(s), not 2"]
    assert t.order("ann", "offer 1 grain for 1 wine to Bob") == [
        "that is an order of the trading phase; the game is in the civic phase "
        "(use <building> on <seat>, leave <building>, revolt, convert, done)"]
    assert t.order("ann", "dance") == [
        "'dance': not understood; now: use <building> on <seat>, leave <building>, revolt, convert, done"]
    assert t.order("ann", "use Palace on Bob") == ["Ann has no building 'Palace': it has none"]
    assert t.order("ann", "revolt") == []
    assert t.state.civs["Ann"].government.side == "dictatorship"
    for user in FOUR.values():
        assert t.order(user, "done") == []
    assert t.state.phase == gm.TRADING
    assert t.order("ann", "offer 2 grain for 1 wine to Bob") == ["'offer 2 grain for 1 wine to Bob': you hold 1 grain card(s), not 2"]
    assert t.order("ann", "offer 1 grain for 1 wine to Zed") == [
        "'offer 1 grain for 1 wine to Zed': 'Zed' is not a seat nor a player: offer to one of Ann, Bob, Cat, Dan or everyone"]
    assert t.order("ann", "offer 1 grain for 1 wine to Bob") == []
    grain = next(h.id for h in t.state.table.holdings["Ann"].cards if h.face == "grain")
    assert t.state.market.offers[0].give.cards == [grain]
    assert t.order("bob", "accept 1") == ["'accept 1': 0 card(s) showing 'wine' to give, not 1"]
    assert t.order("bob", "accept 1 with civic.9") == ["Bob holds no card 'civic.9'"]
    assert t.order("ann", "warehouse salt, ore, wool, timber") == ["Ann may warehouse 3 card(s), not 4"]
    assert t.order("ann", "vp 2") == [
        "that is an order of the purchasing phase; the game is in the trading phase (offer <cards> for <goods> to "
        "<seat>, accept/decline/withdraw <n>, counter <n> ..., warehouse <cards>, done)"]


def test_the_campaigns_form_of_trading_and_its_size() -> None:
    assert sorted(RULES.options) == ["4-players", "5-players", "forum-12h", "forum-48h", "forum-6h", "forum-72h", "live"]
    unassigned = RULES.initial_state({"gm": "gm", "players": {}, "randomness": "drand", "options": ["4-players"]})
    assert unassigned.players == {"Phoenicia": None, "Egypt": None, "Greece": None, "Carthage": None}
    assert len(RULES.initial_state({"gm": "gm", "players": {}, "randomness": "drand"}).civs) == 6
    assert RULES.resolve("seat", "phoen").name == "Phoenicia" and RULES.resolve("seat", "Ann").name == "Ann"
    base = {"gm": "gm", "players": FOUR, "randomness": "drand"}
    assert (RULES.initial_state(base).mode, RULES.initial_state(base).forum_hours) == ("forum", 24)
    assert RULES.initial_state({**base, "options": ["live"]}).mode == "live"
    assert RULES.initial_state({**base, "options": ["forum-6h"]}).forum_hours == 6
    with pytest.raises(Exception, match="'forum-1h' is not an option of Trading in the Mediterranean: choose live, 4-players, 5-players, forum-6h, forum-12h, forum-48h, forum-72h"):
        RULES.initial_state({**base, "options": ["forum-1h"]})
    with pytest.raises(Exception, match="Trading in the Mediterranean is for 4 to 6 civilizations, not 3"):
        RULES.initial_state({**base, "players": {"Ann": "ann", "Bob": "bob", "Cat": "cat"}})
    live = Table(FOUR, "live", trading="live")
    opened = datetime.fromisoformat(live.events[-1].at)  # the last seal dealt opened the civic window
    assert live.state.window.closes_at == (opened + timedelta(minutes=4)).isoformat(timespec="seconds")
    assert [p.hours for p in RULES.prompts(live.state)] == [4 / 60] * 4
