"""Collect money at both ends of the income tables: an empty set, a bad count, full sets and a set begun again."""
from __future__ import annotations

import pytest

from engine.trading_mediterranean import income
from engine.trading_mediterranean.rules_data import default_rules

RULES = default_rules()


@pytest.mark.parametrize(("good", "n", "money"), [
    ("grain", 0, 0), ("grain", 6, 21), ("grain", 12, 42), ("grain", 13, 43),
    ("wine", 0, 0), ("wine", 6, 27), ("wine", 8, 32),
    ("gold", 0, 0), ("gold", 1, 3), ("gold", 6, 33), ("gold", 11, 58)])
def test_sets_at_the_ends_of_each_table(good: str, n: int, money: int) -> None:
    assert income.set_income(RULES, good, n) == money


def test_a_negative_count_is_refused_quoting_it() -> None:
    with pytest.raises(ValueError) as refused:
        income.set_income(RULES, "grain", -1)
    assert str(refused.value) == "a set has 0 or more cards, not -1"


def test_income_by_good_sorted_and_piracy_alone_earns_nothing() -> None:
    assert income.income(RULES, ["piracy"]) == {}
    assert income.income(RULES, []) == {}
    assert list(income.income(RULES, ["wine mars", "dye venus", "dye venus", "grain democracy"]).items()) == [
        ("dye", 5), ("grain", 1), ("wine", 2)]
