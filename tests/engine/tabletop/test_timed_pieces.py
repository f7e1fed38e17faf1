"""Windows, auctions and votes: the moments they read are the events' stamps, so a replay agrees."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.tabletop import auctions, chains, votes, windows


def at(seconds: int) -> Event:
    return Event(1, "x", "ann", at=f"2026-11-01T12:{seconds // 60:02d}:{seconds % 60:02d}+00:00")


def test_a_window_ends_when_all_are_done_at_once() -> None:
    w = windows.open_window("market", ["North", "South"], at(0), 240)
    assert w.closes_at == "2026-11-01T12:04:00+00:00"
    assert windows.done(w, "North") is False
    windows.acting(w, "North")  # North makes an offer after all: it is no longer done
    assert windows.done(w, "South") is False and w.waiting() == ["North"]
    assert windows.done(w, "North") is True and w.closed == "all done"
    with pytest.raises(Rejection, match="the market window is closed \\(all done\\)"):
        windows.acting(w, "North")


def test_a_window_closes_at_its_deadline_not_before_unless_the_gm_says_so() -> None:
    w = windows.open_window("market", ["North", "South"], at(0), 240)
    with pytest.raises(Rejection, match="the market window runs until 2026-11-01T12:04:00\\+00:00"):
        windows.close(w, at(239))
    windows.close(w, at(240))
    assert w.closed == "time"
    with pytest.raises(Rejection, match="a window lasts 30 seconds to 14 days, not 10 seconds"):
        windows.open_window("market", ["North"], at(0), 10)


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


def test_a_vote_is_won_by_a_majority_of_the_seats_asked_else_the_default() -> None:
    v = votes.ask("Who is the victim?", ["Athens", "Sparta"], ["North", "South", "East"], "Sparta")
    assert votes.cast(v, "North", "athens") is None
    with pytest.raises(Rejection, match="North has voted \\(Athens\\); a ballot is not changed"):
        votes.cast(v, "North", "Sparta")
    with pytest.raises(Rejection, match="'Rome' is not an option: vote Athens or Sparta"):
        votes.cast(v, "South", "Rome")
    assert votes.cast(v, "South", "Athens") == "Athens" and v.how == "2 of 3 seats"
    split = votes.ask("?", ["a", "b"], ["N", "S", "E"], "b")
    votes.cast(split, "N", "a")
    assert votes.close(split) == "b" and split.how == "the deadline passed without a majority: the default"
    abstained = votes.ask("?", ["a", "b"], ["N", "S"], "b")
    votes.cast(abstained, "N", None)
    assert votes.cast(abstained, "S", "a") == "b"  # 1 of 2 is no majority of the seats asked


def test_a_pick_chain_follows_the_last_pick_with_one_round_trip_per_pair() -> None:
    c = chains.start(["A", "B", "C"], "A")
    assert chains.pick(c, "A", "B") == "B"
    with pytest.raises(Rejection, match="B picks now, not A"):
        chains.pick(c, "A", "C")
    assert chains.pick(c, "B", "A") == "A"
    with pytest.raises(Rejection, match="A has already picked from B: one round trip per pair; pick from C"):
        chains.pick(c, "A", "B")
    assert chains.pick(c, "A", "C") == "C"
    assert chains.pick(c, "C", "A") is None  # A has picked from B and C: nobody left to pick from
    with pytest.raises(Rejection, match="the pick chain is over"):
        chains.pick(c, "A", "C")
