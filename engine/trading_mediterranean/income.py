"""Collect money: the income of the goods spent, by sets of one good (a set counts up to ``max_set`` cards; more
cards start another set: 7 wine = a set of 6 and a set of 1)."""
from __future__ import annotations

from collections import Counter

from engine.trading_mediterranean.rules_data import Rules


def set_income(rules: Rules, good: str, n: int) -> int:
    if n < 0:
        raise ValueError(f"a set has 0 or more cards, not {n}")
    table = rules.income[rules.class_of(good)]
    full, rest = divmod(n, rules.max_set)
    return full * table[-1] + (table[rest - 1] if rest else 0)


def income(rules: Rules, cards: list[str]) -> dict[str, int]:
    """Money earned by each good of the cards spent ('<good> <bottom>'); Piracy earns nothing."""
    goods = Counter(rules.card(c)[0] for c in cards)
    goods.pop("piracy", None)
    return {good: set_income(rules, good, n) for good, n in sorted(goods.items())}
