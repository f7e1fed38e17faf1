"""``verify`` lists every undo and void with the bindings it removed, and flags an undo made after one of them was
public by the clock (engine/verify_takebacks.py), in any log: the fold refuses it only under the clock rules."""
from __future__ import annotations

import datetime as dt

from bot.service import DATA_DIR
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.engine.test_takeback import GENESIS, PERIOD, ROLL_PUBLIC, campaign, stamp, undo
from tests.log_tools import rechained

RULESET = load_ruleset("mare-nostrum", DATA_DIR)


def test_a_late_undo_in_an_old_campaign_is_flagged_with_its_event_and_roll() -> None:
    """Operator with the database and the clock: a campaign made before the rule (or its campaign.created rewritten
    without it, the chain hashed anew) holds an undo five minutes after the draw was public. It replays; verify
    flags it."""
    late = stamp(ROLL_PUBLIC + dt.timedelta(minutes=5))
    result = verify(RULESET, undo(campaign(rules=None), late), {})
    assert [str(f) for f in result.findings] == [
        "event #4: undo of event #3: roll #2 (gm roll) was bound to the lottery draw of 2026-12-03 (wheel PA, 1st "
        "number), public since 2026-12-03T19:00:00+00:00; the undo was made at 2026-12-03T19:05:00+00:00, after it: "
        "whoever undid it could know the outcome and bind the roll again"
    ]
    assert "GM undo event #4 took back event #3 (by gm at 2026-12-03T19:05:00+00:00): bindings removed: roll #2 " \
           "(gm roll) on lottery 2026-12-03 PA #1" in result.notes


def test_an_undo_in_time_and_a_void_are_listed_not_flagged() -> None:
    """Outsider with the export: every take-back is on the list with what it removed, so a reader sees each roll
    that was bound and then set aside; only a late undo is a finding (a void keeps the record)."""
    early = stamp(ROLL_PUBLIC - dt.timedelta(hours=2))
    events = undo(campaign(rules=None), early)
    again = Event(5, "roll.requested", "gm", {"dice": "1d6", "label": "storm"}, at=early, draws=events[2].draws)
    void = Event(6, "gm.void", "gm", {"target": 5, "reason": "wrong die"}, at=stamp(ROLL_PUBLIC + dt.timedelta(hours=1)))
    result = verify(RULESET, rechained([*events, again, void]), {})
    assert result.ok, [str(f) for f in result.findings]
    listed = [n for n in result.notes if n.startswith(("GM undo event", "GM void event"))]
    assert listed == [
        "GM undo event #4 took back event #3 (by gm at 2026-12-03T17:00:00+00:00): bindings removed: roll #2 (gm roll) "
        "on lottery 2026-12-03 PA #1",
        "GM void event #6 took back event #5 (by gm at 2026-12-03T20:00:00+00:00): bindings removed: roll #2 (gm roll) "
        "on lottery 2026-12-03 RM #1",
    ]


def test_a_late_undo_of_a_drand_roll_is_flagged() -> None:
    """GM with Discord and a slow relay, in an old campaign: the undo came a second after the round's time."""
    round_no = 34412216
    public = dt.datetime.fromtimestamp(GENESIS + (round_no - 1) * PERIOD, tz=dt.timezone.utc)
    events = campaign(rules=None, randomness="drand", roll_draws=(f"drand:{round_no}",))
    result = verify(RULESET, undo(events, stamp(public + dt.timedelta(seconds=1))), {})
    assert [str(f) for f in result.findings] == [
        f"event #4: undo of event #3: roll #2 (gm roll) was bound to drand quicknet round {round_no}, public since "
        f"{public.isoformat()}; the undo was made at {stamp(public + dt.timedelta(seconds=1))}, after it: whoever "
        "undid it could know the outcome and bind the roll again"
    ]
    # The list names the round and the label the undo took away.
    assert any(n.startswith("GM undo event #4 took back event #3") and f"drand round {round_no}, label "
               "'turn-1:roll-2:gm_roll'" in n for n in result.notes), result.notes


def test_a_late_undo_under_the_clock_rules_makes_the_log_not_replay() -> None:
    """Operator with the database: the same undo written into a campaign under the clock rules is refused by the fold,
    so verify reports the log itself."""
    result = verify(RULESET, undo(campaign(), stamp(ROLL_PUBLIC + dt.timedelta(minutes=5))), {})
    assert [f.purpose for f in result.findings] == ["replay"]
    assert "cannot be undone: roll #2 (gm roll) is bound to the lottery draw of 2026-12-03" in result.findings[0].detail
