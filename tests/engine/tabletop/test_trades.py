"""Trades: offer, accept (one check, one move for both sides), decline, counter, withdraw."""
from __future__ import annotations

import copy

import pytest

from engine.events import Rejection
from engine.tabletop import hands, trades

SEATS = ["North", "South", "East"]


def holdings() -> dict[str, hands.Holding]:
    return {
        "North": hands.Holding(5, {"oil": 2}, [hands.Held("goods.1", "goods", "wine", 3, "d" * 64, "wine star")]),
        "South": hands.Holding(1, {}, [hands.Held("goods.2", "goods", "grain", 4, "e" * 64, "grain"),
                                       hands.Held("goods.3", "goods", "grain", 5, "f" * 64, "grain star")]),
        "East": hands.Holding(0),
    }


def test_an_accepted_trade_moves_both_bundles_at_once() -> None:
    market, held = trades.Market(), holdings()
    give = trades.Bundle(money=2, resources={"oil": 1}, cards=["goods.1"], text="I will not attack you")
    o = trades.offer(market, 7, "North", "South", give, trades.Bundle(faces={"grain": 2}), SEATS)
    assert (o.id, o.status, o.parties()) == (1, trades.OPEN, ("North", "South"))
    trades.accept(market, 1, "South", held, ["goods.3", "goods.2"])
    assert (o.status, o.taker) == (trades.ACCEPTED, "South")
    assert (held["North"].money, held["North"].resources, [h.id for h in held["North"].cards]) == (3, {"oil": 1}, ["goods.3", "goods.2"])
    assert (held["South"].money, held["South"].resources, [h.id for h in held["South"].cards]) == (3, {"oil": 1}, ["goods.1"])


def test_a_trade_one_side_cannot_pay_changes_nothing() -> None:
    market, held = trades.Market(), holdings()
    trades.offer(market, 7, "North", "South", trades.Bundle(money=2), trades.Bundle(money=3), SEATS)
    before = copy.deepcopy(held)
    with pytest.raises(Rejection, match="South has 1 money, not the 3 of the trade"):
        trades.accept(market, 1, "South", held, [])
    assert held == before and market.offers[0].status == trades.OPEN


def test_the_cards_picked_must_show_the_faces_asked_for() -> None:
    market, held = trades.Market(), holdings()
    trades.offer(market, 7, "North", "South", trades.Bundle(money=1), trades.Bundle(faces={"grain": 2}), SEATS)
    with pytest.raises(Rejection, match="the offer asks for 2 grain; the cards picked show 1 grain"):
        trades.accept(market, 1, "South", held, ["goods.2"])


def test_decline_withdraw_counter_and_who_may_do_what() -> None:
    market = trades.Market()
    trades.offer(market, 7, "North", "South", trades.Bundle(money=1), trades.Bundle(), SEATS)
    trades.offer(market, 8, "North", trades.EVERYONE, trades.Bundle(money=1), trades.Bundle(money=2), SEATS)
    with pytest.raises(Rejection, match="offer 1 is made to South, not to East"):
        trades.decline(market, 1, "East")
    with pytest.raises(Rejection, match="offer 1 is your own: withdraw it instead"):
        trades.decline(market, 1, "North")
    with pytest.raises(Rejection, match="offer 2 is made to everyone: leave it, nobody needs to decline it"):
        trades.decline(market, 2, "South")
    with pytest.raises(Rejection, match="offer 1 is North's: only they can withdraw it"):
        trades.withdraw(market, 1, "South")
    assert trades.counter(market, 1, "South").status == trades.COUNTERED
    assert trades.withdraw(market, 2, "North").status == trades.WITHDRAWN
    with pytest.raises(Rejection, match="offer 2 is withdrawn, no longer open"):
        trades.decline(market, 2, "South")
    with pytest.raises(Rejection, match="there is no offer 9: the open offers are none"):
        trades.accept(market, 9, "South", holdings(), [])


@pytest.mark.parametrize("give, to, said", [
    (trades.Bundle(), "South", "an offer gives or asks for something"),
    (trades.Bundle(money=1), "North", "a seat cannot trade with itself"),
    (trades.Bundle(money=1), "West", "'West' is not a seat: offer to one of North, South, East or to everyone"),
    (trades.Bundle(faces={"grain": 1}), "South", "what you give is named card by card"),
])
def test_bad_offers_are_refused(give: trades.Bundle, to: str, said: str) -> None:
    with pytest.raises(Rejection, match=said):
        trades.offer(trades.Market(), 7, "North", to, give, trades.Bundle(), SEATS)


@pytest.mark.parametrize("data, said", [
    ({"money": -1}, "money in a bundle is a whole number from 0 to 1000000, not -1"),
    ({"money": True}, "money in a bundle is a whole number from 0 to 1000000, not True"),
    ({"faces": {"grain": 10**7}}, "faces in a bundle are counts from 0 to 1000000"),
    ({"cards": ["a", "a"]}, "cards in a bundle are distinct card ids"),
    ({"text": "x" * 501}, "a promise is text of at most 500 characters"),
])
def test_a_bundle_from_a_forged_event_is_range_checked(data: dict, said: str) -> None:
    with pytest.raises(Rejection, match=said):
        trades.bundle_from(data)
