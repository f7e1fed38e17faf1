"""The GM's ad-hoc rolls through the engine alone: binding, dice, rejection sampling, replay and verify."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.service import DATA_DIR
from engine.events import Event, Rejection
from engine.ledger import GENESIS, event_hash
from engine.log import Folded, replay, start, step
from engine.lotto import WHEELS
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import PLAYERS

RULESET = load_ruleset("mare-nostrum", DATA_DIR)
TURN_DAY, NEXT_DAY, LATER_DAY = "2023-01-03", "2023-01-05", "2023-01-07"
OFFERED = (NEXT_DAY, LATER_DAY)
# The nations play in the seed's order and draw Internal Conspiracy (28), which changes nothing.
NATION_FILL = {"BA": 60, "CA": 50, "FI": 40, "GE": 30, "MI": 20, "NA": 10}
# Free slots in binding order: PA1, RM1, TO1, VE1, PA2, RM2, ... (engine/mare_nostrum/slots.py).
FREE = ("PA", "RM", "TO", "VE")


def draw(day: str, slots: list[int] | None = None) -> dict[str, Any]:
    """A draw whose free slots read ``slots`` in binding order (the rest: numbers no roll uses)."""
    numbers: dict[str, list[int]] = {}
    for wheel in WHEELS:
        if wheel in NATION_FILL:
            numbers[wheel] = [NATION_FILL[wheel], 28, 1, 2, 3]
        else:
            numbers[wheel] = [0, 0, 0, 0, 0]
    for i, wheel_pos in enumerate((w, p) for p in range(5) for w in FREE):
        wheel, pos = wheel_pos
        wanted = (slots or [])[i] if slots and i < len(slots) else None
        numbers[wheel][pos] = wanted if wanted is not None else 0
    for wheel, nums in numbers.items():  # fill the rest with distinct numbers the wheel does not use yet
        spare = iter(n for n in range(1, 91) if n not in nums)
        numbers[wheel] = [n or next(spare) for n in nums]
    return {"date": day, "numbers": numbers}


class Campaign:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.messages: list[str] = []
        self.folded: Folded | None = None
        self.add("campaign.created", "gm", {"ruleset": "mare-nostrum", "gm": "gm", "players": dict(PLAYERS)})
        self.add("turn.opened", "gm", {"draw": TURN_DAY})
        self.add("draw.recorded", "legatus", draw(TURN_DAY))

    def add(self, kind: str, actor: str, data: dict[str, Any], draws: tuple[str, ...] = OFFERED) -> list[str]:
        head = self.folded.head if self.folded else GENESIS
        event = Event(seq=len(self.events) + 1, kind=kind, actor=actor, data=data, draws=draws)
        event = replace(event, hash=event_hash(head, event))
        if self.folded is None:
            self.folded, messages = start(RULESET, event)
        else:
            self.folded, messages = step(RULESET, self.folded, event)
        self.events.append(event)
        self.messages.extend(messages)
        return list(messages)

    def roll(self, dice: str, label: str = "", actor: str = "gm") -> list[str]:
        return self.add("roll.requested", actor, {"dice": dice, "label": label})

    @property
    def view(self) -> dict[str, Any]:
        assert self.folded is not None
        return RULESET.public_view(self.folded.state)

    def public(self) -> dict[str, dict[str, list[int]]]:
        return {
            str(e.data["date"]): {w: list(n) for w, n in e.data["numbers"].items()}
            for e in self.events if e.kind == "draw.recorded"
        }


def test_2d6_binds_one_slot_per_die_and_shows_every_die_and_the_total() -> None:
    c = Campaign()
    bound = c.roll("2d6", "siege of Numantia")
    assert len(bound) == 1 and "bound to the draw of 2023-01-05 (die 1: PA 1st, die 2: RM 1st)" in bound[0]
    assert "(number - 1) mod 6 + 1" in bound[0]
    rolls = c.view["rolls"]
    assert [(r["purpose"], r["wheel"], r["position"], r["outcome"]) for r in rolls] == [
        ("gm_roll", "PA", 1, "pending"), ("gm_roll", "RM", 1, "pending"),
    ]
    assert rolls[0]["meaning"].startswith("die 1 of 2d6 'siege of Numantia'")
    assert RULESET.wanted_draws(c.folded.state) == [NEXT_DAY]  # type: ignore[union-attr]
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, [28, 36]))  # 28 -> 4, 36 -> 6
    assert "2d6 siege of Numantia: 4 + 6 = 10" in said
    gm = c.view["gm_rolls"][0]
    assert (gm["dice"], gm["label"], gm["by"], gm["values"], gm["total"]) == ("2d6", "siege of Numantia", "gm", [4, 6], 10)
    assert [r["outcome"] for r in c.view["rolls"]] == ["die 1 = 4", "die 2 = 6"]


@pytest.mark.parametrize(
    ("dice", "slots", "answer"),
    [
        ("1d90", [57], "1d90 x: 57"),
        ("d20", [3, 45], "1d20 x: 5"),  # 20 does not divide 90: (3-1)*90 + 44 = 224 -> 224 % 20 + 1
        ("3d6+1", [1, 2, 90], "3d6+1 x: 1 + 2 + 6 (+1) = 10"),
        ("2d10-1", [10, 11], "2d10-1 x: 10 + 1 (-1) = 10"),
    ],
)
def test_each_kind_of_dice(dice: str, slots: list[int], answer: str) -> None:
    c = Campaign()
    c.roll(dice, "x")
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, slots))
    assert answer in said, said


def test_a_refused_pair_binds_the_next_pair_in_the_same_draw() -> None:
    c = Campaign()
    bound = c.roll("1d7", "omen")
    assert "die = value mod 7 + 1; a value of 8099 or more is refused" in bound[0]
    # 90, 90 make 8099: refused for a d7 (8100 = 7 x 1157 + 1); the next pair (TO1, VE1) makes 0 -> 1.
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, [90, 90, 1, 1]))
    assert any("makes 8099, which is refused" in m and "TO 1st + VE 1st" in m for m in said), said
    assert "1d7 omen: 1" in said
    rolls = c.view["rolls"]
    assert [r["wheel"] for r in rolls] == ["PA", "RM", "TO", "VE"]
    assert rolls[0]["outcome"].startswith("pair value 8099 refused (>= 8099): die 1 rolls again on rolls #")
    assert rolls[2]["outcome"] == rolls[3]["outcome"] == "die 1 = 1 (pair value 0)"
    assert c.view["gm_rolls"][0]["rolls"] == [[r["id"] for r in rolls]]
    assert c.view["gm_rolls"][0]["total"] == 1


def test_a_refused_pair_goes_to_the_next_offered_draw() -> None:
    c = Campaign()
    c.roll("1d7", "one")  # PA 1st + RM 1st of the next draw
    # The same draw first: its next free slots were fixed when it was drawn, so nobody can choose the re-roll.
    said = c.add("draw.recorded", "legatus", draw(NEXT_DAY, [90, 90, 7, 7]))  # TO 1st, VE 1st: 546 % 7 + 1 = 1
    assert any("die 1 rolls again on the draw of 2023-01-05 (TO 1st + VE 1st)" in m for m in said), said
    assert any(m.startswith("1d7 one: 1") for m in said), said


def test_the_numbers_of_one_roll_never_share_a_wheel_of_one_draw() -> None:
    """Numbers of one wheel are drawn without replacement: two dice on one wheel would be linked."""
    c = Campaign()
    c.roll("10d7", "many")  # 20 numbers: a draw has 10 wheels with free slots, so the roll spans two draws
    gm = c.view["gm_rolls"][0]
    rolls = {r["id"]: r for r in c.view["rolls"]}
    used = [(rolls[i]["draw"], rolls[i]["wheel"]) for ids in gm["rolls"] for i in ids]
    assert len(used) == 20 and len(set(used)) == 20
    assert {d for d, _ in used} == {NEXT_DAY, LATER_DAY}


def test_the_pair_waits_when_its_numbers_fall_in_two_draws() -> None:
    c = Campaign()
    for _ in range(31):  # 31 of the next draw's 32 free slots
        c.roll("1d6", "fill")
    c.roll("1d7", "split")  # its pair: the last slot of the next draw, the first of the later one
    gm = c.view["gm_rolls"][-1]
    last = [r for r in c.view["rolls"] if r["id"] in gm["rolls"][0]]
    assert [r["draw"] for r in last] == [NEXT_DAY, LATER_DAY]
    c.add("draw.recorded", "legatus", draw(NEXT_DAY))
    assert last[0]["id"] in {r["id"] for r in c.view["rolls"] if "waiting for the other number" in r["outcome"]}
    assert c.view["gm_rolls"][-1]["total"] is None
    said = c.add("draw.recorded", "legatus", draw(LATER_DAY))
    assert c.view["gm_rolls"][-1]["total"] is not None and any(m.startswith("1d7 split:") for m in said)


def test_only_the_gm_rolls_and_bad_dice_are_refused_with_the_text() -> None:
    c = Campaign()
    with pytest.raises(Rejection, match="only the GM"):
        c.roll("2d6", actor="scipio")
    for text, reason in [
        ("2d0", "'2d0' has no sides: write e.g. 2d6"),
        ("21d6", "roll 1 to 20 dice"),
        ("1d1001", "a die has 2 to 1000 sides"),
        ("banana", "'banana' is not a dice roll"),
    ]:
        with pytest.raises(Rejection, match=reason):
            c.roll(text)


def test_a_roll_needs_a_coming_draw() -> None:
    c = Campaign()
    with pytest.raises(Rejection, match="no future lottery draw"):
        c.add("roll.requested", "gm", {"dice": "2d6"}, draws=())


def test_replay_and_verify_re_derive_the_gm_rolls_and_catch_a_changed_number() -> None:
    c = Campaign()
    c.roll("2d6", "siege of Numantia")
    c.roll("1d7", "omen")
    c.add("draw.recorded", "legatus", draw(NEXT_DAY, [28, 36, 90, 90, 1, 1]))
    again = replay(RULESET, c.events)
    assert RULESET.public_view(again.state) == c.view and again.head == c.folded.head  # type: ignore[union-attr]
    result = verify(RULESET, c.events, c.public())
    assert result.ok, result.findings
    assert result.rolls == 6
    # One changed public number: the die it made differs, and verify names the roll.
    public = c.public()
    public[NEXT_DAY]["RM"][0] = 35
    findings = [str(f) for f in verify(RULESET, c.events, public).findings]
    assert any("gm roll (roll #" in f and "the log's outcome is 36 (die 2 = 6)" in f and "35 (die 2 = 5)" in f for f in findings), findings
    # A changed number of a refused pair: the pair is accepted on the public draws, and the re-roll vanishes.
    # (TO1, VE1) = (90, 90) was refused; with 89 the pair makes 8009 -> a 2, and the re-roll never happens.
    public = c.public()
    assert public[NEXT_DAY]["TO"][0] == 90
    public[NEXT_DAY]["TO"][0] = 89
    findings = [str(f) for f in verify(RULESET, c.events, public).findings]
    assert any("wheel TO, position 1: the log has 90, the public draw has 89" in f for f in findings), findings
    assert any("89 (die 1 = 2 (pair value 8009))" in f for f in findings), findings
    assert sum("no such roll" in f for f in findings) == 2, findings


def test_a_gm_roll_can_be_undone_and_its_slots_stay_used() -> None:
    c = Campaign()
    c.roll("2d6", "first")
    c.add("gm.undo", "gm", {"reason": "typo"})
    c.roll("2d6", "second")
    assert [(r["wheel"], r["position"]) for r in c.view["rolls"]] == [("TO", 1), ("VE", 1)]
