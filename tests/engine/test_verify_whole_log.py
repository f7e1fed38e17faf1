"""engine/verify.py on whole small logs, each finding and note asserted whole (issue 32: the survivors of its mutation
sample): which event a finding names, where the head is, which wheel is missing, what a void's note says. The
logs are tests/engine/test_takeback.py's campaign: created (#1), turn opened (#2), a GM roll bound on PA's first
number of 2026-12-03 (#3)."""
from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from engine import verify as V
from engine.events import Event
from engine.ruleset import Transition
from engine.verify import Finding
from tests.engine.test_takeback import ROLL_PUBLIC, campaign, stamp
from tests.engine.test_verify_findings import NO_ANCHOR, WHEELS_ALL, _historical, _mare_nostrum
from tests.log_tools import rechained

DRAWN = {w: [1 + 5 * i + k for k in range(5)] for i, w in enumerate(WHEELS_ALL)}  # wheel i: 1 + 5i .. 5 + 5i


def _draw(seq: int = 4) -> Event:
    return Event(seq, "draw.recorded", "bot", {"date": "2026-12-03", "numbers": DRAWN, "source": "lotto.it; other"},
                 at="2026-12-03T20:00:00+00:00")


def test_a_finding_and_a_verification_are_values_nobody_can_change_after_verify_made_them() -> None:
    """A report built from a verification (the CLI, the site) must not be able to rewrite its verdict or a finding,
    and equal results are one."""
    finding = Finding(4, 1, "gm roll (roll #2)", "wrong")
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.detail = "fine"  # type: ignore[misc]  # the point: a frozen dataclass refuses it
    assert {finding, Finding(4, 1, "gm roll (roll #2)", "wrong")} == {finding}
    result = V.verify(_mare_nostrum(), _historical(), {})
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.findings = ()  # type: ignore[misc]  # the same
    assert {result, V.verify(_mare_nostrum(), _historical(), {})} == {result}


def test_the_head_is_the_last_event_of_the_log() -> None:
    events = _historical()
    result = V.verify(_mare_nostrum(), events, {})
    assert (result.events, result.head_seq, result.head, result.findings) == (3, 3, events[2].hash, ())
    assert result.anchor == f"3:{events[2].hash}"
    longer = V.verify(_mare_nostrum(), _historical(then=[_draw()]), {"2026-12-03": DRAWN})
    assert (longer.events, longer.head_seq, longer.findings) == (4, 4, ())


def test_a_log_drawing_from_fixed_values_is_found_on_its_first_event() -> None:
    """Operator with the database: a campaign.created naming the scenario tests' fixed values (known before every
    binding). Mare Nostrum does not take that source, so the log does not replay either: both are said, the source
    first, on the event that chose it."""
    events = _historical("fixed", ("fixed:0",), {"fixed_values": [4]})
    result = V.verify(_mare_nostrum(), events, {})
    assert result.findings == (
        Finding(1, None, "randomness", "the campaign draws from 'fixed', values known before they were bound (a source "
                "for scenario tests): not verifiable"),
        Finding(None, None, "replay", "the log itself does not replay: unknown randomness 'fixed': use lottery or "
                "commit-reveal or drand"),
    )
    assert result.head_seq == 3


def test_a_recorded_wheel_missing_from_the_public_draws_is_a_finding_on_the_draw() -> None:
    """The public draws given lack Venice: the log's VE numbers cannot be held to anything, and only that is said."""
    public = {w: numbers for w, numbers in DRAWN.items() if w != "VE"}
    result = V.verify(_mare_nostrum(), _historical(then=[_draw()]), {"2026-12-03": public})
    assert result.findings == (Finding(4, None, "draw of 2026-12-03", "wheel VE is not in the public draws"),)
    assert result.draws_checked == 1


def test_a_gm_void_is_noted_with_every_word_the_fold_said() -> None:
    """A live campaign whose GM roll was voided: the void's note joins the fold's messages with single spaces, as the
    bot posted them; the one binding left (the turn's draw, bound by event #2) has no witness, and the note says
    which event to look for."""
    void = Event(4, "gm.void", "gm", {"target": 3, "reason": "wrong die"}, at=stamp(ROLL_PUBLIC + dt.timedelta(hours=1)))
    result = V.verify(_mare_nostrum(), rechained([*campaign(rules=None), void]), {})
    assert result.findings == ()
    assert result.notes == (
        "GM void, event #4: The GM voids event #3 (roll.requested by gm): wrong die. Outcomes discarded: no random "
        "outcome.",
        NO_ANCHOR,
        "1 of 1 binding(s) have no witness (a head seen outside the bot at or after them, e.g. from event #2): that "
        "they came before their values rests on the log's own clock, the operator's; give --witnesses (an export of "
        "the campaign's channel) or --expect-head SEQ:HASH@TIME",
        "GM void event #4 took back event #3 (by gm at 2026-12-03T20:00:00+00:00): bindings removed: roll #2 (gm roll) "
        "on lottery 2026-12-03 PA #1",
    )


def test_a_rebuild_on_the_public_values_that_refuses_or_ends_elsewhere_is_said_whole() -> None:
    """_rederive, the replay on the public values: a log it cannot replay (here cut before its campaign.created), and
    a log whose rolls all agree but whose public state differs from the one the log's own fold reached (here a
    temple the fold's state holds and the rebuild does not)."""
    from engine.log import replay

    events = _historical()
    assert V._rederive(_mare_nostrum(), events[1:], replay(_mare_nostrum(), events).state) == [
        Finding(None, None, "replay on the public values",
                "the campaign diverges: a campaign log begins with 'campaign.created', not 'turn.opened'")]
    opened = replay(_mare_nostrum(), events[:2]).state
    assert V._rederive(_mare_nostrum(), events[:2], opened) == []
    opened.provinces["Latium"].temple = not opened.provinces["Latium"].temple
    assert V._rederive(_mare_nostrum(), events[:2], opened) == [
        Finding(None, None, "state", "the campaign rebuilt on the public values differs from the log's")]


def test_sealed_contents_revealed_are_counted_among_those_the_bot_sealed_and_a_refused_refold_is_said() -> None:
    """Two seals by the bot (#4, #5), one revealed (#6): the note counts them; Mare Nostrum seals nothing, so the
    refold with the content put back is refused, and the finding says by what."""
    from engine.log import replay
    from engine.secrets import REVEALED, SEALED

    events = _historical()
    at = events[2].at
    sealed = rechained([*events, Event(4, SEALED, "bot", {"key": "k"}, at=at), Event(5, SEALED, "bot", {"key": "j"}, at=at),
                        Event(6, REVEALED, "bot", {"seq": 4, "content": {"x": 1}, "salt": "ab"}, at=at)])
    assert V._refold_with_secrets(_mare_nostrum(), sealed, replay(_mare_nostrum(), events).state) == (
        [Finding(None, None, "sealed contents", "the log with its revealed sealed contents does not replay: the Mare "
                 "Nostrum ruleset does not know events of kind 'secret.sealed'")],
        ["1 sealed content(s) revealed and replayed as the bot's fold ran them; 1 of the 2 the bot sealed itself "
         "(stratagem markers drawn) are among them"],
    )


def test_only_a_reveal_event_reveals_a_sealed_content() -> None:
    """Operator with the database: a GM roll given a "seq" in its data is no reveal; verify neither counts it nor
    puts a content back on the event it names."""
    events = _historical()
    odd = rechained([*events[:2], dataclasses.replace(events[2], data={**events[2].data, "seq": 2})])
    result = V.verify(_mare_nostrum(), odd, {})
    assert (result.findings, result.notes) == ((), (
        "historical: not bound in advance (2 bindings on draws that had already been held)", NO_ANCHOR))


class _TakesReveals:
    """Mare Nostrum, but taking a reveal without a word (it seals nothing itself): a game whose refold with the
    revealed contents replays, for the check that follows the replay."""

    def __init__(self, ruleset: Any) -> None:
        self._ruleset = ruleset

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def apply(self, state: Any, event: Event, in_place: bool = False) -> Transition:
        from engine.secrets import REVEALED

        if event.kind == REVEALED:
            return Transition(state)
        return self._ruleset.apply(state, event, in_place=in_place)


def test_a_refold_with_the_revealed_contents_that_ends_in_another_public_state_is_said() -> None:
    from engine.log import replay
    from engine.secrets import REVEALED

    game = _TakesReveals(_mare_nostrum())
    events = _historical()
    revealed = rechained([*events, Event(4, REVEALED, "bot", {"seq": 3, "content": {"x": 1}, "salt": "ab"},
                                         at=events[2].at)])
    state = replay(game, revealed).state  # type: ignore[arg-type]  # a Ruleset by its methods
    note = "1 sealed content(s) revealed and replayed as the bot's fold ran them"
    assert V._refold_with_secrets(game, revealed, state) == ([], [note])  # type: ignore[arg-type]
    state.provinces["Latium"].temple = not state.provinces["Latium"].temple
    assert V._refold_with_secrets(game, revealed, state) == (  # type: ignore[arg-type]
        [Finding(None, None, "sealed contents", "the campaign replayed with its revealed sealed contents ends in "
                 "another public state than the log's")], [note])


def test_an_anchor_with_a_time_is_a_witness_and_a_malformed_one_is_left_to_the_anchor_check() -> None:
    findings: list[Finding] = []
    [witness] = V._timed_anchor(f"3:{'ab' * 32}@2026-12-03T18:00:00Z", findings)
    assert (witness.seq, witness.digest, witness.seen_text, witness.source) == (
        3, "ab" * 32, "2026-12-03T18:00:00Z", f"anchor 3:{'ab' * 8}…@2026-12-03T18:00:00Z")
    assert V._timed_anchor(f"3:{'ab' * 32}", findings) == []  # no time: the content check only
    assert V._timed_anchor("3:abc@2026-12-03T18:00:00Z", findings) == [] and findings == []
    assert V._timed_anchor(f"3:{'ab' * 32}@yesterday", findings) == []
    assert findings == [Finding(None, None, "anchor", f"'3:{'ab' * 32}@yesterday': the time after '@' must be "
                                "YYYY-MM-DDTHH:MM:SSZ (UTC), e.g. 3:abababab…@2026-11-25T19:30:00Z")]
