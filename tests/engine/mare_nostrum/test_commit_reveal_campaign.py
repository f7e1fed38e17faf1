"""A campaign whose rolls beyond the order of play and events come from a commit-reveal seed, not the lottery, each
mixed with a drand round bound with the roll (served here by a fake relay on 127.0.0.1 signing with a test chain)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlmodel import Session

from bot.store import campaign_secret
from bot.store.campaign_secret import CampaignSecretRow
from bot.cli import main as cli_main, read_log
from bot.service import DATA_DIR, Legatus
from bot.schedule.clock import FixedClock
from bot.store.campaigns import find_campaign
from bot.service import legatus as legatus_service
from engine import commit_reveal
from engine.events import Event, Rejection
from engine.ledger import event_hash
from engine.log import replay, step
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import FakeRelay, assert_verified_but_for_the_test_chain, beacon_source, serving
from tests.conftest import LOTTO, PLAYERS
from tests.log_tools import events_of, rechained
from tests.fresh_db import migrated_engine


@pytest.fixture(autouse=True)
def made_before_rule_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """These campaigns are made as the bot made them before commit_reveal_rule 2 (numbers from the seed mixed with
    their round, checkable once the seed is revealed): such campaigns go on so, and their logs must keep replaying
    and verifying. Rule 2 is tests/bot/chance/test_commit_reveal_closes.py's."""
    monkeypatch.setattr(legatus_service, "RULE_OF_NEW_CAMPAIGNS", commit_reveal.RULE_SEED)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Legatus]:
    clock = FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc))
    with serving(FakeRelay()) as relay:
        service = Legatus(migrated_engine(tmp_path / "campaign.db"), clock=clock)
        service.beacons = beacon_source(relay, clock)
        yield service


def later(service: Legatus, seconds: int = 30) -> None:
    """Let the bound drand rounds be produced; the next post records their beacons, then the seed's numbers."""
    service.clock.advance(timedelta(seconds=seconds))


def seed_of(service: Legatus) -> str:
    with Session(service.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None
        assert row.id is not None
        seed = campaign_secret.seed_of(session, row.id)
        assert seed is not None
        return seed


@pytest.fixture
def played(service: Legatus) -> Legatus:
    """Turn 1 on the real draw of 2023-01-03: the Ptolemaics offer the Romans a peace treaty, the Macedonians
    take a fortified Epirus and besiege it."""
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    created = service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal")
    assert created.changed, created.render()
    assert service.post("gm", "/turn open 2023-01-03").ok
    assert service.post("gm", "/gm set fortification Epirus yes").ok
    assert service.post("antiochus", "pass").ok
    treaty = service.post("ptolemy", "peace treaty with Romans\npass")
    assert treaty.ok, treaty.render()
    assert "bound to the commit-reveal seed (commitment " in treaty.render()
    assert "label 'turn-1:roll-2:peace_treaty@drand:" in treaty.render()
    assert ", mixed with drand quicknet round " in treaty.render()
    later(service)
    assert service.post("philip", "attack Epirus from Thessalia\npass").ok
    for user in ("scipio", "hanno", "brennus"):
        assert service.post(user, "pass").ok
    siege = service.post("gm", "/battle Epirus winner Macedonians")
    assert siege.ok, siege.render()
    assert "bound to the commit-reveal seed" in siege.render()
    later(service)
    assert service.post("gm", "/ledger").ok
    return service


def test_the_commitment_is_public_from_the_first_event(played: Legatus) -> None:
    created = events_of(played)[0]
    assert created.data["randomness"] == "commit-reveal"
    assert created.data["commitment"] == commit_reveal.commitment(commit_reveal.key(seed_of(played)))
    view = played.state()
    assert (view["randomness"], view["commitment"], view["seed"]) == ("commit-reveal", created.data["commitment"], None)


def test_rolls_are_bound_to_labels_and_drawn_from_the_seed_mixed_with_their_round(played: Legatus) -> None:
    seed = commit_reveal.key(seed_of(played))
    rolls = {r["purpose"]: r for r in played.state()["rolls"]}
    assert {"peace_treaty", "siege"} <= set(rolls)
    beacons = {str(e.data["round"]): e.data["randomness"] for e in events_of(played) if e.kind == "beacon.recorded"}
    for roll in rolls.values():
        assert (roll["draw"], roll["wheel"], roll["position"]) == ("commit-reveal", "", 0)
        round_no = commit_reveal.mixing_round(roll["label"])
        assert round_no in beacons
        mixed = commit_reveal.mixed_key(seed, beacons[round_no])
        assert roll["number"] == commit_reveal.roll(mixed, roll["label"], 1, 90)
        assert roll["outcome"] != "pending"
    assert rolls["siege"]["label"].startswith("turn-1:") and ":siege@drand:" in rolls["siege"]["label"]
    recorded = [e for e in events_of(played) if e.kind == "random.recorded"]
    assert {label for e in recorded for label in e.data["numbers"]} == {r["label"] for r in rolls.values()}
    # No lottery draw beyond the turn's own was needed.
    assert [e.data["date"] for e in events_of(played) if e.kind == "draw.recorded"] == ["2023-01-03"]


def test_export_and_replay_give_the_same_state(played: Legatus, tmp_path: Path) -> None:
    log = tmp_path / "c.log"
    log.write_text(played.export(), encoding="utf-8")
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    assert ruleset.public_view(replay(ruleset, read_log(log)).state) == played.state()
    assert Legatus(played.engine).state() == played.state()


def test_before_the_reveal_verify_counts_the_rolls_it_cannot_check(played: Legatus) -> None:
    result, _ = played.verify()
    assert_verified_but_for_the_test_chain(result)  # the tests' chain: verify never passes it
    assert result.awaiting_reveal == 2 and result.numbers_checked == 0


def test_reveal_then_verify_clean(played: Legatus, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused = played.post("philip", "/campaign reveal")
    assert "is for the GM (gm) only" in refused.render()
    reply = played.post("gm", "/campaign reveal")
    assert reply.ok, reply.render()
    seed = seed_of(played)
    assert played.state()["seed"] == seed
    with Session(played.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None and session.get(CampaignSecretRow, row.id).revealed_at is not None  # type: ignore[union-attr]
    result, _ = played.verify()
    assert_verified_but_for_the_test_chain(result)  # the tests' chain: verify never passes it
    assert (result.awaiting_reveal, result.numbers_checked) == (0, 2)
    log = tmp_path / "c.log"
    log.write_text(played.export(), encoding="utf-8")
    assert cli_main(["verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt")]) == 1
    said = capsys.readouterr().out
    assert "2 commit-reveal numbers recomputed from the revealed seed" in said
    assert [line for line in said.splitlines() if line.startswith("MISMATCH")] == [
        line for line in said.splitlines() if line.startswith("MISMATCH") and "test chain: not verifiable" in line
    ] != [], said
    again = played.post("gm", "/campaign reveal")
    assert "the seed is already revealed" in again.render()


def test_a_tampered_number_is_caught_after_the_reveal(played: Legatus, tmp_path: Path) -> None:
    assert played.post("gm", "/campaign reveal").ok
    events = events_of(played)
    index = next(i for i, e in enumerate(events) if e.kind == "random.recorded" and any(":siege@" in k for k in e.data["numbers"]))
    numbers = dict(events[index].data["numbers"])
    label = next(k for k in numbers if ":siege@" in k)
    numbers[label] = numbers[label] % 90 + 1
    events[index] = replace(events[index], data={**events[index].data, "numbers": numbers})
    forged = rechained(events)
    result = verify(load_ruleset("mare-nostrum", DATA_DIR), forged, {})
    assert not result.ok
    finding = next(f for f in result.findings if label in f.detail)
    assert finding.turn == 1 and finding.purpose.startswith("siege of the Macedonians")
    assert f"the log has {numbers[label]}, the revealed seed gives" in finding.detail
    log = tmp_path / "forged.log"
    log.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in forged), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "bot.cli", "verify", str(log), "--draws", str(LOTTO / "draws-2023-01.txt")],
                         capture_output=True, text=True)
    assert cli.returncode == 1 and "MISMATCH" in cli.stdout and label in cli.stdout


def test_a_wrong_seed_is_refused(played: Legatus) -> None:
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    events = events_of(played)
    folded = replay(ruleset, events)
    wrong = Event(seq=folded.last_seq + 1, kind="seed.revealed", actor="gm", data={"seed": "00" * 32}, at="2026-11-22T12:00:00+00:00")
    with pytest.raises(Rejection, match="does not match the commitment"):
        step(ruleset, folded, replace(wrong, hash=event_hash(folded.head, wrong)))
    right = replace(wrong, data={"seed": seed_of(played)})
    folded, _ = step(ruleset, folded, replace(right, hash=event_hash(folded.head, right)))
    assert folded.state.seed == seed_of(played)


def test_no_roll_after_the_reveal(played: Legatus) -> None:
    assert played.post("gm", "/campaign reveal").ok
    before = len(played.state()["rolls"])
    refused = played.post("gm", "/roll 2d6 omen")
    assert not refused.ok
    assert "the commit-reveal seed has been revealed and is public now" in refused.render()
    assert len(played.state()["rolls"]) == before


def test_an_undone_roll_never_gives_its_label_again(played: Legatus) -> None:
    first = played.post("gm", "/roll 1d6 omen")
    label = played.state()["rolls"][-1]["label"]
    later(played)
    assert played.post("gm", "/ledger").ok
    assert not played.post("gm", "/gm undo").ok, "its number is recorded: undo would be a mulligan"
    assert played.post("gm", "/gm void typo").ok
    assert played.post("gm", "/roll 1d6 omen").ok, first.render()
    again = played.state()["rolls"][-1]["label"]
    base = label.partition("@drand:")[0]
    # The roll bound after the void is another roll: a fresh id, so a label of its own (engine/takeback.py).
    assert again != label and again.partition("@drand:")[0] != base
    assert played.state()["rolls"][-1]["id"] > max(r["id"] for r in played.state()["rolls"][:-1])
    assert Legatus(played.engine).state() == played.state()


def test_lottery_campaigns_record_their_choice_and_have_no_seed(service: Legatus) -> None:
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert events_of(service)[0].data["randomness"] == "lottery"
    assert "commitment" not in service.state()
    assert "has no seed to reveal" in service.post("gm", "/campaign reveal").render()
    assert "unknown randomness" in service.create_campaign("d", "mare-nostrum", "gm", {}, randomness="dice").render()


def test_legatus_new_takes_the_randomness(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "cli.db"
    assert cli_main(["new", "--db", str(db), "--name", "c", "--randomness", "commit-reveal"]) == 0
    assert "commitment (SHA-256)" in capsys.readouterr().out
