"""A lottery roll's refused pairs (engine/chance/sources/lottery.py ``_lottery_values``): which pairs a roll keeps
is decided by each pair's own two numbers, worked out by hand. A d1000 takes a pair per value: value =
(first - 1) x 90 + (second - 1), refused from 8000 = 8100 - 8100 mod 1000 on (engine/dice.py)."""
from __future__ import annotations

from typing import Any

from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_ROLL_PER_WHEEL
from engine.chance.sources import lottery
from engine.events import Event

D1, D2, D3 = "2023-01-05", "2023-01-07", "2023-01-10"
TEN = ["BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE"]


def _event(kind: str = "roll", data: dict[str, Any] | None = None, draws: tuple[str, ...] = (D1, D2, D3)) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=draws)


def _draw(day: str, first: dict[str, int]) -> Event:
    """Each wheel's first number as given (others 10 + its place), the rest 20..23: only first numbers are read."""
    numbers = {w: [first.get(w, 10 + i), 20, 21, 22, 23] for i, w in enumerate(TEN)}
    return _event("draw.recorded", {"date": day, "numbers": numbers}, draws=())


def test_a_pair_is_kept_or_rolled_again_by_its_own_two_numbers() -> None:
    """(1, 90) is value 89, die 90: kept, though 90 and 90 would be refused. (90, 1) is value 8010: refused, though
    1 and 1 would be kept. The refused pair's die rolls again on the next draw's first free slots."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "2d1000", 1, 1000, 2)
    assert roll.where == [lottery.slot_key(D1, w, 1) for w in ("BA", "CA", "FI", "GE")]
    chance.record(book, _draw(D1, {"BA": 1, "CA": 90, "FI": 90, "GE": 1}))
    assert chance.settle(book, _event(draws=(D2, D3))) == []
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1", f"{D2}|BA|1", f"{D2}|CA|1"]
    chance.record(book, _draw(D2, {"BA": 1, "CA": 2}))  # value 1: die 2
    assert chance.settle(book, _event(draws=(D3,))) == [roll] and roll.values == [90, 2]
