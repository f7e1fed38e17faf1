"""Two folds stepped on from one (a post rolled back and tried again, a dry run beside the real post) share the
events in effect before them (engine/event_run.py) and never see each other's."""
from __future__ import annotations

from bot.service import DATA_DIR
from engine.event_run import EventRun
from engine.events import Event
from engine.log import Folded, replay, start, step
from engine.rulesets import load_ruleset
from tests.conftest import PLAYERS

RULESET = load_ruleset("mare-nostrum", DATA_DIR)
OFFERED = ("2026-12-01", "2026-12-03", "2026-12-04")
CREATED = Event(1, "campaign.created", "gm", {"ruleset": "mare-nostrum", "gm": "gm", "players": dict(PLAYERS),
                                               "randomness": "lottery"})
OPENED = Event(2, "turn.opened", "gm", {"draw": OFFERED[0]}, draws=OFFERED)
STORM = Event(3, "roll.requested", "gm", {"dice": "1d6", "label": "storm"}, draws=OFFERED)
WIND = Event(3, "roll.requested", "gm", {"dice": "2d6", "label": "wind"}, draws=OFFERED)


def opened() -> Folded:
    folded, _ = start(RULESET, CREATED)
    folded, _ = step(RULESET, folded, OPENED)
    return folded


def purposes(folded: Folded) -> list[str]:
    return [str(e["purpose"]) for e in RULESET.ledger(folded.state)]


def test_two_steps_from_one_fold_each_keep_their_own_events() -> None:
    base = opened()
    storm, _ = step(RULESET, base, STORM)
    wind, _ = step(RULESET, base, WIND)
    assert [e.seq for e in base.effective] == [1, 2]
    assert tuple(storm.effective) == (CREATED, OPENED, STORM)
    assert tuple(wind.effective) == (CREATED, OPENED, WIND)
    # Each folds to what a replay of its own log folds to: same head, same rolls.
    for branch, third in ((storm, STORM), (wind, WIND)):
        again = replay(RULESET, [CREATED, OPENED, third])
        assert (branch.head, branch.last_seq, purposes(branch)) == (again.head, 3, purposes(again))


def test_an_undo_on_one_branch_takes_back_its_own_event_only() -> None:
    base = opened()
    storm, _ = step(RULESET, base, STORM)
    step(RULESET, base, WIND)  # the other branch grows past ``base`` first
    undo = Event(4, "gm.undo", "gm", {"target": 3, "reason": "typo"})
    undone, messages = step(RULESET, storm, undo)
    assert tuple(undone.effective) == (CREATED, OPENED)
    assert messages == ("The GM undoes event #3 (roll.requested by gm): typo.",)
    assert undone.head == replay(RULESET, [CREATED, OPENED, STORM, undo]).head
    assert tuple(storm.effective) == (CREATED, OPENED, STORM)


def test_a_fold_given_a_tuple_of_events_holds_them_as_a_run() -> None:
    base = opened()
    rebuilt = Folded(base.state, (CREATED, OPENED), base.last_seq, base.head)
    assert isinstance(rebuilt.effective, EventRun) and rebuilt.effective == (CREATED, OPENED)
    stepped, _ = step(RULESET, rebuilt, STORM)
    assert tuple(stepped.effective) == (CREATED, OPENED, STORM)
