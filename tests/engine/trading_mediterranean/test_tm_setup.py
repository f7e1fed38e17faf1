"""Set-up: the starting mat, the turn order from a permutation, the development deck stacked by turn."""
from __future__ import annotations

import pytest

from engine.trading_mediterranean import setup
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.state import Track

RULES = default_rules()


def test_a_starting_civilization() -> None:
    civ = setup.new_civ(RULES, "A")
    assert (civ.vp, civ.money, civ.happiness, civ.safety, civ.industry) == (5, 0, 0, 0, 0)
    assert (civ.government, civ.religion) == (Track("democracy", 0), Track("venus", 0))
    assert civ.population() == 7
    assert civ.cubes == {"farm:salt": 1, "farm:timber": 1, "farm:wool": 1, "farm:grain": 1, "farm:ore": 1,
                         "industry": 1, "warehouse": 1}


def test_turn_order_from_a_permutation() -> None:
    assert setup.turn_order(["A", "B", "C", "D"], [2, 0, 3, 1]) == ["C", "A", "D", "B"]
    with pytest.raises(ValueError, match="a permutation of 0..3"):
        setup.turn_order(["A", "B", "C", "D"], [0, 0, 1, 2])


def test_the_development_deck_stacked_by_turn() -> None:
    by_age = {a: sorted(d.name for d in RULES.developments if d.age == a) for a in ("stone", "bronze", "iron")}
    shuffled = {**by_age, **{k: sorted(c.name for c in RULES.calamities if c.kind == k) for k in ("unhappiness", "barbarian")}}
    reveals = setup.stack_developments(RULES, shuffled)
    assert [r.turn for r in reveals] == [1, 2, 3, 4, 5, 6]
    assert reveals[0].calamities == ()
    assert [r.calamities for r in reveals[1:]] == [
        ("Exodus", "Burning"), ("Famine", "Invasion"), ("Plague", "Pillage"), ("Rebellion", "Raid"), ("Riots", "Sack")]
    assert [r.developments for r in reveals[:3]] == [tuple(by_age["stone"][i:i + 6]) for i in (0, 6, 12)]
    assert reveals[3].developments + reveals[4].developments == tuple(by_age["bronze"])
    assert reveals[5].developments == tuple(by_age["iron"])


def test_a_stack_missing_a_card_is_refused() -> None:
    by_age = {a: [d.name for d in RULES.developments if d.age == a] for a in ("stone", "bronze", "iron")}
    cal = {k: [c.name for c in RULES.calamities if c.kind == k] for k in ("unhappiness", "barbarian")}
    by_age["iron"] = by_age["iron"][:-1]
    with pytest.raises(ValueError, match="the shuffled iron age must hold exactly its developments"):
        setup.stack_developments(RULES, {**by_age, **cal})
