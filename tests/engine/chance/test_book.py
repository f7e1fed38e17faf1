"""The chance book (engine/chance/book.py), outcome by outcome (issue 32): the slot a lottery roll takes, the die a
number makes, the label a repeated roll gets, the words a binding is described in, and both ends of every range.
Each expected value here is worked out by hand from the rules in the module's text, so a changed rule fails."""
from __future__ import annotations

from typing import Any

import pytest

from engine import commit_reveal
from engine.chance import book as chance
from engine.chance.lottery_slots import ONE_NUMBER_PER_WHEEL, ONE_ROLL_PER_WHEEL
from engine.events import Event, Rejection
from engine.ruleset import Need

D1, D2, D3 = "2023-01-05", "2023-01-07", "2023-01-10"
TEN = ["BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE"]
RANDOMNESS = "ab" * 32


def _event(kind: str = "roll", data: dict[str, Any] | None = None, draws: tuple[str, ...] = (D1, D2, D3)) -> Event:
    return Event(seq=1, kind=kind, actor="gm", data=data or {}, draws=draws)


def _draw(day: str, numbers: dict[str, list[int]], draws: tuple[str, ...] = ()) -> Event:
    return _event("draw.recorded", {"date": day, "numbers": numbers}, draws=draws)


def _wheels(first: int = 1) -> dict[str, list[int]]:
    """Fifty distinct numbers, so a test can tell which slot was read: wheel i (0-based, in TEN order) holds
    first + 5*i, first + 5*i + 1, ..., first + 5*i + 4 (1..50)."""
    return {w: [first + 5 * i + k for k in range(5)] for i, w in enumerate(TEN)}


# --- asking ----------------------------------------------------------------------------------------------------


def test_a_repeated_label_takes_the_next_number_from_2() -> None:
    """Labels seed the derived dice: the second "siege" must be "siege#2", the third "siege#3"."""
    book = chance.ChanceBook(source=chance.DRAND)
    labels = [chance.ask(book, _event(draws=("drand:7",)), "siege", 1, 6).label for _ in range(3)]
    assert labels == ["siege", "siege#2", "siege#3"]
    assert book.used == ["siege", "drand:7", "siege#2", "siege#3"]
    assert [b.id for b in book.bindings] == [1, 2, 3] and book.next_id == 4


def test_the_range_of_a_roll_is_accepted_to_its_very_ends() -> None:
    book = chance.ChanceBook(source=chance.DRAND)
    ev = _event(draws=("drand:9",))
    single = chance.ask(book, ev, "one", 4, 4)
    assert (single.lo, single.hi) == (4, 4)
    widest = chance.ask(book, ev, "wide", 0, 2**31 - 1)
    assert (widest.lo, widest.hi) == (0, 2**31 - 1)
    assert chance.ask(book, ev, "one value", 1, 6, 1).count == 1
    assert chance.ask(book, ev, "volley", 1, 6, chance.MAX_VALUES).count == 200


@pytest.mark.parametrize(("lo", "hi", "count", "words"), [
    (5, 4, 1, "a roll needs a range lo..hi with lo <= hi, not 5..4"),
    (0, 2**31, 1, f"a roll needs a range lo..hi with lo <= hi, not 0..{2**31}"),
    (1.0, 6, 1, "a roll needs a range lo..hi with lo <= hi, not 1.0..6"),
    (1, "6", 1, "a roll needs a range lo..hi with lo <= hi, not 1..6"),
    (1, 6, 0, "a roll gives 1 to 200 values at once, not 0"),
    (1, 6, 201, "a roll gives 1 to 200 values at once, not 201"),
])
def test_a_roll_out_of_bounds_is_refused_with_its_reason(lo: Any, hi: Any, count: int, words: str) -> None:
    book = chance.ChanceBook(source=chance.DRAND)
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(draws=("drand:9",)), "x", lo, hi, count)
    assert str(refused.value) == words
    assert book.bindings == [] and book.used == [] and book.next_id == 1


def test_drand_binds_the_earliest_round_offered_and_refuses_without_one() -> None:
    book = chance.ChanceBook(source=chance.DRAND)
    roll = chance.ask(book, _event(draws=(D1, "drand:120", "drand:99", "drand:x")), "r", 1, 6)
    assert roll.where == ["drand:99"]
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(draws=(D1,)), "r", 1, 6)
    assert str(refused.value) == ("no future drand round was offered to bind this roll to; the shell offers one "
                                  "with every event")


def test_an_unknown_source_is_refused() -> None:
    with pytest.raises(Rejection) as refused:
        chance.ask(chance.ChanceBook(source="dice cup"), _event(), "r", 1, 6)
    assert str(refused.value) == "unknown source of chance 'dice cup'"


# --- lottery slots (rule 1) --------------------------------------------------------------------------------------


def test_rule_1_slots_go_wheel_by_wheel_from_position_1_then_position_2() -> None:
    """The first slot handed out is position 1 (the first number), never 0 (which reads as the fifth)."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    first = chance.ask(book, _event(), "first", 1, 6, 3)
    assert first.where == [f"{D1}|BA|1", f"{D1}|CA|1", f"{D1}|FI|1"]
    rest = chance.ask(book, _event(), "rest", 1, 6, 7)
    assert rest.where == [f"{D1}|{w}|1" for w in TEN[3:]]
    # Every wheel's first number is taken: the next roll takes second numbers, one wheel each.
    assert chance.ask(book, _event(), "next", 1, 6, 2).where == [f"{D1}|BA|2", f"{D1}|CA|2"]


def test_rule_1_one_roll_never_takes_two_numbers_of_one_wheel_and_moves_to_the_next_draw() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "volley", 1, 6, 12)
    assert roll.where == [f"{D1}|{w}|1" for w in TEN] + [f"{D2}|BA|1", f"{D2}|CA|1"]


def test_rule_1_a_draw_holds_fifty_slots_and_then_the_roll_is_refused() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    for i in range(10):
        chance.ask(book, _event(draws=(D1, D2)), f"r{i}", 1, 6, 10)
    assert book.bindings[4].where == [f"{D1}|{w}|5" for w in TEN]
    assert book.bindings[-1].where == [f"{D2}|{w}|5" for w in TEN]
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(draws=(D1, D2)), "one more", 1, 6)
    assert str(refused.value) == (
        f"the coming lottery draws offered ({D1}, {D2}) have too few free slots for this roll (1 numbers on separate "
        "wheels); the GM must import later draws first")


def test_rule_2_takes_each_wheels_first_number_to_the_last_and_then_refuses() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    every = chance.ask(book, _event(draws=(D1, D2)), "twenty", 1, 6, 20)  # exactly the wheels of two draws
    assert every.where == [f"{D1}|{w}|1" for w in TEN] + [f"{D2}|{w}|1" for w in TEN]
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(draws=(D1, D2)), "one more", 1, 6)
    assert str(refused.value) == (
        f"the coming lottery draws offered ({D1}, {D2}) have too few unused wheels for this roll (1 numbers; each "
        "wheel of a draw gives one); the GM must import later draws first")
    short = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_NUMBER_PER_WHEEL)
    with pytest.raises(Rejection):
        chance.ask(short, _event(draws=(D1,)), "eleven", 1, 6, 11)
    assert short.bindings == []


def test_a_lottery_roll_without_a_draw_offered_is_refused() -> None:
    with pytest.raises(Rejection) as refused:
        chance.ask(chance.ChanceBook(source=chance.LOTTERY), _event(draws=("drand:5",)), "r", 1, 6)
    assert str(refused.value) == ("no future lottery draw is known to bind this roll to; the GM must import the "
                                  "coming draws first")


# --- settling a lottery roll -----------------------------------------------------------------------------------


def test_a_lottery_roll_settles_from_the_numbers_of_its_slots_shifted_to_its_range() -> None:
    """A 3..8 roll (six values, one number each): die = (n - 1) mod 6 + 1, value = 3 + die - 1."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "d6+2", 3, 8, 3)
    assert chance.settle(book, _event()) == [] and roll.values is None
    # BA|1 = 1 -> die 1 -> 3; CA|1 = 6 -> die 6 -> 8 (the top); FI|1 = 11 -> die 5 -> 7.
    assert chance.record(book, _draw(D1, _wheels())) is True
    assert chance.settle(book, _event()) == [roll]
    assert roll.values == [3, 8, 7]
    assert chance.settle(book, _event()) == []  # settled once


def test_a_lottery_roll_reads_the_number_at_its_position() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(book, _event(), "first numbers", 1, 90, 10)
    second = chance.ask(book, _event(), "second numbers", 1, 90, 2)
    chance.record(book, _draw(D1, _wheels()))
    chance.settle(book, _event())
    assert second.where == [f"{D1}|BA|2", f"{D1}|CA|2"]
    assert second.values == [2, 7]
    assert book.bindings[0].values == [1, 6, 11, 16, 21, 26, 31, 36, 41, 46]


def test_a_pair_die_settles_from_two_numbers() -> None:
    """A d7 (7 does not divide 90): value = (a - 1) x 90 + (b - 1) = (5 - 1) x 90 + (14 - 1) = 373, 373 mod 7 = 2,
    die 3; in 10..16 that is 12."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "d7", 10, 16)
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1"]
    numbers = _wheels()
    numbers["BA"][0], numbers["CA"][0] = 5, 14
    chance.record(book, _draw(D1, numbers))
    assert chance.settle(book, _event()) == [roll] and roll.values == [12]


def test_a_refused_pair_rolls_again_on_the_next_draw_and_keeps_its_good_pairs() -> None:
    """Two d7: the first pair (90, 90) is value 8099, past 8099 - 8100 mod 7 = 8092, refused; the second pair is
    kept. The refused die takes the first free slots of the next draw offered, and the roll waits for it."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "2d7", 1, 7, 2)
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1", f"{D1}|FI|1", f"{D1}|GE|1"]
    numbers = _wheels()
    numbers["BA"][0], numbers["CA"][0], numbers["FI"][0], numbers["GE"][0] = 90, 90, 1, 8
    chance.record(book, _draw(D1, numbers))
    assert chance.settle(book, _event(draws=(D2, D3))) == []
    assert roll.where == [f"{D1}|FI|1", f"{D1}|GE|1", f"{D2}|BA|1", f"{D2}|CA|1"]
    assert book.used[-2:] == [f"{D2}|BA|1", f"{D2}|CA|1"]
    # (1, 8): value 7, die 1; (2, 1) on D2: value 90, 90 mod 7 = 6, die 7.
    later = _wheels()
    later["BA"][0], later["CA"][0] = 2, 1
    chance.record(book, _draw(D2, later))
    assert chance.settle(book, _event(draws=(D3,))) == [roll]
    assert roll.values == [1, 7]


def test_a_refused_second_pair_rolls_again_and_the_first_pair_keeps_its_two_slots() -> None:
    """Two d7: (1, 8) is kept (die 1); (90, 90) is refused. The roll keeps the first pair's two slots, no more."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "2d7", 1, 7, 2)
    numbers = _wheels()
    numbers["BA"][0], numbers["CA"][0], numbers["FI"][0], numbers["GE"][0] = 1, 8, 90, 90
    chance.record(book, _draw(D1, numbers))
    assert chance.settle(book, _event(draws=(D2,))) == []
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1", f"{D2}|BA|1", f"{D2}|CA|1"]


def test_a_refused_pair_with_no_later_draw_offered_waits() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "d7", 1, 7)
    numbers = _wheels()
    numbers["BA"][0], numbers["CA"][0] = 90, 90
    chance.record(book, _draw(D1, numbers))
    assert chance.settle(book, _event(draws=(D1,))) == []
    assert roll.where == [f"{D1}|BA|1", f"{D1}|CA|1"] and roll.values is None


def test_a_draw_without_the_wheel_a_roll_is_bound_to_is_refused() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(book, _event(), "d6", 1, 6)
    numbers = _wheels()
    del numbers["BA"]
    chance.record(book, _draw(D1, numbers))
    with pytest.raises(Rejection) as refused:
        chance.settle(book, _event())
    assert str(refused.value) == f"the draw of {D1} lacks the wheel BA that roll #1 is bound to"


def test_a_lottery_roll_of_more_than_1000_values_cannot_settle() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(book, _event(), "d1000", 1, 1000)
    wide = chance.ask(book, _event(), "d1001", 1, 1001)
    chance.record(book, _draw(D1, _wheels()))
    with pytest.raises(Rejection) as refused:
        chance.settle(book, _event())
    assert str(refused.value) == "a lottery roll covers at most 1000 values, not 1001"
    assert wide.values is None


def test_a_d1000_at_the_top_of_its_range_settles() -> None:
    """(12, 20): value 11 x 90 + 19 = 1009, 1009 mod 1000 = 9, die 10."""
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(), "d1000", 1, 1000)
    numbers = _wheels()
    numbers["BA"][0], numbers["CA"][0] = 12, 20
    chance.record(book, _draw(D1, numbers))
    chance.settle(book, _event())
    assert roll.values == [10]


# --- recording ---------------------------------------------------------------------------------------------------


def test_a_recorded_draw_is_kept_as_whole_numbers_by_wheel_and_never_changed() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY)
    assert chance.record(book, _draw(D1, {"BA": ["1", 2, 3, 4, 5]})) is True
    assert book.draws == {D1: {"BA": [1, 2, 3, 4, 5]}}
    assert chance.record(book, _draw(D1, {"BA": [1, 2, 3, 4, 5]})) is True  # the same again: fine
    with pytest.raises(Rejection) as refused:
        chance.record(book, _draw(D1, {"BA": [1, 2, 3, 4, 6]}))
    assert str(refused.value) == f"the draw of {D1} is already recorded with other numbers; a stored draw is never changed"
    with pytest.raises(Rejection) as refused:
        chance.record(book, _draw(D2, "1 2 3"))  # type: ignore[arg-type]
    assert str(refused.value) == "draw.recorded needs the date and the numbers of each wheel"
    assert book.draws == {D1: {"BA": [1, 2, 3, 4, 5]}}


def test_an_event_that_records_nothing_is_not_taken() -> None:
    book = chance.ChanceBook()
    assert chance.record(book, _event("order")) is False
    assert (book.draws, book.beacons, book.numbers) == ({}, {}, {})


def test_a_beacon_is_kept_by_round_and_never_changed() -> None:
    book = chance.ChanceBook()
    assert chance.record(book, _event("beacon.recorded", {"round": 12, "randomness": RANDOMNESS})) is True
    assert book.beacons == {"12": RANDOMNESS}
    chance.record(book, _event("beacon.recorded", {"round": "12", "randomness": RANDOMNESS}))
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("beacon.recorded", {"round": 12, "randomness": "cd" * 32}))
    assert str(refused.value) == "round 12 is already recorded with another randomness; a beacon never changes"


@pytest.mark.parametrize("data", [
    {"round": "x", "randomness": RANDOMNESS},
    {"round": 3, "randomness": "ab" * 31},
    {"round": 3, "randomness": "ab" * 33},
    {"round": 3, "randomness": "AB" * 32},
    {"randomness": RANDOMNESS},
])
def test_a_malformed_beacon_is_refused(data: dict[str, Any]) -> None:
    book = chance.ChanceBook()
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("beacon.recorded", data))
    assert str(refused.value) == "beacon.recorded needs a round number and its randomness (64 lowercase hex digits)"
    assert book.beacons == {}


def test_seed_numbers_are_kept_as_lists_and_never_changed() -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    assert chance.record(book, _event("random.recorded", {"numbers": {"a": 4, "b": [1, 2]}})) is True
    assert book.numbers == {"a": [4], "b": [1, 2]}
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("random.recorded", {"numbers": {"a": [5]}}))
    assert str(refused.value) == "'a' is already recorded as [4]; a recorded number is never changed"
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("random.recorded", {"numbers": {"c": [True]}}))
    assert str(refused.value) == "the values of 'c' must be a list of whole numbers, not [True]"
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("random.recorded", {"numbers": {}}))
    assert str(refused.value) == "random.recorded needs numbers: {label: [values]}"


def test_seed_numbers_of_a_mixed_label_wait_for_its_round() -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("random.recorded", {"numbers": {"a@drand:8": [1]}}))
    assert str(refused.value) == ("'a@drand:8' is mixed with drand round 8, whose beacon is not recorded yet: its "
                                  "values cannot exist before that round")


# --- commit-reveal -----------------------------------------------------------------------------------------------


def test_a_commit_reveal_label_is_mixed_with_the_first_round_and_the_bare_label_stays_used() -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    roll = chance.ask(book, _event(draws=("drand:51", "drand:50")), "siege", 1, 6, 2)
    assert roll.label == "siege@drand:50" and roll.where == ["siege@drand:50", "drand:50"]
    assert book.used == ["siege", "siege@drand:50", "drand:50"]
    unmixed = chance.ask(book, _event(draws=(D1,)), "siege", 1, 6)  # rule 1 binds without a round
    assert unmixed.label == "siege#2" and unmixed.where == ["siege#2"]


def test_rule_2_refuses_a_commit_reveal_roll_without_a_round() -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL, rule=commit_reveal.RULE_AT_ONCE)
    with pytest.raises(Rejection) as refused:
        chance.ask(book, _event(draws=(D1,)), "siege", 1, 6)
    assert str(refused.value) == ("no future drand round was offered to bind this roll to; the shell offers one "
                                  "with every event")
    assert book.used == []


@pytest.mark.parametrize(("values", "ok"), [
    ([1, 6], True),  # both ends of 1..6
    ([1], False),  # a wrong count, values in range
    ([1, 6, 3], False),
    ([0, 6], False),  # the right count, a value out of range
    ([1, 7], False),
    ([0], False),  # both wrong
])
def test_commit_reveal_values_need_the_right_count_and_range(values: list[int], ok: bool) -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    roll = chance.ask(book, _event(draws=(D1,)), "duel", 1, 6, 2)
    chance.record(book, _event("random.recorded", {"numbers": {"duel": values}}))
    if ok:
        assert chance.settle(book, _event()) == [roll] and roll.values == values
        return
    with pytest.raises(Rejection) as refused:
        chance.settle(book, _event())
    assert str(refused.value) == f"'duel' needs 2 values in 1..6, not {values}"
    assert roll.values is None


def test_rule_2_records_only_the_rounds_values_for_a_bound_label() -> None:
    book = chance.ChanceBook(source=chance.COMMIT_REVEAL, rule=commit_reveal.RULE_AT_ONCE)
    roll = chance.ask(book, _event(draws=("drand:5",)), "duel", 1, 6, 2)
    chance.record(book, _event("beacon.recorded", {"round": 5, "randomness": RANDOMNESS}))
    right = commit_reveal.round_values("duel@drand:5", 2, 1, 6, RANDOMNESS)
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("random.recorded", {"numbers": {"other@drand:5": right}}))
    assert str(refused.value) == "no roll of this campaign is bound to 'other@drand:5': no number can be recorded for it"
    wrong = [(right[0] % 6) + 1, right[1]]
    with pytest.raises(Rejection):
        chance.record(book, _event("random.recorded", {"numbers": {"duel@drand:5": wrong}}))
    chance.record(book, _event("random.recorded", {"numbers": {"duel@drand:5": right}}))
    assert chance.settle(book, _event()) == [roll] and roll.values == right


def test_a_drand_roll_settles_from_its_beacon_by_its_label() -> None:
    book = chance.ChanceBook(source=chance.DRAND)
    roll = chance.ask(book, _event(draws=("drand:5",)), "duel", 2, 9, 3)
    assert chance.settle(book, _event()) == []
    chance.record(book, _event("beacon.recorded", {"round": 5, "randomness": RANDOMNESS}))
    assert chance.settle(book, _event()) == [roll]
    assert roll.values == commit_reveal.uniform(bytes.fromhex(RANDOMNESS), "duel", 3, 2, 9)


# --- what the book says ------------------------------------------------------------------------------------------


def test_needs_name_each_missing_value_once() -> None:
    lottery = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(lottery, _event(), "a", 1, 6, 12)  # D1 and D2
    chance.ask(lottery, _event(), "b", 1, 6)
    assert chance.needs(lottery) == [Need(chance.LOTTERY, D1), Need(chance.LOTTERY, D2)]
    chance.record(lottery, _draw(D1, _wheels()))
    assert chance.needs(lottery) == [Need(chance.LOTTERY, D2)]

    drand = chance.ChanceBook(source=chance.DRAND)
    chance.ask(drand, _event(draws=("drand:5",)), "a", 1, 6)
    chance.ask(drand, _event(draws=("drand:5",)), "b", 1, 6)
    assert chance.needs(drand) == [Need(chance.DRAND, "5")]

    mixed = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    chance.ask(mixed, _event(draws=("drand:5",)), "a", 2, 8, 3)
    chance.ask(mixed, _event(draws=(D1,)), "bare", 1, 6)
    assert chance.needs(mixed) == [Need(chance.DRAND, "5"), Need(chance.COMMIT_REVEAL, "bare", 1, 6, 1)]
    chance.record(mixed, _event("beacon.recorded", {"round": 5, "randomness": RANDOMNESS}))
    assert chance.needs(mixed) == [Need(chance.COMMIT_REVEAL, "a@drand:5", 2, 8, 3, mix=RANDOMNESS),
                                   Need(chance.COMMIT_REVEAL, "bare", 1, 6, 1)]


def test_each_binding_is_described_in_words_anyone_can_check() -> None:
    lottery = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    d7 = chance.ask(lottery, _event(), "d7", 1, 7, purpose="siege of Numantia", seat="Romans", meaning="7 wins")
    assert chance.describe(d7) == f"lottery {D1} BA #1, {D1} CA #1"
    drand = chance.ChanceBook(source=chance.DRAND)
    assert chance.describe(chance.ask(drand, _event(draws=("drand:5",)), "r", 1, 6)) == \
        "drand quicknet round 5, label 'r'"
    mixed = chance.ChanceBook(source=chance.COMMIT_REVEAL)
    assert chance.describe(chance.ask(mixed, _event(draws=("drand:5",)), "r", 1, 6)) == \
        "commit-reveal label 'r@drand:5', mixed with drand quicknet round 5"
    assert chance.describe(chance.ask(mixed, _event(draws=(D1,)), "s", 1, 6)) == "commit-reveal label 's'"
    assert chance.ledger_entry(d7, turn=3) == {
        "id": 1, "turn": 3, "purpose": "siege of Numantia", "seat": "Romans", "source": "lottery", "key": D1,
        "where": f"lottery {D1} BA #1, {D1} CA #1",
        "slots": [[D1, "BA", 1, "siege of Numantia (roll #1)"], [D1, "CA", 1, "siege of Numantia (roll #1)"]],
        "values": None, "outcome": "pending", "meaning": "7 wins",
        "derive": {"label": "d7", "lo": 1, "hi": 7, "count": 1},
    }
    d7.values = [4]
    assert chance.ledger_entry(d7)["outcome"] == "drawn"
    assert chance.ledger_entry(d7, outcome="won")["outcome"] == "won"
    bare = chance.ask(drand, _event(draws=("drand:6",)), "plain", 1, 6)
    assert {k: chance.ledger_entry(bare)[k] for k in ("purpose", "key", "slots", "turn")} == \
        {"purpose": "plain", "key": "6", "slots": [], "turn": None}


def test_the_public_view_of_a_book() -> None:
    book = chance.ChanceBook(source=chance.DRAND)
    roll = chance.ask(book, _event(draws=("drand:5",)), "r", 1, 6, purpose="p", seat="s", meaning="m")
    expected_roll = {"id": 1, "label": "r", "lo": 1, "hi": 6, "count": 1, "source": "drand", "where": ["drand:5"],
                     "purpose": "p", "seat": "s", "meaning": "m", "values": None}
    assert roll.to_dict() == expected_roll
    assert book.to_dict() == {"source": "drand", "rolls": [expected_roll]}
    ruled = chance.ChanceBook(source=chance.COMMIT_REVEAL, rule=commit_reveal.RULE_AT_ONCE)
    assert ruled.to_dict() == {"source": "commit-reveal", "rolls": [], "commit_reveal_rule": 2}
    assert chance.rule_of(chance.COMMIT_REVEAL, {"commit_reveal_rule": 2}) == 2
    assert chance.rule_of(chance.DRAND, {"commit_reveal_rule": 2}) == 1


def test_carry_keeps_what_was_handed_out_or_seen_without_overwriting_the_fold() -> None:
    before = chance.ChanceBook(source=chance.DRAND, used=["a", "drand:5"], draws={D1: {"BA": [1]}},
                               beacons={"5": RANDOMNESS}, numbers={"x": [1]}, next_id=4)
    after = chance.ChanceBook(source=chance.DRAND, used=["b"], draws={D1: {"BA": [2]}}, numbers={"y": [2]}, next_id=2)
    chance.carry(before, after)
    assert after.used == ["b", "a", "drand:5"]
    assert after.draws == {D1: {"BA": [2]}}
    assert after.beacons == {"5": RANDOMNESS}
    assert after.numbers == {"y": [2], "x": [1]}
    assert after.next_id == 4
    chance.carry(chance.ChanceBook(next_id=1), after)
    assert after.next_id == 4


# --- a draw ruled not held ---------------------------------------------------------------------------------------


def test_a_cancelled_draw_rebinds_its_slots_to_the_next_draw_in_place() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    roll = chance.ask(book, _event(draws=(D1, D2)), "volley", 1, 6, 12)
    assert roll.where[-2:] == [f"{D2}|BA|1", f"{D2}|CA|1"]
    chance.record(book, _event("draw.cancelled", {"date": D1}, draws=(D2, D3)))
    # D2's BA and CA are the roll's own: the ten D1 slots move to D2's other wheels, then to D3.
    assert roll.where == ([f"{D2}|{w}|1" for w in TEN[2:]] + [f"{D3}|BA|1", f"{D3}|CA|1"]
                          + [f"{D2}|BA|1", f"{D2}|CA|1"])
    assert book.cancelled == [D1]
    with pytest.raises(Rejection) as refused:
        chance.record(book, _draw(D1, _wheels()))
    assert str(refused.value) == (f"the draw of {D1} was ruled not held (draw.cancelled): its rolls were bound to "
                                  "later draws")
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("draw.cancelled", {"date": D1}, draws=(D3,)))
    assert str(refused.value) == f"the draw of {D1} is already ruled not held"


@pytest.mark.parametrize(("recorded", "offered", "words"), [
    (True, (D2,), f"the draw of {D1} is recorded: it was held"),
    (False, (D1,), f"no later lottery draw is known to bind the rolls of {D1} to again; import the coming draws first"),
])
def test_a_draw_cannot_be_cancelled_once_held_or_with_nothing_later(recorded: bool, offered: tuple[str, ...],
                                                                     words: str) -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    chance.ask(book, _event(draws=(D1,)), "d6", 1, 6)
    if recorded:
        chance.record(book, _draw(D1, _wheels()))
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("draw.cancelled", {"date": D1}, draws=offered))
    assert str(refused.value) == words


def test_a_draw_nothing_waits_for_cannot_be_cancelled() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY, slot_rule=ONE_ROLL_PER_WHEEL)
    with pytest.raises(Rejection) as refused:
        chance.record(book, _event("draw.cancelled", {"date": D1}, draws=(D2,)))
    assert str(refused.value) == f"nothing in this campaign waits for the draw of {D1}"


def test_needs_asks_each_run_of_one_source_and_keeps_the_binding_order() -> None:
    """A book built by hand may hold rolls of several sources: what they wait for comes in binding order, each once."""
    book = chance.ChanceBook(source=chance.DRAND)
    chance.ask(book, _event(draws=("drand:9",)), "one", 1, 6)
    assert chance.needs(book) == [Need("drand", "9")]  # a run of one roll
    book.source = chance.LOTTERY
    chance.ask(book, _event(draws=(D2,)), "two", 1, 6)
    book.source = chance.DRAND
    chance.ask(book, _event(draws=("drand:8", "drand:9")), "three", 1, 6)
    chance.ask(book, _event(draws=("drand:9",)), "four", 1, 6)
    assert chance.needs(book) == [Need("drand", "9"), Need("lottery", D2), Need("drand", "8")]


# --- the settled rolls by label (Drawn) -----------------------------------------------------------------------


def test_drawn_shows_a_books_settled_rolls_by_label_and_sees_later_ones_at_once() -> None:
    """A game that asks its dice by label (Mediterranean Empires' oracle) reads them here, with no copy of its own."""
    book = chance.new_book("fixed", {"fixed_values": [3, 3, 5, 2, 6]})
    drawn = chance.Drawn(book)
    first = chance.ask(book, _event(), "t1.o0.ops", 1, 6, 2)
    second = chance.ask(book, _event(), "t1.o0.siege", 1, 6, 3)
    assert "t1.o0.ops" not in drawn and len(drawn) == 0  # bound, not settled yet
    with pytest.raises(KeyError):
        drawn["t1.o0.ops"]
    assert chance.settle(book, _event()) == [first, second]
    assert dict(drawn) == {"t1.o0.ops": [3, 3], "t1.o0.siege": [5, 2, 6]} and len(drawn) == 2
    assert "t1.o0.thwart" not in drawn
