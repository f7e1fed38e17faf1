"""The rules the sources lend to a game that keeps its own rolls (Mare Nostrum, engine/mare_nostrum/slots.py): the
slot's shape and reading, the offered values, the first round, the mixing of a label. One copy, checked here."""
from __future__ import annotations

import pytest

from engine import commit_reveal
from engine.chance import derive
from engine.chance.sources import commit_reveal as commit_reveal_source
from engine.chance.sources import drand, lottery
from engine.events import Event, Rejection
from engine.mare_nostrum import slots as mare_nostrum_slots

NO_ROUND = "no future drand round was offered to bind this roll to; the shell offers one with every event"


def _event(*draws: str) -> Event:
    return Event(seq=2, kind="roll", actor="gm", data={}, draws=draws)


def test_a_slot_its_wheels_and_its_number() -> None:
    assert lottery.ROLL_WHEELS == ("BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "TO", "VE")  # no RN
    assert tuple(lottery.POSITIONS) == (1, 2, 3, 4, 5)
    assert lottery.slot_key("2023-01-05", "PA", 2) == "2023-01-05|PA|2"
    assert lottery.slot_parts("2023-01-05|PA|2") == ("2023-01-05", "PA", 2)
    draws = {"2023-01-05": {"PA": [55, 36, 37, 27, 8]}}
    assert lottery.number_at(draws, "2023-01-05", "PA", 2) == 36
    assert lottery.number_at(draws, "2023-01-07", "PA", 2) is None


def test_the_offered_values_a_roll_may_bind_to() -> None:
    event = _event("2023-01-07", "drand:52", "drand:50", "2023-01-05", "drand:x")
    assert lottery.offered_dates(event) == ["2023-01-05", "2023-01-07"]
    assert drand.offered_round(event) == "drand:50" == drand.first_round(event)
    assert drand.round_of("drand:50") == "50"
    with pytest.raises(Rejection) as refused:
        drand.first_round(_event("2023-01-05"))
    assert refused.value.reason == NO_ROUND


def test_a_label_is_mixed_with_the_offered_round_and_rule_2_needs_one() -> None:
    assert commit_reveal_source.round_to_mix(_event("drand:50"), commit_reveal.RULE_AT_ONCE) == "drand:50"
    assert commit_reveal_source.mixed("siege", "drand:50") == "siege@drand:50"
    assert commit_reveal_source.round_to_mix(_event(), commit_reveal.RULE_SEED) is None
    with pytest.raises(Rejection) as refused:
        commit_reveal_source.round_to_mix(_event(), commit_reveal.RULE_AT_ONCE)
    assert refused.value.reason == NO_ROUND


def test_a_drand_value_and_mare_nostrum_s_slots_are_the_sources_own() -> None:
    randomness = "ab" * 32
    assert drand.value_of(randomness, "omen", 3, 1, 90) == derive.values(bytes.fromhex(randomness), "omen", 3, 1, 90)
    assert mare_nostrum_slots.DRAND_PREFIX is drand.PREFIX and mare_nostrum_slots.slot_key is lottery.slot_key
    # Mare Nostrum's order (its rules): the free wheels' 1st numbers, then their 2nd, ..., then the nations' 4th, 5th.
    order = mare_nostrum_slots.roll_slots(["PA", "RM"])
    assert order[:9] == [("BA", 1), ("CA", 1), ("FI", 1), ("GE", 1), ("MI", 1), ("NA", 1), ("TO", 1), ("VE", 1), ("BA", 2)]
    assert order[-4:] == [("PA", 4), ("RM", 4), ("PA", 5), ("RM", 5)] and len(order) == 8 * 5 + 4


def test_the_walks_read_what_is_used_live() -> None:
    used: set[str] = {"D|BA|1"}
    avoid: set[tuple[str, str]] = set()
    walk = lottery.free_in_order(used, ["D", "E"], [("BA", 1), ("CA", 1), ("BA", 2), ("CA", 2)], avoid)
    assert next(walk) == ("D", "CA", 1)
    avoid.add(("D", "CA"))  # the caller took a number of CA on D: no other of this roll
    used.add("D|BA|2")
    assert list(walk) == [("E", "BA", 1), ("E", "CA", 1), ("E", "BA", 2), ("E", "CA", 2)]
    used = {"D|BA|5", "D|PA|1"}
    wheels = [("BA", (1, 2, 3, 4, 5)), ("CA", (1, 2, 3, 4, 5)), ("PA", (4, 5))]
    fresh = lottery.unused_wheels(used, ["D", "E"], wheels)
    assert next(fresh) == ("D", "CA", 1)
    used.add("D|PA|5")  # a nation's wheel whose 5th number another roll took: not whole any more
    assert list(fresh) == [("E", "BA", 1), ("E", "CA", 1), ("E", "PA", 4)]
