"""hand.py: what a sealed hand lets everyone know (counts, the unseen markers) and what only the bot's fold knows."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import Rejection
from engine.mediterranean_empires import hand
from engine.mediterranean_empires.rules_data import load_rules
from engine.mediterranean_empires.state import new_state

RULES = load_rules(Path(__file__).resolve().parents[3] / "data" / "rulesets" / "mediterranean-empires.toml")
KEY = "5eed" * 8


def _state(*held: tuple[str, str, bool]):  # type: ignore[no-untyped-def]
    st = new_state(RULES)
    st.pick_key = {"seq": 1, "digest": "0" * 64, "salt": KEY, "revealed": False}
    for n, (side, marker, known) in enumerate(held, 10):
        hand.seal(st, side, n, f"{n:064x}", f"p{n}", marker if known else None)
    return st


def test_questions_read_only_public_knowledge() -> None:
    known = _state(("A", "Gold", True))
    unknown = _state(("A", "Gold", False))
    for st in (known, unknown):  # the bot's fold and the export's fold answer alike
        assert hand.might_hold(st, "A", ("Diplomacy",)) and not hand.might_hold(st, "B", ("Diplomacy",))
        assert hand.pool_size(st) == 33 and hand.count(st, "A") == 1
    assert hand.pool(unknown) is None and hand.pool(known) is not None and len(hand.pool(known)) == 33
    # Once every Diplomacy is in the open, no one may hold one: the question is no longer asked.
    for st in (known, unknown):
        st.unseen = [m for m in st.unseen if m != "Diplomacy"]
        assert not hand.might_hold(st, "A", ("Diplomacy",))


def test_the_marker_opened_for_a_claim_is_not_always_the_first_drawn() -> None:
    st = _state(("A", "Diplomacy", True), ("A", "Gold", True), ("A", "Diplomacy", True))
    found = hand.candidates(st, "A", ("Diplomacy",), set())
    assert [e["seq"] for e in found] == [10, 12]
    chosen = {hand.choose_reveal(st, found, f"t1.o{n}.claim1")["seq"] for n in range(20)}
    assert chosen == {10, 12}


def test_a_forged_hand_is_refused_not_crashed_on() -> None:
    st = _state(("A", "Crusade", True), ("B", "Crusade", True))  # one Crusade in the game, sealed twice
    with pytest.raises(Rejection, match="not among the markers unseen"):
        hand.pool(st)


def test_a_pick_takes_one_public_number_of_the_campaign_source() -> None:
    assert hand.pick_sides("lottery") == 90  # one number of a wheel
    assert hand.pick_sides("drand") == hand.pick_sides("commit-reveal") == hand.pick_sides("fixed") == 2**31
    assert hand.pick_sides("dice") == hand.PICK_SIDES  # a name no registered source has
