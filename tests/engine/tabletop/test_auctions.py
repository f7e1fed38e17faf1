"""Auctions: open ascending with a deadline moved by late bids, and sealed ones."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.tabletop import auctions


def at(seconds: int) -> Event:
    return Event(1, "x", "ann", at=f"2026-11-01T12:{seconds // 60:02d}:{seconds % 60:02d}+00:00")


def test_an_open_auction_extends_on_a_late_bid_and_ends_when_the_others_pass() -> None:
    a = auctions.open_auction("Cup", ["North", "South", "East"], at(0), 600, extend=60)
    assert auctions.bid(a, "North", 3, at(100), 10) == "North bids 3 for Cup."
    with pytest.raises(Rejection, match="a bid of 3 is too low: bid at least 4"):
        auctions.bid(a, "South", 3, at(120), 10)
    with pytest.raises(Rejection, match="South has 2 money: it cannot bid 5"):
        auctions.bid(a, "South", 5, at(120), 2)
    said = auctions.bid(a, "South", 5, at(590), 10)
    assert said == "South bids 5 for Cup; a late bid: the auction now ends at 2026-11-01T12:10:50+00:00."
    with pytest.raises(Rejection, match="the auction of Cup runs until 2026-11-01T12:10:50"):
        auctions.close(a, at(600))
    assert auctions.bid(a, "North", 6, at(640), 10).startswith("North bids 6 for Cup; a late bid")
    with pytest.raises(Rejection, match="North holds the high bid \\(6\\): it cannot pass on it"):
        auctions.pass_bid(a, "North")
    assert auctions.pass_bid(a, "South") is False and auctions.pass_bid(a, "East") is True
    assert (a.over, a.leader, a.high) == (True, "North", 6)


def test_no_bid_after_the_end_and_a_close_after_it() -> None:
    a = auctions.open_auction("Cup", ["North", "South"], at(0), 60)
    with pytest.raises(Rejection, match="the auction of Cup ended at 2026-11-01T12:01:00\\+00:00: no bid is taken after it"):
        auctions.bid(a, "North", 1, at(60), 10)
    auctions.close(a, at(60))
    assert a.over and a.leader is None


def test_a_sealed_auction_goes_to_the_highest_then_the_earliest() -> None:
    assert auctions.sealed_winner([("North", 4, 9), ("South", 5, 12), ("East", 5, 10)]) == ("East", 5)
    assert auctions.sealed_winner([("North", 0, 9)]) is None


def test_a_sealed_auction_waits_for_every_seal_then_reveals_them_together() -> None:
    a = auctions.SealedAuction("Cup", ("North", "South"))
    auctions.seal_bid(a, "North", 5, "a" * 64, 4, purse=10)
    with pytest.raises(Rejection, match="North has sealed its bid for Cup; a sealed bid is not changed"):
        auctions.seal_bid(a, "North", 6, "b" * 64, 4, purse=10)
    with pytest.raises(Rejection) as exc:
        auctions.seal_bid(a, "South", 6, "b" * 64, 12, purse=10)
    assert (exc.value.reason, exc.value.hidden_of) == ("a bid is 0 to 10 (the money held), not 12", "South")
    assert a.due() == []
    with pytest.raises(Rejection, match="event #5 holds no sealed bid due to be revealed"):
        auctions.reveal_bid(a, 5, {"amount": 4}, purse=10)
    auctions.seal_bid(a, "South", 7, "c" * 64, None, purse=3)  # the export's fold: the amount is not known yet
    assert a.due() == [5, 7] and a.winner() is None
    assert auctions.reveal_bid(a, 5, {"amount": 4}, purse=10) == ("North", 4)
    assert auctions.reveal_bid(a, 7, {"amount": 9}, purse=3) == ("South", 0)  # more than it held: counts 0
    assert a.winner() == ("North", 4)
