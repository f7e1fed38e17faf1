"""What a game with its own rules of chance gives the book (engine/chance/slot_policy.py and ``book.ask``'s
``roll_id``, ``again`` and ``after``): the slots its rolls may take and their order, its own roll ids and label
suffixes, only draws after its turn's own, and raw numbers 1..90. Shaped on Mare Nostrum's rules (nations on the
BA and CA wheels: their 1st-3rd numbers are the turn's own, engine/mare_nostrum/slots.py); worked out by hand."""
from __future__ import annotations

from typing import Any

import pytest

from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL
from engine.chance.slot_policy import SlotPolicy
from engine.chance.sources import drand as drand_source
from engine.events import Event, Rejection

D1, D2 = "2023-01-05", "2023-01-07"
TEN = ["BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE"]
FREE = [w for w in TEN if w not in ("BA", "CA")]
# Mare Nostrum's order: every free wheel's 1st number, ..., their 5th; then the nations' wheels' 4th and 5th.
POLICY = SlotPolicy(tuple((w, p) for p in range(1, 6) for w in FREE) + (("BA", 4), ("CA", 4), ("BA", 5), ("CA", 5)))
RANDOMNESS = "ab" * 32


def _event(draws: tuple[str, ...] = (D1, D2), kind: str = "roll", data: dict[str, Any] | None = None) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=draws)


def _lottery_book(rule: int | None = None) -> chance.ChanceBook:
    book = chance.new_book(chance.LOTTERY, {} if rule is None else {"lottery_slots": rule})
    book.slot_policy = POLICY
    return book


def test_a_policy_names_each_slot_once_on_a_roll_wheel() -> None:
    with pytest.raises(ValueError, match="at least one"):
        SlotPolicy(())
    with pytest.raises(ValueError, match="names a slot twice"):
        SlotPolicy((("FI", 1), ("FI", 1)))
    with pytest.raises(ValueError, match=r"no roll slot \('RN', 1\)"):
        SlotPolicy((("RN", 1),))
    with pytest.raises(ValueError, match=r"no roll slot \('FI', 6\)"):
        SlotPolicy((("FI", 6),))
    assert POLICY.wheels()[:2] == (("FI", (1, 2, 3, 4, 5)), ("GE", (1, 2, 3, 4, 5)))
    assert POLICY.wheels()[-2:] == (("BA", (4, 5)), ("CA", (4, 5)))


def test_the_policy_orders_the_slots_and_keeps_the_nations_first_numbers_out() -> None:
    plain = chance.new_book(chance.LOTTERY, {})
    assert chance.ask(plain, _event(), "x", 1, 6, 2).where == [f"{D1}|BA|1", f"{D1}|CA|1"]
    book = _lottery_book()
    assert chance.ask(book, _event(), "x", 1, 6, 2).where == [f"{D1}|FI|1", f"{D1}|GE|1"]
    # 40 free-wheel slots, then the nations' 4th and 5th: the 41st slot of the draw is BA's 4th.
    for i in range(19):
        chance.ask(book, _event(), f"r{i}", 1, 6, 2)
    assert [chance.ask(book, _event(), f"n{i}", 1, 90).where for i in range(5)] == [
        [f"{D1}|BA|4"], [f"{D1}|CA|4"], [f"{D1}|BA|5"], [f"{D1}|CA|5"], [f"{D2}|FI|1"]]
    assert not any(k.split("|")[1] in ("BA", "CA") and int(k.split("|")[2]) <= 3 for k in book.used if "|" in k)


def test_under_rule_2_a_policy_wheel_gives_its_first_allowed_number() -> None:
    book = _lottery_book(ONE_NUMBER_PER_WHEEL)
    assert chance.ask(book, _event(), "gm", 1, 90, 8).where == [f"{D1}|{w}|1" for w in FREE]
    assert chance.ask(book, _event(), "gm", 1, 90, 3).where == [f"{D1}|BA|4", f"{D1}|CA|4", f"{D2}|FI|1"]


def test_after_binds_only_to_draws_later_than_the_turns_own() -> None:
    book = _lottery_book()
    assert chance.ask(book, _event(), "x", 1, 6, after=D1).where == [f"{D2}|FI|1"]
    with pytest.raises(Rejection, match="no future lottery draw is known"):
        chance.ask(book, _event(), "y", 1, 6, after=D2)
    assert book.used == ["x", f"{D2}|FI|1"]  # the refused roll took nothing
    drand = chance.new_book(chance.DRAND, {})
    assert chance.ask(drand, _event((D1, "drand:9")), "x", 1, 6, after=D2).where == ["drand:9"]


def test_a_game_numbers_its_rolls_and_suffixes_its_labels_itself() -> None:
    book = chance.new_book(chance.DRAND, {})
    colon = "{}:{}".format
    first = chance.ask(book, _event(("drand:9",)), "turn-3:roll-17:siege", 1, 90, roll_id=17, again=colon)
    assert (first.id, first.label, book.next_id) == (17, "turn-3:roll-17:siege", 18)
    again = chance.ask(book, _event(("drand:9",)), "turn-3:roll-17:siege", 1, 90, roll_id=20, again=colon)
    assert (again.id, again.label, book.next_id) == (20, "turn-3:roll-17:siege:2", 21)
    assert chance.ask(book, _event(("drand:9",)), "plain", 1, 6).id == 21
    before = (list(book.used), book.next_id, len(book.bindings))
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(("drand:9",)), "late", 1, 6, roll_id=19)
    assert str(refused.value) == "roll #19 comes before this book's next id #22; a roll's id is never reused"
    assert (list(book.used), book.next_id, len(book.bindings)) == before


def test_a_roll_of_1_to_90_reads_raw_numbers() -> None:
    book = _lottery_book()
    binding = chance.ask(book, _event(), "raw", 1, 90, 3)
    assert binding.where == [f"{D1}|FI|1", f"{D1}|GE|1", f"{D1}|MI|1"]
    numbers = {w: [90 - 5 * i - k for k in range(5)] for i, w in enumerate(TEN)}  # FI 80, GE 75, MI 70
    chance.record(book, _event(kind="draw.recorded", data={"date": D1, "numbers": numbers}))
    assert chance.settle(book, _event()) == [binding] and binding.values == [80, 75, 70]
    drand = chance.new_book(chance.DRAND, {})
    rolled = chance.ask(drand, _event(("drand:9",)), "turn-1:roll-2:storm", 1, 90)
    chance.record(drand, _event(kind="beacon.recorded", data={"round": 9, "randomness": RANDOMNESS}))
    chance.settle(drand, _event())
    # The number Mare Nostrum's fold derives for a drand roll of that label (engine/mare_nostrum/slots.py ``settle``).
    assert rolled.values == drand_source.value_of(RANDOMNESS, "turn-1:roll-2:storm", 1, 1, 90) == [46]
