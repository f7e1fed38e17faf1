"""Resolution at its edges: the warehouse's room at both ends, the Bank's two uses touching only their own bottom,
the words of an income, and industry bonuses for ties, absent seats, empty industries and two industries at once."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.events import Rejection
from engine.trading_mediterranean import resolution
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ
from engine.trading_mediterranean.state import Civ

RULES = default_rules()


def refusal(civ: Civ, cards: list[str]) -> str:
    with pytest.raises(Rejection) as refused:
        resolution.check_warehouse(RULES, civ, cards, {})
    return str(refused.value)


def test_the_warehouse_holds_three_then_five_with_the_upgrade() -> None:
    civ = new_civ(RULES, "Ann")
    civ.cubes["warehouse_upgrade"] = 0  # an emptied upgrade place does not enlarge the warehouse
    resolution.check_warehouse(RULES, civ, [], {})
    resolution.check_warehouse(RULES, civ, ["grain mars"] * 3, {})
    assert refusal(civ, ["grain mars"] * 4) == "Ann may warehouse 3 card(s), not 4"
    civ.cubes["warehouse_upgrade"] = 1
    resolution.check_warehouse(RULES, civ, ["grain mars"] * 5, {})
    assert refusal(civ, ["grain mars"] * 6) == "Ann may warehouse 5 card(s), not 6"


def test_without_a_warehouse_cube_nothing_is_stored_but_nothing_is_fine() -> None:
    civ = new_civ(RULES, "Ann")
    civ.cubes["warehouse"] = 0
    civ.cubes["warehouse_upgrade"] = 1
    resolution.check_warehouse(RULES, civ, [], {})
    assert refusal(civ, ["grain mars"]) == "Ann may warehouse 0 card(s), not 1: the warehouse cube is lost"


def test_a_refused_card_is_named_by_its_face_or_else_by_itself() -> None:
    civ = new_civ(RULES, "Ann")
    assert refusal(civ, ["grain mars", "art corruption"]) == (
        "art corruption may not be warehoused (its bottom says MAY NOT WAREHOUSE)")
    assert resolution.warehousable(RULES, "grain mars") is True
    assert resolution.warehousable(RULES, "ore depression") is False


def test_without_the_bank_each_bottom_counts_once() -> None:
    s = resolution.spend(RULES, ["grain prosperity", "salt prosperity", "ore poverty", "wool barbarians"])
    assert (s.money, s.vp, s.happiness, s.safety) == (4, 2, -1, -1)
    assert s.by_good == {"grain": 1, "ore": 1, "salt": 1, "wool": 1}
    assert s.arrows == Counter()


def test_each_bank_use_touches_only_its_own_bottom() -> None:
    cards = ["grain prosperity", "salt prosperity", "ore poverty", "wool depression"]
    tripled = resolution.spend(RULES, cards, "prosperity")
    assert (tripled.vp, tripled.happiness) == (6, -3)
    ignored = resolution.spend(RULES, cards, "poverty")
    assert (ignored.vp, ignored.happiness) == (2, -2)


def test_a_refused_bank_use_quotes_it() -> None:
    with pytest.raises(Rejection) as refused:
        resolution.spend(RULES, ["grain mars"], "")
    assert str(refused.value) == "the Bank ignores poverty or triples prosperity, not ''"


def test_the_flip_side_of_a_civic_good_points_to_the_opposite_of_its_favour() -> None:
    s = resolution.spend(RULES, ["art corruption", "dye zealots", "wine mars"])
    assert s.arrows == Counter({"dictatorship": 1, "mars": 2})


def test_resolve_adds_to_what_the_civ_had_and_keeps_the_status_tracks_in_bounds() -> None:
    civ = new_civ(RULES, "Ann")
    civ.money, civ.vp, civ.happiness, civ.safety = 4, 7, -9, 5
    said = resolution.resolve(RULES, civ, ["ore depression", "grain prosperity", "salt barbarians"])
    assert (civ.money, civ.vp, civ.happiness, civ.safety) == (7, 8, -10, 4)
    assert said == ["Ann earns $3 (grain $1, ore $1, salt $1)"]
    assert resolution.resolve(RULES, civ, ["piracy"]) == ["Ann earns $0"]


def table() -> list[Civ]:
    civs = [new_civ(RULES, s) for s in ("A", "B", "C")]
    return civs


def test_a_tied_dominance_gives_the_bonus_to_each_industry_owner_in_the_tie() -> None:
    a, b, c = table()
    a.cubes["industry:ore"] = 1
    b.cubes["industry:ore"] = 1
    spent = {"A": Counter({"ore": 2}), "B": Counter({"ore": 2}), "C": Counter({"ore": 1})}
    assert resolution.industry_bonuses(RULES, [a, b, c], spent) == {"A": (2, "safety"), "B": (2, "safety")}


def test_no_bonus_for_an_empty_industry_place_nothing_spent_or_fewer_spent() -> None:
    a, b, c = table()
    a.cubes["industry:salt"] = 0
    b.cubes["industry:salt"] = 1
    c.cubes["industry:grain"] = 1
    spent = {"A": Counter({"salt": 4}), "B": Counter({"salt": 3})}
    assert resolution.industry_bonuses(RULES, [a, b, c], spent) == {}


def test_a_monopoly_and_a_dominance_add_up_for_one_seat() -> None:
    a, b, c = table()
    a.cubes.update({"industry:wool": 1, "industry:grain": 1})
    spent = {"A": Counter({"wool": 1, "grain": 3}), "C": Counter({"grain": 3})}
    assert resolution.industry_bonuses(RULES, [a, b, c], spent) == {"A": (5 + 2, "happiness")}


def test_a_seat_missing_from_the_spending_counts_as_nothing() -> None:
    a, b, c = table()
    a.cubes["industry:timber"] = 1
    assert resolution.industry_bonuses(RULES, [a, b, c], {"A": Counter({"timber": 1})}) == {"A": (5, None)}


def test_turn_order_richest_first() -> None:
    assert resolution.turn_order(["A", "B", "C"], {"A": 0, "B": 1, "C": 2}) == ["C", "B", "A"]
