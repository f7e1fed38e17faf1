"""Dice expressions, and dice from lottery numbers with every face exactly as likely as the others."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import dice
from engine.dice import Dice, DiceError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d6", Dice(2, 6)), ("1d90", Dice(1, 90)), ("3d6+1", Dice(3, 6, 1)), ("d20", Dice(1, 20)),
        ("2d10-1", Dice(2, 10, -1)), ("2D6", Dice(2, 6)), (" 3d6 + 1 ", Dice(3, 6, 1)), ("20d1000", Dice(20, 1000)),
    ],
)
def test_parse(text: str, expected: Dice) -> None:
    assert dice.parse(text) == expected


def test_canonical_text() -> None:
    assert [dice.parse(t).text for t in ("d20", "3d6+1", "2d10-1", "2D6")] == ["1d20", "3d6+1", "2d10-1", "2d6"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d0", "'2d0' has no sides: write e.g. 2d6"),
        ("2d", "'2d' has no sides: write e.g. 2d6"),
        ("0d6", "'0d6' rolls 0 dice: roll 1 to 20 dice"),
        ("21d6", "'21d6' rolls 21 dice"),
        ("1d1", "'1d1' has 1 sides: a die has 2 to 1000 sides"),
        ("1d1001", "'1d1001' has 1001 sides"),
        ("3d6+", "'3d6+' ends with '+' and no number"),
        ("1d6+1001", "the modifier runs from -1000 to +1000"),
        ("banana", "'banana' is not a dice roll: write e.g. 2d6"),
        ("2x6", "'2x6' is not a dice roll"),
        ("", "'' is not a dice roll"),
    ],
)
def test_errors_quote_the_text(text: str, message: str) -> None:
    with pytest.raises(DiceError) as caught:
        dice.parse(text)
    assert message in str(caught.value)


def test_one_number_per_die_exactly_when_the_sides_divide_90() -> None:
    one = [s for s in range(2, 1001) if dice.numbers_per_die(s) == 1]
    assert one == [2, 3, 5, 6, 9, 10, 15, 18, 30, 45, 90]


@pytest.mark.parametrize("sides", [2, 3, 5, 6, 9, 10, 15, 18, 30, 45, 90])
def test_one_number_dice_are_unbiased(sides: int) -> None:
    faces = Counter(dice.die_from_number(n, sides) for n in range(1, 91))
    assert set(faces) == set(range(1, sides + 1)) and set(faces.values()) == {90 // sides}


@pytest.mark.parametrize("sides", [4, 7, 8, 12, 20, 100, 901, 997, 1000])
def test_pair_dice_are_unbiased_over_every_pair(sides: int) -> None:
    faces: Counter[int] = Counter()
    refused = 0
    for a in range(1, 91):
        for b in range(1, 91):
            value = dice.die_from_pair(a, b, sides)
            if value is None:
                refused += 1
            else:
                faces[value] += 1
    assert set(faces) == set(range(1, sides + 1))
    assert set(faces.values()) == {8100 // sides}  # every face the very same number of pairs
    assert refused == 8100 % sides


def test_pair_examples() -> None:
    assert dice.pair_value(1, 1) == 0 and dice.pair_value(90, 90) == 8099 and dice.pair_value(3, 45) == 224
    assert dice.die_from_pair(3, 45, 20) == 5
    assert dice.pair_limit(7) == 8099 and dice.die_from_pair(90, 90, 7) is None
    assert dice.die_from_pair(90, 89, 7) == 8098 % 7 + 1


def test_numbers_outside_the_lottery_and_misused_rules_are_errors() -> None:
    with pytest.raises(ValueError):
        dice.die_from_number(0, 6)
    with pytest.raises(ValueError):
        dice.die_from_number(91, 6)
    with pytest.raises(ValueError):
        dice.die_from_number(5, 7)  # a d7 needs a pair
    with pytest.raises(ValueError):
        dice.pair_value(1, 91)


def test_total_text() -> None:
    assert dice.total_text(Dice(2, 6), [4, 6]) == "4 + 6 = 10"
    assert dice.total_text(Dice(1, 20), [17]) == "17"
    assert dice.total_text(Dice(3, 6, 1), [4, 6, 2]) == "4 + 6 + 2 (+1) = 13"
    assert dice.total_text(Dice(2, 10, -1), [10, 1]) == "10 + 1 (-1) = 10"


# --- issue 32: both ends of every bound, and every word said ------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("20d6", Dice(20, 6)), ("1d2", Dice(1, 2)), ("1d1000", Dice(1, 1000)), ("1d6+1000", Dice(1, 6, 1000)),
    ("1d6-1000", Dice(1, 6, -1000)), (" 2 D 10 - 1 ", Dice(2, 10, -1)), ("1d6+0", Dice(1, 6, 0)),
])
def test_the_ends_of_every_bound_are_accepted(text: str, expected: Dice) -> None:
    assert dice.parse(text) == expected


@pytest.mark.parametrize(("text", "words"), [
    ("21d6", "'21d6' rolls 21 dice: roll 1 to 20 dice at once, e.g. 2d6"),
    ("0d6", "'0d6' rolls 0 dice: roll 1 to 20 dice at once, e.g. 2d6"),
    ("1d1", "'1d1' has 1 sides: a die has 2 to 1000 sides, e.g. 2d6 or 1d100"),
    ("1d1001", "'1d1001' has 1001 sides: a die has 2 to 1000 sides, e.g. 2d6 or 1d100"),
    ("1d6+1001", "'1d6+1001' adds 1001: the modifier runs from -1000 to +1000"),
    ("1d6-1001", "'1d6-1001' adds -1001: the modifier runs from -1000 to +1000"),
    ("2d", "'2d' has no sides: write e.g. 2d6"),
    ("2d0", "'2d0' has no sides: write e.g. 2d6"),
    ("3d6+", "'3d6+' ends with '+' and no number: write e.g. 3d6+1"),
    ("two dice", "'two dice' is not a dice roll: write e.g. 2d6, d20, 1d90, 3d6+1 or 2d10-1"),
])
def test_each_refusal_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(DiceError) as refused:
        dice.parse(text)
    assert str(refused.value) == words


def test_the_canonical_spelling_and_the_numbers_a_die_takes() -> None:
    assert (Dice(2, 6, 1).text, Dice(2, 6, -1).text, Dice(1, 6).text) == ("2d6+1", "2d6-1", "1d6")
    assert [dice.numbers_per_die(s) for s in (2, 6, 7, 45, 90, 91, 1000)] == [1, 1, 2, 1, 1, 2, 2]
    assert (Dice(1, 6).numbers_per_die, Dice(1, 7).numbers_per_die) == (1, 2)


def test_one_number_makes_a_die_at_both_ends_of_1_to_90() -> None:
    assert [dice.die_from_number(n, 6) for n in (1, 6, 7, 90)] == [1, 6, 1, 6]
    assert dice.die_from_number(90, 90) == 90
    for bad in (0, 91):
        with pytest.raises(ValueError) as refused:
            dice.die_from_number(bad, 6)
        assert str(refused.value) == f"a lottery number runs from 1 to 90, not {bad}"
    with pytest.raises(ValueError) as refused:
        dice.die_from_number(5, 7)
    assert str(refused.value) == "a d7 needs two lottery numbers: 7 does not divide 90"


def test_two_numbers_make_a_value_from_0_to_8099_and_the_top_is_refused() -> None:
    assert [dice.pair_value(1, 1), dice.pair_value(1, 2), dice.pair_value(2, 1), dice.pair_value(90, 90)] == \
        [0, 1, 90, 8099]
    with pytest.raises(ValueError):
        dice.pair_value(1, 91)
    # 8100 mod 7 = 1: 8099 values are kept, the last one (8099) is refused.
    assert (dice.pair_limit(7), dice.pair_limit(1000), dice.pair_limit(100)) == (8099, 8000, 8100)
    assert dice.die_from_pair(1, 1, 7) == 1
    assert dice.die_from_pair(90, 89, 7) == 7  # 8098 = 7 x 1156 + 6
    assert dice.die_from_pair(90, 90, 7) is None
    assert dice.die_from_pair(89, 80, 1000) == 1000  # 7999 mod 1000 = 999
    assert dice.die_from_pair(89, 81, 1000) is None  # 8000: refused


def test_the_rule_said_with_a_binding() -> None:
    assert dice.rule(6) == "die = (number - 1) mod 6 + 1"
    assert dice.rule(7) == ("value = (first - 1) x 90 + (second - 1), die = value mod 7 + 1; a value of 8099 or more "
                            "is refused and the next two free slots roll again")
    assert dice.rule(100) == "value = (first - 1) x 90 + (second - 1), die = value mod 100 + 1"


@pytest.mark.parametrize(("rolled", "values", "words"), [
    (Dice(2, 6), [4, 6], "4 + 6 = 10"),
    (Dice(1, 6), [4], "4"),
    (Dice(3, 6, 1), [4, 6, 2], "4 + 6 + 2 (+1) = 13"),
    (Dice(1, 6, -1), [4], "4 (-1) = 3"),
])
def test_a_total_is_said_with_its_modifier_apart(rolled: Dice, values: list[int], words: str) -> None:
    assert dice.total_text(rolled, values) == words
