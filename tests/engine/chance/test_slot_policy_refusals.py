"""A slot policy's own checks (engine/chance/slot_policy.py): its refusals in full, and a policy that stays as
checked. A policy is a game's table in its code, so a mistake is the game's bug: the words must name it exactly."""
from __future__ import annotations

import dataclasses

import pytest

from engine.chance.slot_policy import ROLL_WHEELS, SlotPolicy


def _refusal(order: tuple[tuple[str, int], ...]) -> str:
    with pytest.raises(ValueError) as refused:
        SlotPolicy(order)
    return str(refused.value)


def test_an_empty_policy_is_refused_in_full() -> None:
    assert _refusal(()) == "a slot policy needs at least one (wheel, position)"


def test_a_slot_named_twice_is_refused_with_the_whole_order() -> None:
    assert _refusal((("FI", 1), ("GE", 2), ("FI", 1))) == (
        "a slot policy names a slot twice: (('FI', 1), ('GE', 2), ('FI', 1))")


@pytest.mark.parametrize("slot", [("RN", 1), ("FI", 0), ("FI", 6), ("XX", 3)])
def test_a_slot_off_the_roll_wheels_or_positions_is_refused_with_what_is_allowed(slot: tuple[str, int]) -> None:
    wheel, position = slot
    assert _refusal((("BA", 4), slot)) == (
        f"no roll slot ('{wheel}', {position}): wheels BA CA FI GE MI NA PA RM TO VE, positions 1-5")
    assert ROLL_WHEELS == ("BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE")


def test_a_checked_policy_cannot_be_changed_afterwards() -> None:
    """The checks run once, when the game builds its policy: an order set later would escape them."""
    policy = SlotPolicy((("FI", 1),))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(policy, "order", (("RN", 9),))
    assert policy.order == (("FI", 1),) and policy == SlotPolicy((("FI", 1),))
    assert hash(policy) == hash(SlotPolicy((("FI", 1),)))
