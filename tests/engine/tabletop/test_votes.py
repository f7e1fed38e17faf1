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
