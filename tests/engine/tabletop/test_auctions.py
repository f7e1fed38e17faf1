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


def test_an_open_auction_opens_with_its_end_its_extension_and_its_minimum() -> None:
    a = auctions.open_auction("Cup", ["North", "South"], at(30), 90, extend=20, minimum=3)
    assert (a.lot, a.seats, a.ends_at, a.extend, a.minimum, a.high, a.leader, a.over) == (
        "Cup", ("North", "South"), "2026-11-01T12:02:00+00:00", 20, 3, 0, None, False)
    assert a.to_bid() == ["North", "South"]
    with pytest.raises(Rejection) as low:
        auctions.bid(a, "North", 2, at(40), 10)
    assert low.value.reason == "a bid of 2 is too low: bid at least 3"
    assert auctions.bid(a, "North", 3, at(40), 3) == "North bids 3 for Cup."  # the minimum, all the purse
    assert a.to_bid() == ["South"]
    assert a.public() == {"lot": "Cup", "high": 3, "leader": "North", "ends_at": "2026-11-01T12:02:00+00:00",
                          "passed": [], "bids": [["North", 3, "2026-11-01T12:00:40+00:00"]], "over": False}


def test_a_bid_is_refused_from_a_seat_that_passed_or_is_not_in_it_and_beyond_the_bound() -> None:
    a = auctions.open_auction("Cup", ["North", "South", "East"], at(0), 600)
    with pytest.raises(Rejection) as outsider:
        auctions.bid(a, "West", 1, at(10), 10)
    assert outsider.value.reason == "West takes no part in the auction of Cup"
    with pytest.raises(Rejection) as too_much:
        auctions.bid(a, "North", auctions.MAX_AMOUNT + 1, at(10), 10 ** 9)
    assert too_much.value.reason == "a bid is at most 1000000"
    assert auctions.bid(a, "North", auctions.MAX_AMOUNT, at(10), 10 ** 9) == "North bids 1000000 for Cup."
    assert auctions.pass_bid(a, "South") is False
    with pytest.raises(Rejection) as passed:
        auctions.bid(a, "South", 2, at(20), 10)
    assert passed.value.reason == "South has passed in the auction of Cup"
    with pytest.raises(Rejection) as twice:
        auctions.pass_bid(a, "South")
    assert twice.value.reason == "South has already passed"
    with pytest.raises(Rejection) as stranger:
        auctions.pass_bid(a, "West")
    assert stranger.value.reason == "West takes no part in this auction"
    assert a.passed == ["South"] and a.to_bid() == ["East"]


def test_a_new_high_bid_lets_every_seat_answer_it_again() -> None:
    a = auctions.open_auction("Cup", ["North", "South", "East"], at(0), 600)
    auctions.bid(a, "North", 1, at(10), 10)
    auctions.pass_bid(a, "South")
    auctions.bid(a, "East", 2, at(20), 10)
    assert a.passed == [] and a.to_bid() == ["North", "South"]
    assert auctions.pass_bid(a, "North") is False and auctions.pass_bid(a, "South") is True
    assert (a.over, a.leader, a.high, a.to_bid()) == (True, "East", 2, [])


def test_a_bid_extends_the_end_only_inside_the_last_seconds() -> None:
    """Extend 60 and the end at 12:10:00: a bid at 12:09:00 (60 s left) leaves it; one at 12:09:01 moves it."""
    a = auctions.open_auction("Cup", ["North", "South"], at(0), 600, extend=60)
    assert auctions.bid(a, "North", 1, at(540), 10) == "North bids 1 for Cup."
    assert a.ends_at == "2026-11-01T12:10:00+00:00"
    assert auctions.bid(a, "South", 2, at(541), 10) == (
        "South bids 2 for Cup; a late bid: the auction now ends at 2026-11-01T12:10:01+00:00.")
    assert a.ends_at == "2026-11-01T12:10:01+00:00"


def test_an_auction_over_takes_no_bid_no_pass_and_no_close() -> None:
    a = auctions.open_auction("Cup", ["North", "South"], at(0), 60)
    with pytest.raises(Rejection) as early:
        auctions.close(a, at(59))
    assert early.value.reason == "the auction of Cup runs until 2026-11-01T12:01:00+00:00"
    auctions.close(a, at(60))
    for refused, words in [(lambda: auctions.bid(a, "North", 1, at(10), 10), "the auction of Cup is over"),
                           (lambda: auctions.pass_bid(a, "North"), "the auction of Cup is over"),
                           (lambda: auctions.close(a, at(70)), "the auction of Cup is already over")]:
        with pytest.raises(Rejection) as exc:
            refused()
        assert exc.value.reason == words


def test_a_sealed_bid_is_checked_at_both_ends_of_the_money_held() -> None:
    a = auctions.SealedAuction("Cup", ("North", "South", "East"))
    with pytest.raises(Rejection) as outsider:
        auctions.seal_bid(a, "West", 3, "d" * 64, 1, purse=10)
    assert outsider.value.reason == "West takes no part in the sealed auction of Cup"
    with pytest.raises(Rejection) as negative:
        auctions.seal_bid(a, "North", 3, "d" * 64, -1, purse=10)
    assert negative.value.reason == "a bid is 0 to 10 (the money held), not -1"
    auctions.seal_bid(a, "North", 3, "d" * 64, 0, purse=10)
    auctions.seal_bid(a, "South", 4, "e" * 64, 10, purse=10)
    assert a.due() == []  # East has not sealed
    auctions.seal_bid(a, "East", 8, "f" * 64, None, purse=10)
    assert a.public() == {"lot": "Cup", "sealed": {"North": "d" * 64, "South": "e" * 64, "East": "f" * 64},
                          "amounts": {}}
    assert auctions.reveal_bid(a, 4, {"amount": 10}, purse=10) == ("South", 10)  # all it holds: valid
    assert a.due() == [3, 8] and a.winner() is None
    assert auctions.reveal_bid(a, 3, {"amount": 0}, purse=10) == ("North", 0)
    assert auctions.reveal_bid(a, 8, {"amount": True}, purse=10) == ("East", 0)  # not a number: counts 0
    with pytest.raises(Rejection) as again:
        auctions.reveal_bid(a, 8, {"amount": 5}, purse=10)
    assert again.value.reason == "event #8 holds no sealed bid due to be revealed"
    assert a.due() == [] and a.amounts == {"North": 0, "South": 10, "East": 0}
    assert a.winner() == ("South", 10)


def test_a_sealed_bid_beyond_the_bound_is_refused_whatever_the_purse() -> None:
    a = auctions.SealedAuction("Cup", ("North",))
    with pytest.raises(Rejection) as exc:
        auctions.seal_bid(a, "North", 3, "d" * 64, auctions.MAX_AMOUNT + 1, purse=10 ** 9)
    assert exc.value.reason == "a bid is 0 to 1000000 (the money held), not 1000001"
    auctions.seal_bid(a, "North", 3, "d" * 64, auctions.MAX_AMOUNT, purse=10 ** 9)
    assert a.due() == [3]


def test_a_sealed_auction_of_one_bid_of_one_goes_to_it_and_ties_to_the_earliest_seal() -> None:
    assert auctions.sealed_winner([("North", 1, 9)]) == ("North", 1)
    assert auctions.sealed_winner([("North", 0, 9), ("South", 0, 2)]) is None
    assert auctions.sealed_winner([("South", 7, 12), ("North", 7, 9), ("East", 6, 1)]) == ("North", 7)


def test_an_auction_opened_without_an_extension_extends_by_a_minute() -> None:
    """The end at 12:10:00: a bid at 12:09:00 leaves it (60 s left, not fewer); one at 12:09:10 moves it to 12:10:10."""
    a = auctions.open_auction("Cup", ["North", "South"], at(0), 600)
    assert (a.extend, a.minimum) == (60, 1)
    assert auctions.bid(a, "North", 1, at(540), 10) == "North bids 1 for Cup."
    assert auctions.bid(a, "South", 2, at(550), 10) == (
        "South bids 2 for Cup; a late bid: the auction now ends at 2026-11-01T12:10:10+00:00.")


def test_a_bid_above_the_bound_after_the_bound_is_refused_as_beyond_it_not_as_too_low() -> None:
    """The high bid at the bound makes the floor one past it: a bid of the floor is refused for the bound."""
    a = auctions.open_auction("Cup", ["North", "South"], at(0), 600)
    auctions.bid(a, "North", auctions.MAX_AMOUNT, at(10), 10 ** 9)
    with pytest.raises(Rejection) as beyond:
        auctions.bid(a, "South", auctions.MAX_AMOUNT + 1, at(20), 10 ** 9)
    assert beyond.value.reason == "a bid is at most 1000000"
    with pytest.raises(Rejection) as low:
        auctions.bid(a, "South", auctions.MAX_AMOUNT, at(20), 10 ** 9)
    assert low.value.reason == "a bid of 1000000 is too low: bid at least 1000001"
