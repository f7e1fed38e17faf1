"""The reader table (parse.py): each form of line gives its order, and the log's dict is the one always stored."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.mediterranean_empires.orders import (Activate, Answer, Attempt, CoastalRaid, Draw, Embark, EndOperations,
                                                  Land, Pass, Redistribute, Standing, order_from_dict)
from engine.mediterranean_empires.parse import Unclear, read_line
from engine.mediterranean_empires.rules_data import default_rules

RULES = default_rules()


@pytest.mark.parametrize("line, order", [
    ("Draw.", Draw()),
    ("attempt alliance with Genoa using the King of France, the Pope and 1 TP",
     Attempt("alliance", "Genoa", "France", True, True)),
    ("foment rebellion in Navarre", Attempt("rebellion", "Navarre")),
    ("pass forfeiting Rebellion", Pass("rebellion")),
    ("activate 2 field armies of France in Provence County with 1 military advantage without the King",
     Activate("France", "Provence County", 2, "field_army", 1, False)),
    ("embark from Arborea", Embark("Arborea")),
    ("land in Provence County", Land("Provence County")),
    ("raid the coast of Calabria", CoastalRaid("Calabria")),
    ("End operations", EndOperations()),
    ("redistribute a levy of France from Albi to Vienne", Redistribute(1, "levy", "France", "Albi", "Vienne")),
    ("Always avoid combat with fewer than 3 units", Standing("always avoid combat with fewer than 3 units")),
    ("Counterattack", Answer("counterattack")),
])
def test_a_line_reads_as_its_order(line: str, order: object) -> None:
    assert read_line(RULES, line) == order


@pytest.mark.parametrize("order, stored", [
    (Draw(), {"order": "draw"}),
    (Attempt("alliance", "Genoa"), {"order": "attempt", "kind": "alliance", "power": "Genoa", "king": None,
                                    "pope": False, "tp": False}),
    (Attempt("alliance", "Castile", cede="Navarre"),
     {"order": "attempt", "kind": "alliance", "power": "Castile", "king": None, "pope": False, "tp": False,
      "cede": "Navarre"}),
    (Embark("Arborea", 1, "levy"), {"order": "embark", "from": "Arborea", "count": 1, "kind": "levy"}),
    (CoastalRaid("Calabria"), {"order": "coastal raid", "in": "Calabria"}),
    (Redistribute(1, "levy", "France", "Albi", "Vienne"),
     {"order": "redistribute", "count": 1, "kind": "levy", "power": "France", "from": "Albi", "to": "Vienne"}),
])
def test_the_log_stores_the_dict_it_always_stored_and_reads_it_back(order: object, stored: dict[str, object]) -> None:
    assert order.to_dict() == stored  # type: ignore[attr-defined]
    assert order_from_dict(stored) == order


def test_an_older_dict_without_the_later_keys_takes_their_defaults() -> None:
    assert order_from_dict({"order": "activate", "power": "France", "area": "Vienne"}) == \
        Activate("France", "Vienne", None, None, 0, True)


def test_a_forged_dict_is_refused_with_what_would_be_right() -> None:
    with pytest.raises(Rejection, match="'fly' is not an order of Mediterranean Empires: the orders are draw, attempt"):
        order_from_dict({"order": "fly"})
    with pytest.raises(Rejection, match="the order 'move' names to"):
        order_from_dict({"order": "move"})


def test_a_bad_name_in_a_line_says_what_was_wrong() -> None:
    with pytest.raises(Unclear, match="unknown unit type 'dragons'"):
        read_line(RULES, "recruit 2 dragons of France in Vienne")


def test_what_was_understood_names_the_order_and_what_it_names() -> None:
    assert read_line(RULES, "move to Genoa").describe() == "move: to Genoa"
    assert read_line(RULES, "attack").describe() == "attack"


def test_every_answer_of_the_seeds_readings_reads_as_an_answer_not_an_order() -> None:
    """A choice that an order's words would take ('pick a marker' is a draw) could never be given."""
    from engine.mediterranean_empires.combat import SPOILS_CHOICES
    from engine.mediterranean_empires.interception import CHOICES, NO_MARKER

    for choice in (*SPOILS_CHOICES, *CHOICES, NO_MARKER, "Military Advantage", "let it pass", "thwart", "none",
                   "the King of Aragon and the Pope and 1 TP", "1 TP", "2", "Vienne"):
        assert read_line(RULES, choice) == Answer(choice.lower()), choice
