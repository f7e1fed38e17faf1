"""The fold's own verdict on an undo by the clock (engine/takeback.py through engine/log.py): events built by hand,
the undo's ``at`` as the shell would stamp it, so a replay says what the shell said."""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from bot.service import DATA_DIR
from engine import takeback
from engine.events import Event, Rejection
from engine.log import replay
from engine.rulesets import load_ruleset
from tests.conftest import PLAYERS
from tests.log_tools import rechained

RULESET = load_ruleset("mare-nostrum", DATA_DIR)
TURN_DAY, ROLL_DAY = "2026-12-01", "2026-12-03"
OFFERED = (TURN_DAY, ROLL_DAY, "2026-12-04")
ROLL_PUBLIC = dt.datetime(2026, 12, 3, 19, 0, tzinfo=dt.timezone.utc)  # 20:00 in Rome
GENESIS, PERIOD = 1692803367, 3


def stamp(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="seconds")


def campaign(*, rules: int | None = takeback.CLOCK_RULES, clock: str = "live", randomness: str = "lottery",
             roll_draws: tuple[str, ...] = OFFERED) -> list[Event]:
    """Created, turn opened on TURN_DAY, a GM roll bound (to ROLL_DAY's draw, or the round offered)."""
    created: dict[str, Any] = {"ruleset": "mare-nostrum", "gm": "gm", "players": dict(PLAYERS), "clock": clock,
                               "randomness": randomness}
    if rules is not None:
        created[takeback.UNDO_RULES] = rules
    early = stamp(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    return [
        Event(1, "campaign.created", "gm", created, at=early),
        Event(2, "turn.opened", "gm", {"draw": TURN_DAY}, at=early, draws=OFFERED),
        Event(3, "roll.requested", "gm", {"dice": "1d6", "label": "storm"}, at=early, draws=roll_draws),
    ]


def undo(events: list[Event], at: str, kind: str = "gm.undo") -> list[Event]:
    return rechained([*events, Event(len(events) + 1, kind, "gm", {"target": events[-1].seq, "reason": "typo"}, at=at)])


def test_an_undo_at_the_draw_time_does_not_replay_one_a_second_before_does() -> None:
    """Operator with the database and the clock: a late undo written into a log under the clock rules is refused by
    the fold itself, so the export does not replay (and verify says so)."""
    events = campaign()
    before = replay(RULESET, undo(events, stamp(ROLL_PUBLIC - dt.timedelta(seconds=1))))
    assert not [e for e in RULESET.ledger(before.state) if e["purpose"] == "gm roll"]
    with pytest.raises(Rejection) as refused:
        replay(RULESET, undo(events, stamp(ROLL_PUBLIC)))
    assert refused.value.reason == (
        "event #3 (roll.requested by gm) cannot be undone: roll #2 (gm roll) is bound to the lottery draw of "
        "2026-12-03 (wheel PA, 1st number), public since 2026-12-03 20:00 Rome (2026-12-03T19:00:00+00:00), before "
        "this undo (2026-12-03T19:00:00+00:00), so its outcome may be known. To set it aside, void it with its reason "
        "(/gm void <reason>): the void and the outcome it discards stay on record")
    # The void keeps the record: allowed at any time.
    replay(RULESET, undo(events, stamp(ROLL_PUBLIC + dt.timedelta(hours=1)), kind="gm.void"))


def test_an_undo_without_a_readable_time_is_refused_under_the_clock_rules() -> None:
    """Operator with the database: an undo stripped of its time cannot show it came before the draw."""
    with pytest.raises(Rejection, match=r"this undo carries no readable time \(none\), so nothing shows it came before "
                                        r"roll #2 \(gm roll\), bound to the lottery draw of 2026-12-03"):
        replay(RULESET, undo(campaign(), ""))
    with pytest.raises(Rejection, match="no readable time"):
        replay(RULESET, undo(campaign(), "2026-12-03 18:00"))  # no time zone: no time


def test_old_campaigns_fold_as_they_did() -> None:
    """The same late undo in a campaign created before the rule (no undo_rules) still replays: the past is not
    rewritten; verify flags it instead (tests/engine/test_verify_takebacks.py)."""
    replay(RULESET, undo(campaign(rules=None), stamp(ROLL_PUBLIC + dt.timedelta(minutes=5))))
    replay(RULESET, undo(campaign(rules=1), stamp(ROLL_PUBLIC + dt.timedelta(minutes=5))))


def test_a_historical_campaigns_lottery_draws_are_no_clock_but_drand_rounds_are() -> None:
    """A historical campaign binds to draws held long ago (anyone could read them before): the clock adds nothing
    there. A drand round is real time whatever the campaign's clock."""
    replay(RULESET, undo(campaign(clock="historical"), stamp(ROLL_PUBLIC + dt.timedelta(days=1))))
    round_no = 34412216
    public = dt.datetime.fromtimestamp(GENESIS + (round_no - 1) * PERIOD, tz=dt.timezone.utc)
    drand = campaign(clock="historical", randomness="drand", roll_draws=(f"drand:{round_no}",))
    replay(RULESET, undo(drand, stamp(public - dt.timedelta(seconds=1))))
    with pytest.raises(Rejection, match=re.escape(f"roll #2 (gm roll) is bound to drand quicknet round {round_no}, "
                                                  f"public since {public.isoformat()}, before this undo")):
        replay(RULESET, undo(drand, stamp(public)))


def test_the_round_time_comes_from_the_chain_the_log_names() -> None:
    chain = {"name": "test-chain", "hash": "00" * 32, "public_key": "", "genesis": 1_700_000_000, "period": 30}
    created = {"clock": "live", "drand_chain": chain}
    entry = {"id": 7, "purpose": "siege", "source": "drand", "key": "11"}
    public = takeback.public_moment(entry, created)
    assert public is not None and public.where == "drand test-chain round 11"
    assert public.since == dt.datetime.fromtimestamp(1_700_000_000 + 10 * 30, tz=dt.timezone.utc)


def test_a_commit_reveal_label_is_public_at_its_mixing_round_and_never_by_the_seed_alone() -> None:
    mixed = {"id": 3, "purpose": "omen", "source": "commit-reveal", "key": "turn-1:roll-3:omen@drand:100"}
    public = takeback.public_moment(mixed, {"clock": "live"})
    assert public is not None and public.roll == "roll #3 (omen)" and public.where == "drand quicknet round 100"
    assert takeback.public_moment({**mixed, "key": "turn-1:roll-3:omen"}, {"clock": "live"}) is None


def test_removed_bindings_are_those_the_ledger_after_no_longer_holds() -> None:
    kept = {"id": 1, "source": "lottery", "key": ROLL_DAY, "where": "a"}
    gone = {"id": 2, "source": "lottery", "key": ROLL_DAY, "where": "b"}
    rebound = {"id": 2, "source": "lottery", "key": "2026-12-04", "where": "c"}  # an old campaign's reused id
    assert takeback.removed([kept, gone], [kept]) == [gone]
    assert takeback.removed([kept, gone], [kept, rebound]) == [gone]
    assert takeback.removed([kept], [kept, rebound]) == []
