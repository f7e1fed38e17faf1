"""Trades at their edges (engine/tabletop/trades.py): views and words in full, the bounds of a bundle from an
event, the cap on one seat's open offers, and every refusal of an acceptance whole, with nothing moved."""
from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from engine.events import Rejection
from engine.tabletop import hands, trades

SEATS = ["North", "South", "East"]


def holdings() -> dict[str, hands.Holding]:
    return {
        "North": hands.Holding(5, {"oil": 2}, [hands.Held("goods.1", "goods", "wine", 3, "d" * 64, "wine star")]),
        "South": hands.Holding(1, {}, [hands.Held("goods.2", "goods", "grain", 4, "e" * 64, "grain"),
                                       hands.Held("goods.4", "goods", "wine", 6, "a" * 64, "wine")]),
        "East": hands.Holding(0),
    }


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(Rejection) as refused:
        call()
    return refused.value.reason


def test_an_offer_is_shown_and_said_in_full() -> None:
    market = trades.Market()
    give = trades.Bundle(money=2, resources={"oil": 1, "salt": 0}, cards=["goods.1"], text="safe passage")
    o = trades.offer(market, 7, "North", "South", give, trades.Bundle(faces={"grain": 2, "wine": 0}), SEATS,
                     sealed="a" * 64, counters=4)
    assert o.public() == {
        "id": 1, "seq": 7, "by": "North", "to": "South",
        "give": {"money": 2, "resources": {"oil": 1, "salt": 0}, "cards": ["goods.1"], "faces": {}, "text": "safe passage"},
        "get": {"money": 0, "resources": {}, "cards": [], "faces": {"grain": 2, "wine": 0}, "text": ""},
        "status": "open", "counters": 4, "taker": None, "sealed": "a" * 64}
    assert o.words() == "offer 1: North gives 2 money, 1 oil, card goods.1, “safe passage” to South for 2 grain card(s)"
    assert trades.Bundle().words() == "nothing" and "sealed" not in trades.offer(
        market, 8, "South", "North", trades.Bundle(), trades.Bundle(money=1), SEATS).public()


def test_an_offer_to_everyone_has_one_party_until_a_seat_takes_it() -> None:
    market, held = trades.Market(), holdings()
    o = trades.offer(market, 7, "North", trades.EVERYONE, trades.Bundle(money=1), trades.Bundle(), SEATS)
    assert o.parties() == ("North",)
    trades.accept(market, 1, "South", held, [])
    assert (o.parties(), o.public()["status"], o.public()["taker"]) == (("North", "South"), "accepted", "South")


def test_each_status_is_shown_by_its_word() -> None:
    market = trades.Market()
    for seq in (1, 2, 3, 4):
        trades.offer(market, seq, "North", "South", trades.Bundle(money=1), trades.Bundle(), SEATS)
    trades.decline(market, 1, "South")
    trades.withdraw(market, 2, "North")
    trades.counter(market, 3, "South")
    assert [o.id for o in market.open()] == [4]
    trades.lapse_all(market)
    assert [o.public()["status"] for o in market.offers] == ["declined", "withdrawn", "countered", "lapsed"]
    assert market.open() == []


def test_a_bundle_from_an_event_takes_each_bound_itself() -> None:
    read = trades.bundle_from({"money": 1000000, "resources": {"oil": 1000000}, "faces": {"grain": 0},
                               "text": "x" * 500})
    assert (read.money, read.resources, read.faces, len(read.text)) == (1000000, {"oil": 1000000}, {"grain": 0}, 500)
    assert refusal(lambda: trades.bundle_from({"resources": {"oil": 1000001}})) == (
        "resources in a bundle are counts from 0 to 1000000, not {'oil': 1000001}")


def test_a_seat_keeps_at_most_fifty_offers_open() -> None:
    market = trades.Market()
    for seq in range(50):
        trades.offer(market, seq, "North", "South", trades.Bundle(money=1), trades.Bundle(), SEATS)
    assert refusal(lambda: trades.offer(market, 50, "North", "South", trades.Bundle(money=1), trades.Bundle(), SEATS)) == (
        "North has 50 open offers: withdraw one first")
    trades.offer(market, 51, "South", "North", trades.Bundle(money=1), trades.Bundle(), SEATS)  # another seat's own
    trades.withdraw(market, 1, "North")
    assert trades.offer(market, 52, "North", "South", trades.Bundle(money=1), trades.Bundle(), SEATS).id == 52


@pytest.mark.parametrize("get, picked, said", [
    (trades.Bundle(faces={"grain": 1}), ["goods.2", "goods.2"], "each card is given once"),
    (trades.Bundle(cards=["goods.2"], faces={"grain": 1}), ["goods.2"], "each card is given once"),
    (trades.Bundle(money=1), ["goods.2"], "the offer asks for no card by face; the cards picked show 1 grain"),
    (trades.Bundle(faces={"grain": 1}), [], "the offer asks for 1 grain; the cards picked show nothing"),
    (trades.Bundle(faces={"grain": 1}), ["goods.2", "goods.4"],
     "the offer asks for 1 grain; the cards picked show 1 grain, 1 wine"),
    (trades.Bundle(faces={"grain": 1}), ["goods.7"], "South holds no card 'goods.7'"),
    (trades.Bundle(resources={"oil": 1}), [], "South has 0 oil, not the 1 of the trade"),
])
def test_an_acceptance_refused_says_why_and_moves_nothing(get: trades.Bundle, picked: list[str], said: str) -> None:
    market, held = trades.Market(), holdings()
    trades.offer(market, 7, "North", "South", trades.Bundle(money=1), get, SEATS)
    before = copy.deepcopy(held)
    assert refusal(lambda: trades.accept(market, 1, "South", held, picked)) == said
    assert held == before and market.offers[0].status == "open"


def test_a_card_the_giver_no_longer_holds_is_refused_by_its_id() -> None:
    market, held = trades.Market(), holdings()
    trades.offer(market, 7, "North", "South", trades.Bundle(cards=["goods.9"]), trades.Bundle(), SEATS)
    assert refusal(lambda: trades.accept(market, 1, "South", held, [])) == "North no longer holds card goods.9"
    assert held == holdings()
