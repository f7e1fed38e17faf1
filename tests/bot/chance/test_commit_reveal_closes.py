"""Hole 5: "commit-reveal opens a window nobody can check: forged numbers verify until the GM chooses to reveal the
seed". A roll mixed with a drand round gains nothing from the seed: nobody knows the round before it exists, and the
number is public in the log the moment it is recorded. So a campaign created from now on (``commit_reveal_rule`` 2 in
``campaign.created``) draws a mixed roll's number from its round alone, by section 2's rule: the game refuses a
recorded number that is not the round's, and ``legatus verify`` checks every number at once, with no reveal."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.schedule.clock import FixedClock
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from bot.service import DATA_DIR, Legatus
from engine import commit_reveal
from engine.chance import derive
from engine.events import Event, Rejection
from engine.ledger import event_hash
from engine.log import replay, step
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import FakeRelay, beacon_source, serving
from tests.conftest import LOTTO, PLAYERS
from tests.engine.test_verify import public_draws
from tests.fresh_db import migrated_engine
from tests.log_tools import events_of, rechained

START = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[Legatus]:
    """A commit-reveal campaign created now: turn 1 on the draw of 2023-01-03, a GM roll of 2d6 whose two numbers are
    recorded once their round is out, then every nation passes, the one battle is reported and the turn is closed."""
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(migrated_engine(tmp_path / "c.db"), clock=clock)
        service.beacons = beacon_source(relay, clock)
        service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
        assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal").changed
        assert service.post("gm", "/turn open 2023-01-03").ok
        rolled = service.post("gm", "/roll 2d6 omen")
        assert rolled.ok and "bound to drand quicknet round " in rolled.render(), rolled.render()
        assert "commit-reveal seed" not in rolled.render()  # the seed gives these numbers nothing
        clock.advance(timedelta(seconds=30))
        for user in ("antiochus", "ptolemy", "philip", "scipio", "hanno", "brennus"):
            assert service.post(user, "pass").ok
        assert service.post("gm", "/battle Bruttium winner Romans").ok
        closing = service.post("gm", "/turn close")
        assert closing.ok and "Turn 1 (290 BC) is closed." in closing.render(), closing.render()
        yield service


def _recorded(events: list[Event]) -> tuple[int, dict[str, int]]:
    index = next(i for i, e in enumerate(events) if e.kind == "random.recorded")
    return index, dict(events[index].data["numbers"])


def test_a_new_campaign_names_the_rule_in_its_first_event(closed: Legatus) -> None:
    """Outsider with the export: the rule a campaign's numbers follow is in the log, so an old log keeps its own."""
    created = events_of(closed)[0]
    assert created.data["commit_reveal_rule"] == commit_reveal.RULE_AT_ONCE == 2
    assert closed.state()["commit_reveal_rule"] == 2


def test_every_number_is_the_one_its_round_gives_and_verifies_at_once(closed: Legatus) -> None:
    """Outsider with the export: each recorded number is section 2's derivation of its round's randomness and its
    label, recomputable by anyone as soon as it is in the log; verify checks them all without any reveal."""
    events = events_of(closed)
    beacons = {str(e.data["round"]): str(e.data["randomness"]) for e in events if e.kind == "beacon.recorded"}
    _, numbers = _recorded(events)
    assert len(numbers) == 2
    for label, number in numbers.items():
        round_no = commit_reveal.mixing_round(label)
        assert round_no is not None
        assert number == derive.values(bytes.fromhex(beacons[round_no]), label, 1, 1, 90)[0]
    result, _ = closed.verify()
    assert_verified_but_for_the_test_chain(result)  # the tests' relay signs on their own chain, which verify refuses
    assert (result.awaiting_reveal, result.numbers_checked) == (0, 2)
    assert closed.state()["seed"] is None  # nothing was revealed


def test_a_number_forged_in_a_closed_turn_fails_verify_before_any_reveal(closed: Legatus, tmp_path: Path) -> None:
    """Operator with the database and the clock: they change a recorded number of turn 1, closed, and hash the
    chain anew. Before this rule the log verified ("awaiting the seed") until the GM chose to reveal; now it fails."""
    events = events_of(closed)
    index, numbers = _recorded(events)
    label = sorted(numbers)[0]
    numbers[label] = numbers[label] % 90 + 1
    events[index] = replace(events[index], data={**events[index].data, "numbers": numbers})
    forged = rechained(events)
    result = verify(load_ruleset("mare-nostrum", DATA_DIR), forged, public_draws())
    assert not result.ok and not result.verified
    assert any(label in f.detail and f"is recorded as {numbers[label]}, but drand round" in f.detail for f in result.findings), \
        [str(f) for f in result.findings]
    log = tmp_path / "forged.log"
    log.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in forged), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "bot.cli", "verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt")], capture_output=True, text=True)
    assert cli.returncode == 1, cli.stdout + cli.stderr
    assert "MISMATCH" in cli.stdout and label in cli.stdout


def test_the_game_refuses_a_number_its_round_does_not_give(closed: Legatus) -> None:
    """Operator with the database: a number recorded for a label must be its round's; a label no roll was bound to
    gets none (a forged event cannot slip numbers into the fold)."""
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    assert closed.post("gm", "/turn open 2023-01-05").ok
    assert closed.post("gm", "/roll 1d6 omen").ok
    closed.clock.advance(timedelta(seconds=30))
    assert closed.post("gm", "/ledger").ok
    events = events_of(closed)
    index, numbers = max(((i, dict(e.data["numbers"])) for i, e in enumerate(events) if e.kind == "random.recorded"),
                         key=lambda pair: pair[0])
    (label, number), = numbers.items()
    before = replay(ruleset, events[:index])
    wrong = Event(events[index].seq, "random.recorded", "legatus", {"numbers": {label: number % 90 + 1}},
                  at=events[index].at)
    with pytest.raises(Rejection, match=f"drand round {commit_reveal.mixing_round(label)} gives {number}"):
        step(ruleset, before, replace(wrong, hash=event_hash(before.head, wrong)))
    stray = replace(wrong, data={"numbers": {"turn-2:roll-99:siege@drand:1": 7}})
    with pytest.raises(Rejection, match="no roll of this campaign is bound to"):
        step(ruleset, before, replace(stray, hash=event_hash(before.head, stray)))


def test_the_seeds_commitment_still_refuses_a_wrong_reveal(closed: Legatus) -> None:
    """GM with Discord: /campaign reveal at the end stays, and a seed that is not the committed one is refused."""
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    folded = replay(ruleset, events_of(closed))
    wrong = Event(folded.last_seq + 1, "seed.revealed", "gm", {"seed": "00" * 32}, at=START.isoformat())
    with pytest.raises(Rejection, match="does not match the commitment"):
        step(ruleset, folded, replace(wrong, hash=event_hash(folded.head, wrong)))
    revealed = closed.post("gm", "/campaign reveal")
    assert revealed.ok and "Every number of this campaign came from its drand round" in revealed.render()
    result, _ = closed.verify()
    assert_verified_but_for_the_test_chain(result)
    assert result.awaiting_reveal == 0 and result.numbers_checked == 2


def test_dropping_the_rule_from_the_first_event_buys_no_verified_log(closed: Legatus) -> None:
    """Operator with the database: they rewrite campaign.created without commit_reveal_rule (the old rule takes any
    number until the reveal), forge a number and hash the chain anew. verify does not call it verified, names the
    old rule, and an anchor the bot posted before catches the rewrite."""
    events = events_of(closed)
    anchor = f"{events[-1].seq}:{events[-1].hash}"
    created = {k: v for k, v in events[0].data.items() if k != commit_reveal.RULE_FIELD}
    events[0] = replace(events[0], data=created)
    index, numbers = _recorded(events)
    label = sorted(numbers)[0]
    numbers[label] = numbers[label] % 90 + 1
    events[index] = replace(events[index], data={**events[index].data, "numbers": numbers})
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    result = verify(ruleset, rechained(events), public_draws())
    assert not result.verified and result.awaiting_words() == "2 numbers of turn 1 wait for their seed: not verified"
    assert any("names no commit_reveal_rule" in n for n in result.notes), result.notes
    anchored = verify(ruleset, rechained(events), public_draws(), expect_head=anchor)
    assert any(f.purpose == "anchor" and "the log was rewritten" in f.detail for f in anchored.findings)
