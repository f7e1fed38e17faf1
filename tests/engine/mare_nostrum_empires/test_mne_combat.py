"""Battles in one throw: hits are the sum divided by 5, a fortress adds 5 and cancels one hit, ties."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.mare_nostrum_empires.combat import fight, hits


def test_hits_are_the_sum_of_the_dice_divided_by_five_rounded_down() -> None:
    assert [hits([4]), hits([5]), hits([6, 4]), hits([6, 6, 2]), hits([3, 1])] == [0, 1, 2, 2, 0]
    assert hits([4], fortress=True) == 1


def test_a_die_out_of_range_is_refused() -> None:
    with pytest.raises(Rejection, match="a die shows 1 to 6, not 7"):
        hits([7])


def test_attackers_who_destroy_every_defender_conquer() -> None:
    battle = fight([6, 5, 4], [2, 1], defender_fortress=False)
    assert (battle.defender_losses, battle.attacker_losses, battle.outcome) == (2, 0, "conquest")


def test_a_fortress_adds_five_and_cancels_one_hit() -> None:
    # 3 legions throw 15: 3 hits, one cancelled by the fortress; the 2 defenders throw 3+2+5 = 10: 2 hits.
    battle = fight([5, 5, 5], [3, 2], defender_fortress=True)
    assert (battle.defender_losses, battle.attacker_losses) == (2, 2)
    assert (battle.attacker_left, battle.defender_left, battle.outcome) == (1, 0, "conquest")


def test_both_keeping_units_is_a_tie_on_land_and_at_sea() -> None:
    land = fight([2, 2], [3, 1], defender_fortress=False)
    sea = fight([2, 2], [3, 1], defender_fortress=False, at_sea=True)
    assert (land.outcome, sea.outcome, land.attacker_losses, land.defender_losses) == ("tie", "tie", 0, 0)


def test_an_attack_can_be_repelled_or_destroy_both_sides() -> None:
    assert fight([1], [6, 6], defender_fortress=False).outcome == "repelled"
    assert fight([5], [5], defender_fortress=False).outcome == "both destroyed"


def test_there_is_no_fortress_at_sea() -> None:
    with pytest.raises(Rejection, match="there is none at sea"):
        fight([3], [3], defender_fortress=True, at_sea=True)
