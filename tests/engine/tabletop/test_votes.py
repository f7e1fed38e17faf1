"""Votes: a majority of the seats asked, abstentions, the default."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.tabletop import votes


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


def test_a_vote_is_asked_of_some_seats_with_its_default_among_the_options() -> None:
    with pytest.raises(Rejection) as no_default:
        votes.ask("?", ["a", "b"], ["N"], "c")
    assert no_default.value.reason == "the default 'c' is not one of the options (a, b)"
    with pytest.raises(Rejection) as nobody:
        votes.ask("?", ["a", "b"], [], "a")
    assert nobody.value.reason == "a vote asks at least one seat"
    v = votes.ask("Who?", ["a", "b"], ["N", "S"], "a")
    assert (v.question, v.options, v.voters, v.default, v.ballots, v.result, v.how) == (
        "Who?", ("a", "b"), ("N", "S"), "a", {}, None, "")


def test_only_the_seats_asked_vote_once_each_until_the_vote_is_decided() -> None:
    v = votes.ask("?", ["a", "b"], ["N", "S", "E"], "b")
    with pytest.raises(Rejection) as outsider:
        votes.cast(v, "W", "a")
    assert outsider.value.reason == "W is not asked in this vote; the voters are N, S, E"
    assert votes.cast(v, "N", None) is None
    assert v.waiting() == ["S", "E"]
    with pytest.raises(Rejection) as again:  # an abstention is a ballot too
        votes.cast(v, "N", "a")
    assert again.value.reason == "N has voted (abstained); a ballot is not changed"
    assert votes.cast(v, "S", " A ") is None  # 1 of 3: no majority yet, and E may still vote
    assert v.public() == {"question": "?", "options": ["a", "b"], "voters": ["N", "S", "E"], "default": "b",
                          "ballots": {"N": None, "S": "a"}, "result": None, "how": ""}
    assert votes.cast(v, "E", "a") == "a" and v.how == "2 of 3 seats"
    assert v.waiting() == []
    with pytest.raises(Rejection) as decided:
        votes.cast(v, "E", "b")
    assert decided.value.reason == "the vote is decided: a"
    assert votes.close(v) == "a" and v.how == "2 of 3 seats"  # the deadline changes nothing decided


def test_every_seat_voting_without_a_majority_gives_the_default_at_once() -> None:
    """Two seats of four for each option: no option has more than half, and nobody is left to vote."""
    v = votes.ask("?", ["a", "b"], ["N", "S", "E", "W"], "b")
    assert [votes.cast(v, seat, option) for seat, option in [("N", "a"), ("S", "a"), ("E", "b")]] == [None, None, None]
    assert v.waiting() == ["W"]
    assert votes.cast(v, "W", "b") == "b" and v.how == "no majority: the default"
    half = votes.ask("?", ["a", "b"], ["N", "S", "E", "W"], "b")
    votes.cast(half, "N", "a")
    assert votes.cast(half, "S", "a") is None  # 2 of 4 is half, not more than half
    assert votes.cast(half, "E", "a") == "a" and half.how == "3 of 4 seats"


def test_a_lone_seat_that_abstains_leaves_the_default_with_no_majority() -> None:
    """Nobody chose an option, so no option has a single vote: the one seat asked is all the seats, the default."""
    v = votes.ask("?", ["a", "b"], ["N"], "b")
    assert votes.cast(v, "N", None) == "b"
    assert (v.result, v.how, v.ballots) == ("b", "no majority: the default", {"N": None})
