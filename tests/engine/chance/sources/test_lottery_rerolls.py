"""A lottery roll's refused pairs (engine/chance/sources/lottery.py ``_lottery_values``): which pairs a roll keeps
is decided by each pair's own two numbers, worked out by hand. A d1000 takes a pair per value: value =
(first - 1) x 90 + (second - 1), refused from 8000 = 8100 - 8100 mod 1000 on (engine/dice.py)."""
from __future__ import annotations

from typing import Any

import pytest

from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL, ONE_ROLL_PER_WHEEL
from engine.chance.slot_policy import SlotPolicy
from engine.chance.sources import lottery
from engine.events import Event, Rejection

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


def test_a_cancelled_draw_takes_the_slots_lost_alone_and_nothing_more() -> None:
    """The 2d1000 above, its refused pair rolled again on D2: D2 is then ruled not held. Its two slots there (and
    no more) go to D3's first free ones; the D1 pair it kept stays."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "2d1000", 1, 1000, 2)
    chance.record(book, _draw(D1, {"BA": 1, "CA": 90, "FI": 90, "GE": 1}))
    chance.settle(book, _event(draws=(D2, D3)))
    chance.record(book, _event("draw.cancelled", {"date": D2}, draws=(D3,)))
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1", f"{D3}|BA|1", f"{D3}|CA|1"]
    assert list(book.used) == ["2d1000", *(f"{D1}|{w}|1" for w in ("BA", "CA", "FI", "GE")), f"{D2}|BA|1",
                               f"{D2}|CA|1", f"{D3}|BA|1", f"{D3}|CA|1"]


def test_a_draw_no_roll_waits_for_cannot_be_ruled_not_held() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(book, _event(draws=(D1,)), "d6", 1, 6)
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("draw.cancelled", {"date": D2}, draws=(D3,)))
    assert refused.value.reason == f"nothing in this campaign waits for the draw of {D2}"
    assert book.cancelled == []


def test_a_cancelled_draw_under_a_policy_of_wheels_on_request_walks_the_order_again() -> None:
    """Rule 2 with wheels kept for whoever asks (Mare Nostrum's GM dice): a plain roll walks the policy's order, and
    so does its rebinding when its draw is ruled not held: FI's 1st number of D2 taken, FI's 2nd is next."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    book.slot_policy = SlotPolicy((("FI", 1), ("FI", 2), ("GE", 1)), wheels_on_request=True)
    first = chance.ask(book, _event(draws=(D1,)), "a", 1, 6)
    assert (first.where, chance.ask(book, _event(draws=(D2,)), "b", 1, 6).where) == ([f"{D1}|FI|1"], [f"{D2}|FI|1"])
    chance.record(book, _event("draw.cancelled", {"date": D1}, draws=(D2,)))
    assert first.where == [f"{D2}|FI|2"]
