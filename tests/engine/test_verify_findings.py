"""Each finding and note of engine/verify.py, word for word, with its event and turn (issue 32): a verification that
names the wrong event, turn or reason misleads the player who reads it as surely as one that passes a forgery.
The checks are called one by one on small hand-made inputs; tests/engine/test_verify.py runs them on whole logs."""
from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from pathlib import Path
from dataclasses import replace
from typing import Any

import pytest

from engine import commit_reveal
from engine import verify as V
from engine.chance import drand
from engine.events import Event
from engine.verify import Finding, Verification

UTC = dt.timezone.utc
H = "ab" * 32
RECORDED = json.loads((Path(__file__).parent / "chance" / "data" / "quicknet_recorded.json").read_text())
BEACON = RECORDED["beacons"][0]


def _event(seq: int, kind: str = "order", data: dict[str, Any] | None = None, at: str = "", hash: str = "",
           known_round: int | None = None) -> Event:
    return Event(seq=seq, kind=kind, actor="gm", data=data or {}, at=at, hash=hash, known_round=known_round)


# --- how a finding reads -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("finding", "words"), [
    (Finding(3, 2, "siege (roll #4)", "wrong"), "event #3, turn 2: siege (roll #4): wrong"),
    (Finding(3, None, "anchor", "cut"), "event #3: anchor: cut"),
    (Finding(None, 5, "p", "d"), "turn 5: p: d"),
    (Finding(None, None, "state", "differs"), "state: differs"),
    (Finding(0, 0, "p", "d"), "event #0: p: d"),
])
def test_a_finding_reads_event_turn_purpose_and_detail(finding: Finding, words: str) -> None:
    assert str(finding) == words
    assert finding.unchecked is False  # a mismatch unless said otherwise


def test_a_verification_counts_nothing_it_was_not_told() -> None:
    result = Verification(3, 1, 2, H, ())
    assert (result.awaiting_reveal, result.numbers_checked, result.head_seq, result.clock, result.notes,
            result.beacons_checked, result.awaiting_turns, result.commit_reveal_rule) == (0, 0, 0, "", (), 0, (), 1)


@pytest.mark.parametrize(("awaiting", "turns", "words"), [
    (0, (), ""),
    (1, (), "1 number waits for its seed: not verified"),
    (1, (3,), "1 number of turn 3 waits for its seed: not verified"),
    (2, (3, 4), "2 numbers of turns 3, 4 wait for their seed: not verified"),
])
def test_numbers_waiting_for_their_seed_are_said_plainly(awaiting: int, turns: tuple[int, ...], words: str) -> None:
    result = Verification(1, 0, 0, H, (), awaiting_reveal=awaiting, awaiting_turns=turns, head_seq=7)
    assert result.awaiting_words() == words
    assert result.ok is True and result.verified is (awaiting == 0)
    assert result.anchor == f"7:{H}"
    assert Verification(1, 0, 0, H, (Finding(None, None, "p", "d"),)).verified is False


# --- anchors -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("anchor", "parsed"), [
    (f"12:{H}", (12, H)),
    (f" 12:{H.upper()} ", (12, H)),
    (f"12:{H[:-1]}", None),
    (f"12:{H}0", None),
    (f"x:{H}", None),
    (f"12{H}", None),
    (f"12:{'g' * 64}", None),
])
def test_an_anchor_is_a_number_a_colon_and_64_hex_digits(anchor: str, parsed: tuple[int, str] | None) -> None:
    assert V._parse_anchor(anchor) == parsed


def test_an_anchor_catches_a_log_cut_or_rewritten_and_says_which() -> None:
    events = [_event(1, hash="11" * 32), _event(2, hash="22" * 32)]
    assert V._check_anchor(events, f"2:{'22' * 32}") == []
    assert V._check_anchor(events, f"3:{'33' * 32}") == [
        Finding(3, None, "anchor", "the log ends at #2 but event #3 was published: the log was cut")]
    assert V._check_anchor(events, f"1:{'33' * 32}") == [
        Finding(1, None, "anchor", f"event #1 has hash {'11' * 8}…, but {'33' * 8}… was published: the log was rewritten")]
    assert V._check_anchor([], f"1:{H}") == [
        Finding(1, None, "anchor", "the log ends at #0 but event #1 was published: the log was cut")]
    assert V._check_anchor(events, "nonsense") == [
        Finding(None, None, "anchor", "'nonsense' is not SEQ:HASH (a number, a colon, 64 hex digits)")]


# --- draws -------------------------------------------------------------------------------------------------------


def test_a_draw_ruled_not_held_but_public_is_a_finding_and_otherwise_a_note() -> None:
    findings: list[Finding] = []
    notes: list[str] = []
    held = _event(9, "draw.cancelled", {"date": "2023-01-05", "by": "carla"})
    V._check_cancelled(held, {"2023-01-05": {"BA": [1, 2, 3, 4, 5]}}, findings, notes)
    assert findings == [Finding(9, None, "draw of 2023-01-05", "ruled not held by carla, but the public draws hold "
                                "it: its rolls should have taken its numbers, not later draws")]
    assert notes == []
    V._check_cancelled(_event(10, "draw.cancelled", {"date": "2023-01-07", "reason": "strike"}), {}, findings, notes)
    V._check_cancelled(_event(11, "draw.cancelled", {"date": "2023-01-10"}), {}, findings, notes)
    assert len(findings) == 1
    assert notes == [
        "the draw of 2023-01-07 (event #10) was ruled not held by gm (strike); its rolls were bound again to later draws",
        "the draw of 2023-01-10 (event #11) was ruled not held by gm (no reason given); its rolls were bound again "
        "to later draws",
    ]


@pytest.mark.parametrize(("source", "words"), [
    ("", ""),
    ("lotto.it; estrazionedellotto.it", ""),
    ("gm ann", "typed by a GM"),
    ("single lotto.it", "taken from one source"),
    ("import storico.zip", "imported, not fetched from two sources"),
    ("single lotto.it; gm ann", "typed by a GM and taken from one source"),
    ("lotto.it; import x", "imported, not fetched from two sources"),
])
def test_a_draws_provenance_is_weighed_part_by_part(source: str, words: str) -> None:
    assert V._draw_provenance(source) == words


def test_a_draw_recorded_before_20_00_in_rome_is_a_finding() -> None:
    # 2023-01-05 20:00 in Rome (winter, UTC+1) is 19:00 UTC.
    early = _event(4, "draw.recorded", at="2023-01-05T18:59:59Z")
    assert V._recorded_too_soon(early, "2023-01-05") == [Finding(
        4, None, "draw of 2023-01-05", "recorded at 2023-01-05T18:59:59Z, before it was held (2023-01-05T19:00:00Z, "
        "20:00 in Rome): the log's clock was wrong or set back")]
    assert V._recorded_too_soon(_event(4, at="2023-01-05T19:00:00Z"), "2023-01-05") == []
    assert V._recorded_too_soon(_event(4, at=""), "2023-01-05") == []
    assert V._recorded_too_soon(_event(4, at="2023-01-05T18:00:00Z"), "not a day") == []


# --- time ----------------------------------------------------------------------------------------------------------


def _entry(roll: int, source: str, key: str, turn: int | None = 2) -> dict[str, Any]:
    return {"id": roll, "turn": turn, "purpose": f"roll {roll}", "source": source, "key": key}


def _trace(*bound: tuple[str, tuple[int, str, dict[str, Any]]]) -> Any:
    trace = V._Trace()
    trace.bound_at = dict(bound)
    return trace


def test_a_live_binding_must_come_a_margin_before_its_value() -> None:
    rounds = (1000, 3)
    round_11 = dt.datetime.fromtimestamp(1030, tz=UTC)  # genesis + (11 - 1) x 3
    in_time = (round_11 - V.DRAND_MARGIN).isoformat()
    late = (round_11 - V.DRAND_MARGIN + dt.timedelta(seconds=1)).isoformat()
    trace = _trace(("1", (5, in_time, _entry(1, "drand", "11"))), ("2", (6, late, _entry(2, "drand", "11"))),
                   ("3", (7, late, _entry(3, "commit-reveal", "duel@drand:11", turn=3))),
                   ("4", (8, late, _entry(4, "commit-reveal", "bare"))))
    findings, notes = V._check_times(trace, "live", rounds)
    public = "public at 1970-01-01T00:17:10+00:00"
    assert findings == [
        Finding(6, 2, "roll 2 (roll #2)", f"bound at {late}, less than 6 s before its drand value (11, {public}): "
                "not bound in advance"),
        Finding(7, 3, "roll 3 (roll #3)", f"bound at {late}, less than 6 s before its drand value (11, {public}): "
                "not bound in advance"),
    ]
    assert notes == []


def test_a_lottery_binding_needs_the_lottery_margin() -> None:
    draw = dt.datetime(2023, 1, 5, 19, 0, tzinfo=UTC)
    in_time = (draw - V.LOTTERY_MARGIN).isoformat()
    late = (draw - V.LOTTERY_MARGIN + dt.timedelta(seconds=1)).isoformat()
    trace = _trace(("1", (5, in_time, _entry(1, "lottery", "2023-01-05"))),
                   ("2", (6, late, _entry(2, "lottery", "2023-01-05"))))
    [finding] = V._check_times(trace, "live")[0]
    seconds = int(V.LOTTERY_MARGIN.total_seconds())
    assert finding == Finding(6, 2, "roll 2 (roll #2)", f"bound at {late}, less than {seconds} s before its lottery "
                              "value (2023-01-05, public at 2023-01-05T20:00:00+01:00): not bound in advance")


def test_a_binding_whose_time_cannot_be_read_is_a_finding() -> None:
    trace = _trace(("1", (5, "", _entry(1, "drand", "11"))), ("2", (6, "2023-01-05T10:00:00", _entry(2, "drand", "11"))),
                   ("3", (7, "yesterday", _entry(3, "lottery", "2023-02-30"))))
    assert V._check_times(trace, "live")[0] == [
        Finding(5, 2, "roll 1 (roll #1)", "the time of its binding (none) or of its draw (11) cannot be read"),
        Finding(6, 2, "roll 2 (roll #2)",
                "the time of its binding (2023-01-05T10:00:00) or of its draw (11) cannot be read"),
        Finding(7, 2, "roll 3 (roll #3)", "the time of its binding (yesterday) or of its draw (2023-02-30) cannot be read"),
    ]


def test_a_historical_campaign_is_noted_not_found_wanting() -> None:
    trace = _trace(("1", (5, "", _entry(1, "drand", "11"))), ("2", (6, "", _entry(2, "lottery", "2023-01-05"))),
                   ("3", (7, "", _entry(3, "commit-reveal", "x"))))
    assert V._check_times(trace, "historical") == (
        [], ["historical: not bound in advance (2 bindings on draws that had already been held)"])
    assert V._check_times(_trace(("3", (7, "", _entry(3, "commit-reveal", "x")))), "historical") == ([], [])


def test_an_event_stamped_before_a_round_the_bot_held_is_a_finding() -> None:
    rounds = (1000, 3)  # round 11 is produced at 1030
    events = [_event(1, at="1970-01-01T00:17:09Z", known_round=11), _event(2, at="1970-01-01T00:17:10Z", known_round=11),
              _event(3, at="1970-01-01T00:00:00Z"), _event(4, known_round=11)]
    assert V._before_known_rounds(events, rounds) == [Finding(
        1, None, "time", "stamped 1970-01-01T00:17:09Z, but the bot already held drand round 11, produced at "
        "1970-01-01T00:17:10Z: the log's clock was set back")]


# --- commit-reveal -------------------------------------------------------------------------------------------------


def test_a_mixed_number_recorded_before_its_round_is_a_finding() -> None:
    """The check that a mixed number came after its round must run: without it the seed alone would make it."""
    trace = V._Trace(ranges={"duel@drand:11": (1, 6, 1)})
    event = _event(8, "random.recorded", {"numbers": {"duel@drand:11": 4}})
    fresh, findings, count = V._recompute(event, "seed", trace, {})
    assert findings == [Finding(8, None, "commit-reveal label duel@drand:11",
                                "recorded before drand round 11, which it is mixed with, was recorded")]
    assert fresh == {"duel@drand:11": 4} and count == 1


def test_a_number_is_recomputed_from_the_seed_with_its_range_and_its_round() -> None:
    key = commit_reveal.key("seed")
    bare = commit_reveal.uniform(key, "bare", 2, 3, 8)
    mixed = commit_reveal.uniform(commit_reveal.mixed_key(key, H), "duel@drand:11", 1, 1, 6)[0]
    trace = V._Trace(ranges={"bare": (3, 8, 2), "duel@drand:11": (1, 6, 1)}, mixes={"duel@drand:11": H})
    labels = {"bare": {"id": 4, "turn": 2, "purpose": "siege", "seat": "Romans"},
              "duel@drand:11": {"id": 5, "turn": 3, "purpose": "duel", "seat": None}}
    right = _event(8, "random.recorded", {"numbers": {"bare": bare, "duel@drand:11": mixed}})
    assert V._recompute(right, "seed", trace, labels) == ({"bare": bare, "duel@drand:11": mixed}, [], 2)
    wrong_bare = [bare[0], (bare[1] - 3 + 1) % 6 + 3]  # the second value moved by one within 3..8
    wrong_mixed = mixed % 6 + 1
    odd = commit_reveal.uniform(key, "odd", 1, 1, 90)[0]  # a label nobody asked for: 1..90, one value
    wrong = _event(9, "random.recorded", {"numbers": {"bare": wrong_bare, "duel@drand:11": wrong_mixed,
                                                      "odd": odd % 90 + 1}})
    fresh, findings, count = V._recompute(wrong, "seed", trace, labels)
    assert fresh == {"bare": bare, "duel@drand:11": mixed, "odd": odd} and count == 3
    assert findings == [
        Finding(9, 2, "siege of the Romans (roll #4)",
                f"commit-reveal label bare: the log has {wrong_bare}, the revealed seed gives {bare}"),
        Finding(9, 3, "duel (roll #5)",
                f"commit-reveal label duel@drand:11: the log has {wrong_mixed}, the revealed seed gives {mixed}"),
        Finding(9, None, "a number no roll of the campaign uses",
                f"commit-reveal label odd: the log has {odd % 90 + 1}, the revealed seed gives {odd}"),
    ]


# --- beacons -------------------------------------------------------------------------------------------------------


def test_a_beacon_is_checked_against_quicknets_key_and_its_randomness_against_its_signature() -> None:
    check = V.beacon_checker([_event(1, "campaign.created")])
    assert check(dict(BEACON)) is None
    assert check({"round": 1, "randomness": BEACON["randomness"]}) == (
        "no signature recorded: the beacon cannot be checked against the quicknet chain")
    bad = {**BEACON, "randomness": "00" * 32}
    assert check(bad) == (f"the randomness 0000000000000000… is not SHA-256 of the signature "
                          f"({BEACON['randomness'][:16]}…)")
    other_round = {**BEACON, "round": 2}
    with pytest.raises(drand.BadBeacon) as why:
        drand.check_beacon(2, BEACON["signature"], drand.QUICKNET)
    assert check(other_round) == f"the signature is not the quicknet chain's signature of round 2: {why.value}"


def test_the_values_of_a_finding_are_shown_plainly() -> None:
    assert (V._shown(None), V._shown([]), V._shown([4]), V._shown([1, 2])) == ("none", "none", "4", "1, 2")


def test_an_empty_log_is_a_finding_not_a_traceback() -> None:
    from engine.rulesets import load_ruleset

    result = V.verify(load_ruleset("mare-nostrum", Path(__file__).parents[2] / "data"), [], {})
    assert result.findings == (Finding(None, None, "replay", "the log itself does not replay: the log is empty"),)
    assert (result.events, result.head, result.head_seq, result.ok) == (0, "", 0, False)


# --- whole logs (tests/engine/test_takeback.py's campaign: created, turn opened, a GM roll on 2026-12-03) --------


def _mare_nostrum() -> Any:
    from engine.rulesets import load_ruleset

    return load_ruleset("mare-nostrum", Path(__file__).parents[2] / "data")


def test_a_live_roll_bound_too_late_is_found_in_a_whole_log_with_or_without_a_ledger_mark() -> None:
    from tests.engine.test_takeback import ROLL_PUBLIC, campaign, stamp
    from tests.log_tools import Unmarked, rechained

    events = campaign(rules=None)
    late = stamp(ROLL_PUBLIC - V.LOTTERY_MARGIN + dt.timedelta(seconds=1))
    events = rechained([*events[:2], replace(events[2], at=late)])
    seconds = int(V.LOTTERY_MARGIN.total_seconds())
    expected = [Finding(3, 1, "gm roll (roll #2)", f"bound at {late}, less than {seconds} s before its lottery value "
                        "(2026-12-03, public at 2026-12-03T20:00:00+01:00): not bound in advance")]
    assert list(V.verify(_mare_nostrum(), events, {}).findings) == expected
    assert list(V.verify(Unmarked(_mare_nostrum()), events, {}).findings) == expected  # type: ignore[arg-type]


def test_a_chain_campaign_created_names_but_cannot_be_read_is_a_finding_on_the_first_event() -> None:
    from tests.engine.test_takeback import campaign
    from tests.log_tools import rechained

    events = campaign(rules=None, clock="historical")
    events = rechained([replace(events[0], data={**events[0].data, "drand_chain": "nonsense"}), *events[1:]])
    findings = V.verify(_mare_nostrum(), events, {}).findings
    assert findings[0] == Finding(1, None, "drand chain", "the drand chain named in campaign.created cannot be read "
                                  "('nonsense' is not an object); its beacons are checked against quicknet's pinned key")


def test_a_whole_log_is_held_to_the_anchors_given() -> None:
    from tests.engine.test_takeback import campaign
    from tests.log_tools import rechained

    events = rechained(campaign(rules=None, clock="historical"))
    head = events[-1]
    assert V.verify(_mare_nostrum(), events, {}, expect_head=f"{head.seq}:{head.hash}").findings == ()
    assert V.verify(_mare_nostrum(), events, {}, expect_head=[f"1:{events[0].hash}", f"3:{head.hash}"]).findings == ()
    rewritten = V.verify(_mare_nostrum(), events, {}, expect_head=f"{head.seq}:{'0' * 64}")
    assert rewritten.findings == (Finding(3, None, "anchor", f"event #3 has hash {head.hash[:16]}…, but "
                                          f"{'0' * 16}… was published: the log was rewritten"),)
    cut = V.verify(_mare_nostrum(), events[:2], {}, expect_head=f"{head.seq}:{head.hash}")
    assert cut.findings == (Finding(3, None, "anchor", "the log ends at #2 but event #3 was published: the log was cut"),)


WHEELS_ALL = ["BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "RN", "TO", "VE"]
NO_ANCHOR = ("no anchor given: a log rewritten and re-hashed whole would pass these checks; give --expect-head or "
             "--witnesses")


def _historical(randomness: str = "lottery", roll_draws: tuple[str, ...] | None = None,
                created: dict[str, Any] | None = None, then: Sequence[Event] = ()) -> list[Event]:
    from tests.engine.test_takeback import OFFERED, campaign
    from tests.log_tools import rechained

    events = campaign(rules=None, clock="historical", randomness=randomness, roll_draws=roll_draws or OFFERED)
    first = replace(events[0], data={**events[0].data, **(created or {})})
    return rechained([first, *events[1:], *then])


def test_a_typed_draw_is_noted_and_a_wrong_number_nobody_used_is_still_found() -> None:
    """Wheel i holds 1 + 5i .. 5 + 5i; the GM roll took PA's first number. The public draw differs at BA #5 only."""
    numbers = {w: [1 + 5 * i + k for k in range(5)] for i, w in enumerate(WHEELS_ALL)}
    draw = Event(4, "draw.recorded", "bot", {"date": "2026-12-03", "numbers": numbers, "source": "gm carla"},
                 at="2026-12-03T20:00:00+00:00")
    result = V.verify(_mare_nostrum(), _historical(then=[draw]), {"2026-12-03": {**numbers, "BA": [1, 2, 3, 4, 77]}})
    assert result.findings == (Finding(4, None, "a number the campaign did not use",
                                       "draw of 2026-12-03, wheel BA, position 5: the log has 5, the public draw has 77"),)
    assert result.notes == ("the draw of 2026-12-03 (event #4) was typed by a GM: gm carla",
                            "historical: not bound in advance (2 bindings on draws that had already been held)",
                            NO_ANCHOR)
    assert (result.draws_checked, result.rolls, result.beacons_checked) == (1, 1, 0)


def test_a_beacon_without_its_signature_is_a_finding_named_by_its_round() -> None:
    beacon = Event(4, "beacon.recorded", "bot", {"round": 100, "randomness": "ab" * 32}, at="2026-12-03T20:00:00+00:00")
    result = V.verify(_mare_nostrum(), _historical("drand", ("drand:100",), then=[beacon]), {})
    assert result.findings == (Finding(4, None, "drand round 100",
                                       "no signature recorded: the beacon cannot be checked against the quicknet chain"),)
    assert result.beacons_checked == 1


def test_the_commit_reveal_rule_is_read_from_campaign_created() -> None:
    events = _historical("commit-reveal", ("drand:100",), {"commit_reveal_rule": 2, "commitment": "ab" * 32})
    result = V.verify(_mare_nostrum(), events, {})
    assert result.findings == () and result.commit_reveal_rule == 2
    old = V.verify(_mare_nostrum(), _historical("commit-reveal", ("drand:100",), {"commitment": "ab" * 32}), {})
    assert old.commit_reveal_rule == 1
    assert ("campaign.created names no commit_reveal_rule: its numbers are the seed's (the rule of campaigns created "
            "before rule 2), checkable only once the seed is revealed") in old.notes


def test_a_used_number_changed_is_found_at_its_slot_and_in_the_outcome_it_gave() -> None:
    """The GM's 1d6 took PA's first number: 31 in the log (die (31 - 1) mod 6 + 1 = 1), 2 in public (die 2)."""
    numbers = {w: [1 + 5 * i + k for k in range(5)] for i, w in enumerate(WHEELS_ALL)}
    draw = Event(4, "draw.recorded", "bot", {"date": "2026-12-03", "numbers": numbers, "source": "lotto.it; other"},
                 at="2026-12-03T20:00:00+00:00")
    result = V.verify(_mare_nostrum(), _historical(then=[draw]), {"2026-12-03": {**numbers, "PA": [2, 32, 33, 34, 35]}})
    assert result.findings == (
        Finding(4, 1, "gm roll (roll #2)", "draw of 2026-12-03, wheel PA, position 1: the log has 31, the public draw "
                "has 2"),
        Finding(None, 1, "gm roll (roll #2)", "the log's outcome is 31 (die 1 = 1); on the public values it is 2 "
                "(die 1 = 2)"),
    )
    assert result.notes[0] == "historical: not bound in advance (2 bindings on draws that had already been held)"
