"""Dice written as the GM writes them (``2d6``, ``d20``, ``3d6+1``), and dice made from lottery numbers.

Every die comes from lottery numbers 1..90 without bias. When the die's sides divide 90, one number gives
one die: the 90 numbers fall evenly on the faces. Otherwise two numbers make one value 0..8099 and the
values past the last whole multiple of the sides are refused (rejection sampling): a refused pair is
replaced by the next pair of numbers, so every face keeps exactly the same chance.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_DICE = 20
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_MODIFIER = 1000
LOTTO_HIGH = 90  # lottery numbers run 1..90
PAIR_RANGE = LOTTO_HIGH * LOTTO_HIGH  # two numbers: 8100 values

_EXPRESSION = re.compile(r"^(?P<count>\d*)d(?P<sides>\d*)(?:(?P<sign>[+-])(?P<mod>\d*))?$")


class DiceError(ValueError):
    """A dice expression that cannot be rolled; the message quotes it and says what to write instead."""


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int
    modifier: int = 0

    @property
    def text(self) -> str:
        """The canonical spelling, stored in the log so a replay never depends on how leniently it was read."""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def numbers_per_die(self) -> int:
        return numbers_per_die(self.sides)


def parse(expression: str) -> Dice:
    text = expression.strip()
    compact = re.sub(r"\s+", "", text).lower()
    match = _EXPRESSION.match(compact)
    if match is None:
        raise DiceError(f"'{text}' is not a dice roll: write e.g. 2d6, d20, 1d90, 3d6+1 or 2d10-1")
    count = int(match["count"]) if match["count"] else 1
    if not match["sides"] or int(match["sides"]) == 0:
        raise DiceError(f"'{text}' has no sides: write e.g. 2d6")
    sides = int(match["sides"])
    if match["sign"] and not match["mod"]:
        raise DiceError(f"'{text}' ends with '{match['sign']}' and no number: write e.g. 3d6+1")
    modifier = int(match["mod"] or 0) * (-1 if match["sign"] == "-" else 1)
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"'{text}' rolls {count} dice: roll 1 to {MAX_DICE} dice at once, e.g. 2d6")
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise DiceError(f"'{text}' has {sides} sides: a die has {MIN_SIDES} to {MAX_SIDES} sides, e.g. 2d6 or 1d100")
    if abs(modifier) > MAX_MODIFIER:
        raise DiceError(f"'{text}' adds {modifier}: the modifier runs from -{MAX_MODIFIER} to +{MAX_MODIFIER}")
    return Dice(count, sides, modifier)


def numbers_per_die(sides: int) -> int:
    """1 when the sides divide 90 (one number is an unbiased die), else 2 (a pair, with rejection)."""
    return 1 if LOTTO_HIGH % sides == 0 else 2


def _check_number(n: int) -> None:
    if not 1 <= n <= LOTTO_HIGH:
        raise ValueError(f"a lottery number runs from 1 to {LOTTO_HIGH}, not {n}")


def die_from_number(n: int, sides: int) -> int:
    """One number, one die: only for sides that divide 90, where every face gets 90/sides numbers."""
    _check_number(n)
    if LOTTO_HIGH % sides:
        raise ValueError(f"a d{sides} needs two lottery numbers: {sides} does not divide {LOTTO_HIGH}")
    return (n - 1) % sides + 1


def pair_value(a: int, b: int) -> int:
    """Two numbers as one value 0..8099, the first number the more significant."""
    _check_number(a)
    _check_number(b)
    return (a - 1) * LOTTO_HIGH + (b - 1)


def pair_limit(sides: int) -> int:
    """Values below this are accepted: the largest multiple of the sides that fits in 8100."""
    return PAIR_RANGE - PAIR_RANGE % sides


def die_from_pair(a: int, b: int, sides: int) -> int | None:
    """The die two numbers make, or None when their value is refused and the next pair must be used."""
    value = pair_value(a, b)
    if value >= pair_limit(sides):
        return None
    return value % sides + 1


def rule(sides: int) -> str:
    """How the numbers become a die, said with the binding so anyone can redo it."""
    if numbers_per_die(sides) == 1:
        return f"die = (number - 1) mod {sides} + 1"
    limit = pair_limit(sides)
    refused = f"; a value of {limit} or more is refused and the next two free slots roll again" if limit < PAIR_RANGE else ""
    return f"value = (first - 1) x 90 + (second - 1), die = value mod {sides} + 1{refused}"


def total_text(dice: Dice, values: list[int]) -> str:
    """'4 + 6 = 10'; a modifier is shown apart from the dice, e.g. '4 + 6 + 2 (+1) = 13'."""
    terms = " + ".join(str(v) for v in values)
    total = sum(values) + dice.modifier
    if dice.modifier:
        return f"{terms} ({dice.modifier:+d}) = {total}"
    if len(values) == 1:
        return terms
    return f"{terms} = {total}"
