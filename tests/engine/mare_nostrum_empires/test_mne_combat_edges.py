"""A battle's throw at its edges, with exact losses and words (issue 32: the survivors of a mutation run on
engine/mare_nostrum_empires/combat.py): a tile's points, a fortress's cancel on either side when it is not capped by
the units left, a single defender repelling, the refusals' whole sentences, and a result that cannot be rewritten."""
from __future__ import annotations

import dataclasses

import pytest

from engine.events import Rejection
from engine.mare_nostrum_empires.combat import Result, fight, hits, throw


def test_a_tiles_points_are_added_to_the_sum() -> None:
    assert [hits([4], points=1), hits([3], points=1), hits([1], fortress=True, points=4), hits([6], points=3)] == [
        1, 0, 2, 1]


def test_a_defenders_fortress_cancels_one_hit_and_no_more() -> None:
    # One legion throws 5: one hit, cancelled; the three defenders throw 3 + 5: one hit.
    battle = fight([5], [1, 1, 1], defender_fortress=True)
    assert battle == Result(attacker_losses=1, defender_losses=0, attacker_left=0, defender_left=3, at_sea=False)
    # Two hits against the fortress: one goes through.
    assert fight([5, 5], [1, 1, 1], defender_fortress=True).defender_losses == 1


def test_an_attackers_fortress_adds_five_and_cancels_one_hit_against_it() -> None:
    # The attackers throw 15 + 5: 4 hits on 2 defenders; the defenders throw 10: 2 hits, one cancelled.
    battle = fight([5, 5, 5], [5, 5], defender_fortress=False, attacker_fortress=True)
    assert battle == Result(attacker_losses=1, defender_losses=2, attacker_left=2, defender_left=0, at_sea=False)
    assert battle.outcome == "conquest"


def test_cancels_never_make_a_loss_and_losses_never_exceed_the_units() -> None:
    assert throw(2, 0, 1, 3, 1, 1, False) == Result(0, 0, 2, 3, False)
    assert throw(2, 5, 0, 3, 4, 0, True) == Result(2, 3, 0, 0, True)


def test_one_defender_left_repels_the_attack() -> None:
    battle = fight([1], [5], defender_fortress=False)
    assert (battle.attacker_left, battle.defender_left, battle.outcome) == (0, 1, "repelled")
    assert Result(1, 0, 0, 1, False).outcome == "repelled"
    assert (Result(0, 1, 1, 0, False).outcome, Result(0, 0, 1, 1, True).outcome,
            Result(1, 1, 0, 0, False).outcome) == ("conquest", "tie", "both destroyed")


@pytest.mark.parametrize(("attacker", "defender"), [([], [3]), ([3], []), ([], [])])
def test_a_battle_without_units_on_a_side_is_refused(attacker: list[int], defender: list[int]) -> None:
    with pytest.raises(Rejection) as refused:
        fight(attacker, defender, defender_fortress=False)
    assert refused.value.reason == "a battle needs units on both sides"


@pytest.mark.parametrize(("defender_fortress", "attacker_fortress"), [(True, False), (False, True)])
def test_a_fortress_at_sea_is_refused_in_words(defender_fortress: bool, attacker_fortress: bool) -> None:
    with pytest.raises(Rejection) as refused:
        fight([3], [3], defender_fortress, at_sea=True, attacker_fortress=attacker_fortress)
    assert refused.value.reason == "a fortress stands in a province: there is none at sea"


def test_a_result_cannot_be_rewritten() -> None:
    battle = fight([6, 5, 4], [2, 1], defender_fortress=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        battle.defender_left = 2  # type: ignore[misc]  # the assignment a frozen result must refuse
