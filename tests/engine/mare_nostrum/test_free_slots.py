"""Hole: "separate rolls on one wheel are linked" and "a re-roll after a refused pair reuses the same draw and wheels",
in Mare Nostrum's own slots. The GM's dice took position 1 of the free wheels, then position 2 of the same wheels...,
and a refused pair rolled again on the next free slots of the same draw, the refused pair's wheels included: two d6
of one wheel are equal 14/89 of the time. Under slot rule 2 (engine/chance/lottery_slots.py) each of the GM's dice
takes a wheel no roll uses and owns it; the game's own rolls, whose numbers the rules read with fixed meanings,
keep their 32 slots a draw (docs/rules/mare-nostrum.md) but never on a die's wheel."""
from __future__ import annotations

from typing import Any

from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL
from tests.engine.mare_nostrum.test_gm_roll import LATER_DAY, NEXT_DAY, Campaign, draw

NATIONS = ("BA", "CA", "FI", "GE", "MI", "NA")
ONE_DRAW = [("PA", 1), ("RM", 1), ("TO", 1), ("VE", 1)] + [(w, 4) for w in NATIONS]


class RuleTwo(Campaign):
    """A campaign whose campaign.created names rule 2, as the bot writes it since issue 22."""

    def add(self, kind: str, actor: str, data: dict[str, Any], draws: tuple[str, ...] = (NEXT_DAY, LATER_DAY)) -> list[str]:
        if kind == "campaign.created":
            data = {**data, "lottery_slots": ONE_NUMBER_PER_WHEEL}
        return super().add(kind, actor, data, draws)


def _slots(c: Campaign) -> list[tuple[str, str, int]]:
    return [(r["draw"], r["wheel"], r["position"]) for r in c.view["rolls"]]


def test_separate_gm_rolls_never_take_two_numbers_of_one_wheel_of_a_draw() -> None:
    """Attacker: none needed; the GM's and the players' rolls themselves would be linked."""
    c = RuleTwo()
    for i in range(11):
        c.roll("1d6", f"roll {i}")
    assert _slots(c) == [(NEXT_DAY, w, p) for w, p in ONE_DRAW] + [(LATER_DAY, "PA", 1)]


def test_a_refused_pair_rolls_again_on_wheels_no_roll_used_of_that_draw() -> None:
    """Attacker: none needed; a re-roll on the refused pair's wheels (PA 2nd, RM 2nd) would be linked to it."""
    c = RuleTwo()
    c.roll("1d7", "omen")  # PA 1st + RM 1st of the next draw
    for i in range(8):  # TO, VE and the six nations' 4th numbers: the next draw's wheels are all used
        c.roll("1d6", f"fill {i}")
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, [90, 90]))
    assert any("makes 8099, which is refused" in m for m in said), said
    assert _slots(c)[-2:] == [(LATER_DAY, "PA", 1), (LATER_DAY, "RM", 1)]
    assert len(set((d, w) for d, w, _ in _slots(c))) == len(_slots(c))


def test_a_refused_pair_takes_the_same_draws_unused_wheels_first() -> None:
    """Attacker: none; the unused wheels of the drawn draw were fixed when it was drawn: nobody chooses them."""
    c = RuleTwo()
    c.roll("1d7", "omen")
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, [90, 90, 7, 7]))
    assert any("die 1 rolls again on the draw of 2023-01-05 (TO 1st + VE 1st)" in m for m in said), said


def test_the_games_own_rolls_keep_their_slots_but_never_a_dies_wheel() -> None:
    """Attacker: none needed; a siege read from PA 2nd would be linked to a GM die on PA 1st."""
    c = RuleTwo()
    c.roll("1d6", "omen")  # owns PA of the next draw
    c.add("roll.requested", "gm", {"dice": "1d90", "label": "a number"})  # owns RM
    assert _slots(c) == [(NEXT_DAY, "PA", 1), (NEXT_DAY, "RM", 1)]
    free = [key for key in c.folded.state.book.used if key.startswith(NEXT_DAY)]  # type: ignore[union-attr]
    assert sorted(free) == sorted(f"{NEXT_DAY}|{w}|{p}" for w in ("PA", "RM") for p in range(1, 6))
