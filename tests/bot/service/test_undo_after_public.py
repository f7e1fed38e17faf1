"""Hole: "undo in the window between public and recorded". A Lotto draw is public at 20:00 Rome and reaches the
store minutes later; a drand round is public at its time and its beacon is recorded when a relay answers. In that
window an undo would let whoever saw the value bind the roll again to a later one: so an undo (the GM's or a
player's) is refused once any roll it would take back has reached its draw or round time by the clock, recorded or
not; a void (which keeps the record) stays allowed."""
from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from bot.schedule.clock import FixedClock, draw_moment
from bot.service import DATA_DIR
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine import takeback
from engine.events import Event
from engine.log import replay
from engine.lotto import wheels_on
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import PLAYERS
from tests.games.mediterranean_empires_players import START, standard_set_up
from tests.log_tools import events_of, rechained

TURN_DRAW = dt.date(2026, 12, 1)  # a Tuesday: the turn's draw
ROLL_DRAW = dt.date(2026, 12, 3)  # the Thursday after: the first draw a roll of that turn binds to
QUICKNET_GENESIS, QUICKNET_PERIOD = 1692803367, 3


def typed(day: dt.date) -> str:
    return "; ".join(f"{w} {i + 1} {i + 11} {i + 21} {i + 31} {i + 41}" for i, w in enumerate(wheels_on(day)))


def _live(tmp_path: Path, randomness: str = "lottery") -> Legatus:
    clock = FixedClock(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live",
                                   randomness=randomness).changed
    return service


def _ledger(service: Legatus, campaign: str | None = None) -> list[dict[str, object]]:
    ruleset, state = service.folded(campaign)
    return ruleset.ledger(state)


def _gm_roll_bound(service: Legatus) -> None:
    assert service.post("gm", "/turn open").changed
    rolled = service.post("gm", "/roll 1d6 storm at sea")
    assert rolled.changed and "2026-12-03" in rolled.render(), rolled.render()


def test_gm_undo_is_refused_once_the_bound_draw_is_public_though_not_yet_stored(tmp_path: Path) -> None:
    """GM with Discord (and the operator's clock): at 20:05 Rome the draw of the roll is on the lottery's site, not
    yet in the bot's store; undoing the roll then would let the GM roll it again on the next draw."""
    service = _live(tmp_path)
    _gm_roll_bound(service)
    # Five minutes after the draw is public, the draw not stored yet, the undo is refused and names roll, draw and
    # when it became public.
    service.clock.moment = draw_moment(ROLL_DRAW) + dt.timedelta(minutes=5)
    refused = service.post("gm", "/gm undo I typed the wrong die")
    assert not refused.changed, refused.render()
    said = refused.render()
    assert ("roll #2 (gm roll) is bound to the lottery draw of 2026-12-03 (wheel PA, 1st number), public since "
            "2026-12-03 20:00 Rome (2026-12-03T19:00:00+00:00), before this undo (2026-12-03T19:05:00+00:00)") in said, said
    assert "/gm void <reason>" in said
    # A void keeps the record and stays allowed.
    voided = service.post("gm", "/gm void I typed the wrong die")
    assert voided.changed, voided.render()


def test_gm_undo_before_the_draw_time_is_still_allowed(tmp_path: Path) -> None:
    """GM with Discord: a mistake caught before the draw is public may be undone, as before."""
    service = _live(tmp_path)
    _gm_roll_bound(service)
    service.clock.moment = draw_moment(ROLL_DRAW) - dt.timedelta(minutes=1)
    done = service.post("gm", "/gm undo wrong die")
    assert done.changed, done.render()


def test_undoing_the_turn_opening_is_refused_once_its_draw_is_public(tmp_path: Path) -> None:
    """GM with Discord: the turn's own draw gives the order of play; once it is public, reopening the turn on another
    draw would choose the order of play."""
    service = _live(tmp_path)
    assert service.post("gm", "/turn open").changed
    service.clock.moment = draw_moment(TURN_DRAW) + dt.timedelta(minutes=1)
    refused = service.post("gm", "/gm undo")
    assert not refused.changed
    assert "order of play and events (turn-1) is bound to the lottery draw of 2026-12-01" in refused.render(), \
        refused.render()


def test_a_players_undo_is_refused_once_the_bound_draw_is_public(tmp_path: Path) -> None:
    """Player: a peace treaty bound to Thursday's draw, taken back at 20:05 Rome on Thursday (the draw not yet
    stored), would let them offer it again on Saturday's draw once they saw Thursday's number."""
    service = _live(tmp_path)
    assert service.post("gm", "/turn open").changed
    service.clock.moment = draw_moment(TURN_DRAW) + dt.timedelta(hours=1)
    assert "is stored as confirmed by GM gm" in service.post("gm", f"/lotto confirm 2026-12-01 {typed(TURN_DRAW)}").render()
    first = service.state()["order_of_play"][0]
    player = PLAYERS[first]
    other = next(n for n in PLAYERS if n != first)
    offered = service.post(player, f"peace treaty with {other}")
    assert offered.changed and "2026-12-03" in offered.render(), offered.render()
    seq = events_of(service)[-1].seq
    service.clock.moment = draw_moment(ROLL_DRAW) + dt.timedelta(minutes=5)
    refused = service.post(player, f"/undo {seq}")
    assert not refused.changed, refused.render()
    said = refused.render()
    assert f"your order #{seq}" in said and "cannot be taken back" in said
    assert "is bound to the lottery draw of 2026-12-03" in said and "public since 2026-12-03 20:00 Rome" in said, said
    assert "ask the GM to void it (/gm void <reason>)" in said
    # The preview says so at once too, instead of offering an undo that would be refused.
    assert "cannot be taken back" in service.post(player, "/undo").render()


def test_a_drand_roll_is_not_undone_after_its_round_before_its_beacon_is_recorded(tmp_path: Path) -> None:
    """GM with Discord, the relays slow (here: none answers): the round is public at its time, the bot has not
    recorded its beacon; undoing the roll then would let the GM roll it again on a later round."""
    service = _live(tmp_path, randomness="drand")
    assert service.post("gm", "/turn open").changed
    rolled = service.post("gm", "/roll 1d6 storm at sea")
    assert rolled.changed, rolled.render()
    [roll] = [e for e in _ledger(service) if e["purpose"] == "gm roll"]
    round_no = int(roll["key"])
    public = dt.datetime.fromtimestamp(QUICKNET_GENESIS + (round_no - 1) * QUICKNET_PERIOD, tz=dt.timezone.utc)
    service.clock.moment = public + dt.timedelta(seconds=1)
    refused = service.post("gm", "/gm undo")
    assert not refused.changed, refused.render()
    assert (f"roll #2 (gm roll) is bound to drand quicknet round {round_no}, public since "
            f"{public.isoformat()}") in refused.render(), refused.render()


def test_a_book_roll_on_drand_is_not_undone_after_its_round(tmp_path: Path) -> None:
    """GM with Discord, in a game of the shared chance book (Mediterranean Empires): a stratagem draw bound to a
    round, the round past, its beacon not recorded (no relay answers): the undo is refused."""
    clock = FixedClock(START)
    service = Legatus(open_engine(tmp_path / "me.db"), clock=clock)
    assert service.create_campaign("sea", "mediterranean-empires", "gm", {"Player A": "ann", "Player B": "bob"}).changed
    standard_set_up(service, "sea")
    assert "Waiting for the roll" in service.post("ann", "draw").render()
    [binding] = [e for e in _ledger(service, "sea") if e["source"] == "drand"]
    round_no = int(binding["key"])
    public = dt.datetime.fromtimestamp(QUICKNET_GENESIS + (round_no - 1) * QUICKNET_PERIOD, tz=dt.timezone.utc)
    clock.moment = public + dt.timedelta(seconds=2)
    refused = service.post("gm", "/gm undo", campaign="sea")
    assert not refused.changed, refused.render()
    assert f"is bound to drand quicknet round {round_no}, public since {public.isoformat()}" in refused.render()


def test_the_log_of_a_refused_undo_verifies_and_a_forged_one_is_flagged(tmp_path: Path) -> None:
    """Operator with the database and the clock: the shell refused the late undo, so the operator writes it into
    the log himself (an old-style campaign.created without the rule, chain hashed anew); verify flags it with the
    event's number and the roll it took back."""
    service = _live(tmp_path)
    _gm_roll_bound(service)
    events = events_of(service)
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    honest = verify(ruleset, events, {})
    assert honest.ok, [str(f) for f in honest.findings]
    late = (draw_moment(ROLL_DRAW) + dt.timedelta(minutes=5)).isoformat()
    created = replace(events[0], data={k: v for k, v in events[0].data.items() if k != "undo_rules"})
    undo = Event(seq=len(events) + 1, kind="gm.undo", actor="gm", data={"target": events[-1].seq, "reason": "oops"},
                 at=late)
    forged = rechained([created, *events[1:], undo])
    caught = verify(ruleset, forged, {})
    assert [str(f) for f in caught.findings] == [
        f"event #{undo.seq}: undo of event #{events[-1].seq}: roll #2 (gm roll) was bound to the lottery draw of "
        "2026-12-03 (wheel PA, 1st number), public since 2026-12-03T19:00:00+00:00; the undo was made at "
        "2026-12-03T19:05:00+00:00, after it: whoever undid it could know the outcome and bind the roll again"
    ], [str(f) for f in caught.findings]


def _roll_ids(service: Legatus) -> list[str]:
    return [str(e["id"]) for e in _ledger(service) if e["purpose"] == "gm roll"]


def test_a_roll_bound_after_an_undo_gets_a_fresh_id(tmp_path: Path) -> None:
    """GM with Discord: roll, undo, roll again. Had the second roll taken the first one's id, "roll #2" in an
    earlier post and in the ledger would name two different bindings, and a reader could not tell them apart."""
    service = _live(tmp_path)
    _gm_roll_bound(service)
    first = _roll_ids(service)
    assert service.post("gm", "/gm undo wrong die").changed
    assert service.post("gm", "/roll 1d6 storm at sea").changed
    again = _roll_ids(service)
    assert len(first) == len(again) == 1 and not set(first) & set(again), (first, again)


def test_verify_checks_the_binding_in_effect_not_the_first_one_of_an_id(tmp_path: Path) -> None:
    """Operator with the database and the clock, in a campaign made before ids were fresh: a roll bound in time,
    undone before its draw, and bound again with the same id eight minutes before the draw (too late: the shell binds
    no later than ``BINDING_MARGIN``, so the operator rewrites that binding's time and hashes the log anew). Verify
    used to keep the first binding's time for the id and passed; it must check the binding in effect."""
    service = _live(tmp_path)
    _gm_roll_bound(service)
    service.clock.moment = draw_moment(ROLL_DRAW) - dt.timedelta(hours=1)
    assert service.post("gm", "/gm undo wrong die").changed
    service.clock.moment = draw_moment(ROLL_DRAW) - dt.timedelta(minutes=11)
    assert service.post("gm", "/roll 1d6 storm at sea").changed
    *earlier, last = events_of(service)
    late = (draw_moment(ROLL_DRAW) - dt.timedelta(minutes=8)).isoformat()
    events = rechained([*earlier, replace(last, at=late)])
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    fresh = verify(ruleset, events, {})
    assert [f.purpose for f in fresh.findings] == ["gm roll (roll #4)"], [str(f) for f in fresh.findings]
    created = replace(events[0], data={k: v for k, v in events[0].data.items() if k != "undo_rules"})
    old = rechained([created, *events[1:]])
    reused = verify(ruleset, old, {})
    assert _roll_ids_of(ruleset, old) == ["2"], "the old rule reuses the id"
    assert [str(f) for f in reused.findings] == [
        f"event #{len(events)}, turn 1: gm roll (roll #2): bound at 2026-12-03T18:52:00+00:00, less than 600 s before its "
        "lottery value (2026-12-03, public at 2026-12-03T20:00:00+01:00): not bound in advance"
    ], [str(f) for f in reused.findings]
    assert any("GM undo event #4 took back event #3 (by gm" in n and "roll #2 (gm roll) on lottery 2026-12-03 PA #1" in n
               for n in reused.notes), reused.notes


def _roll_ids_of(ruleset: object, events: list[object]) -> list[str]:
    state = replay(ruleset, events).state  # type: ignore[arg-type]
    return [str(e["id"]) for e in ruleset.ledger(state) if e["purpose"] == "gm roll"]  # type: ignore[attr-defined]


def test_a_forged_late_player_undo_is_flagged(tmp_path: Path) -> None:
    """Operator with the database and the clock, for a player: the peace treaty's undo written into the log after
    Thursday's draw was public, in a campaign.created without the rule (the chain hashed anew)."""
    service = _live(tmp_path)
    assert service.post("gm", "/turn open").changed
    service.clock.moment = draw_moment(TURN_DRAW) + dt.timedelta(hours=1)
    assert service.post("gm", f"/lotto confirm 2026-12-01 {typed(TURN_DRAW)}").changed
    first = service.state()["order_of_play"][0]
    other = next(n for n in PLAYERS if n != first)
    assert service.post(PLAYERS[first], f"peace treaty with {other}").changed
    events = events_of(service)
    created = replace(events[0], data={k: v for k, v in events[0].data.items() if k != "undo_rules"})
    late = (draw_moment(ROLL_DRAW) + dt.timedelta(minutes=5)).isoformat()
    taken = Event(len(events) + 1, "player.undo", PLAYERS[first], {"target": events[-1].seq}, at=late)
    forged = rechained([created, *events[1:], taken])
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    caught = verify(ruleset, forged, {"2026-12-01": {w: [i + 1, i + 11, i + 21, i + 31, i + 41]
                                                     for i, w in enumerate(wheels_on(TURN_DRAW))}})
    [finding] = [f for f in caught.findings if "undo" in f.purpose]
    assert finding.seq == taken.seq and finding.purpose == f"player undo of event #{events[-1].seq}"
    assert finding.detail.startswith("roll #1 (peace treaty) was bound to the lottery draw of 2026-12-03"), finding.detail
    assert finding.detail.endswith(f"public since 2026-12-03T19:00:00+00:00; the undo was made at {late}, after it: "
                                   "whoever undid it could know the outcome and bind the roll again")


def test_the_shell_refuses_a_late_undo_in_a_campaign_made_before_the_rule(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """GM with Discord, in a campaign created before the clock rules (its fold accepts a late undo, so that its log
    replays as it did): the shell still writes no new late undo."""
    monkeypatch.setattr("bot.service.legatus.CLOCK_RULES", 1)  # what campaign.created said before the rule
    service = _live(tmp_path)
    _gm_roll_bound(service)
    assert not takeback.follows_clock_rules(events_of(service)[0].data)
    service.clock.moment = draw_moment(ROLL_DRAW) + dt.timedelta(minutes=5)
    refused = service.post("gm", "/gm undo")
    assert not refused.changed and "roll #2 (gm roll) is bound to the lottery draw of 2026-12-03" in refused.render()
    # The fold of such a campaign would take it (the shell is what refuses), and verify would flag it.
    events = events_of(service)
    late = Event(len(events) + 1, "gm.undo", "gm", {"target": events[-1].seq}, at=service.clock.now().isoformat())
    forged = rechained([*events, late])
    replay(load_ruleset("mare-nostrum", DATA_DIR), forged)
    assert [f.purpose for f in verify(load_ruleset("mare-nostrum", DATA_DIR), forged, {}).findings] == \
        [f"undo of event #{events[-1].seq}"]
