"""Hole: "separate rolls on one wheel are linked" and "a re-roll after a refused pair reuses the draw's wheels". The
numbers of one wheel of a draw are drawn without replacement: two d6 from two positions of one wheel are equal
with probability 14/89, not 1/6. Under rule 2 (campaigns created from issue 22 on) a wheel of a draw gives one
number to the whole campaign; rule 1 stays for the campaigns created before, so their logs replay unchanged."""
from __future__ import annotations

from typing import Any

from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL, ONE_ROLL_PER_WHEEL, rule_of
from engine.events import Event

D1, D2, D3 = "2023-01-05", "2023-01-07", "2023-01-10"
TEN = ["BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE"]


def _event(kind: str = "roll", data: dict[str, Any] | None = None, draws: tuple[str, ...] = (D1, D2, D3)) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=draws)


def _draw(day: str, first: dict[str, int] | None = None) -> Event:
    numbers = {w: [(first or {}).get(w, 10 + i), 1, 2, 3, 4] for i, w in enumerate(TEN)}
    return _event("draw.recorded", {"date": day, "numbers": numbers}, draws=tuple(d for d in (D2, D3) if d > day))


def test_separate_rolls_of_one_draw_never_take_two_numbers_of_one_wheel() -> None:
    """Attacker: none needed; the GM's rolls themselves: two d6 of one wheel would be equal 15.7% of the time."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    rolls = [chance.ask(book, _event(), f"r{i}", 1, 6) for i in range(12)]
    assert [r.where for r in rolls] == [[f"{D1}|{w}|1"] for w in TEN] + [[f"{D2}|BA|1"], [f"{D2}|CA|1"]]


def test_the_numbers_of_one_roll_of_two_number_dice_are_on_distinct_wheels() -> None:
    """Attacker: none needed; a 3d7 takes a pair per die: six numbers, six wheels, even across two draws."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    chance.ask(book, _event(), "first", 1, 6, 7)  # BA..PA of D1
    roll = chance.ask(book, _event(), "3d7", 1, 7, 3)
    assert roll.where == [f"{D1}|RM|1", f"{D1}|TO|1", f"{D1}|VE|1", f"{D2}|BA|1", f"{D2}|CA|1", f"{D2}|FI|1"]


def test_a_refused_pair_rolls_again_on_wheels_no_roll_used() -> None:
    """Attacker: none needed; a re-roll on a wheel the refused pair (or another roll) used would be linked to it."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    d7 = chance.ask(book, _event(), "d7", 1, 7)
    assert d7.where == [f"{D1}|BA|1", f"{D1}|CA|1"]
    others = [chance.ask(book, _event(), f"d6 {i}", 1, 6) for i in range(10)]  # CA.. of D1, then BA, CA of D2
    assert others[-1].where == [f"{D2}|CA|1"]
    chance.record(book, _draw(D1, {"BA": 90, "CA": 90}))  # (90, 90): value 8099, refused for a d7
    chance.settle(book, _event(draws=(D2, D3)))
    assert d7.values is None
    assert d7.where == [f"{D2}|FI|1", f"{D2}|GE|1"], "the next draw's first unused wheels, never D1's or BA/CA of D2"


def test_rule_one_is_kept_for_campaigns_created_before_it() -> None:
    """Attacker: operator with the database, replaying an old log: it must fold to the same slots as before."""
    assert rule_of({}) == ONE_ROLL_PER_WHEEL and rule_of({"lottery_slots": 2}) == ONE_NUMBER_PER_WHEEL
    assert rule_of({"lottery_slots": "2"}) == ONE_ROLL_PER_WHEEL
    book = chance.ChanceBook(source=chance.LOTTERY)
    rolls = [chance.ask(book, _event(), f"r{i}", 1, 6) for i in range(11)]
    assert rolls[-1].where == [f"{D1}|BA|2"]
