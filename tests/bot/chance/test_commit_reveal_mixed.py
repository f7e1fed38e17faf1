"""Hole: "commit-reveal is predictable: whoever holds the server key and the database computes the seed, and with it
every coming roll". Each commit-reveal roll is now also bound to a drand round still in the future, written into
its label; its values are drawn with HMAC(seed, the round's randomness), so the seed's holder learns them only when
everyone could, and cannot steer them (the seed was committed at creation, the round fixed at the binding)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlmodel import Session

from bot.schedule.clock import FixedClock
from bot.service import DATA_DIR, Legatus
from bot.store import campaign_secret
from bot.store.campaigns import find_campaign
from bot.store.db import open_engine
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

START = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def made_before_rule_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """These campaigns are made as the bot made them before commit_reveal_rule 2 (numbers from the seed mixed with
    their round, checkable once the seed is revealed): such campaigns go on so, and their logs must keep replaying
    and verifying. Rule 2 is tests/bot/chance/test_commit_reveal_closes.py's."""
    monkeypatch.setattr(legatus_service, "RULE_OF_NEW_CAMPAIGNS", commit_reveal.RULE_SEED)


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[Legatus]:
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
        service.beacons = beacon_source(relay, clock)
        service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
        assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal",
                                       clock="live").changed
        yield service


def the_operators_seed(service: Legatus) -> bytes:
    """What whoever holds the server key and the database can compute."""
    with Session(service.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None and row.id is not None
        seed = campaign_secret.seed_of(session, row.id)
    assert seed is not None
    return commit_reveal.key(seed)


def omen_labels(service: Legatus) -> list[str]:
    return [r["label"] for r in service.state()["rolls"] if r["purpose"] == "gm_roll"]


def test_the_seeds_holder_cannot_foresee_a_roll(campaign: Legatus) -> None:
    seed = the_operators_seed(campaign)
    rolled = campaign.post("gm", "/roll 6d6 omen")
    assert rolled.ok, rolled.render()
    labels = omen_labels(campaign)
    assert len(labels) == 6 and all(commit_reveal.mixing_round(label) for label in labels)
    # The attack of before: the seed alone gives a number for each label. It is not the roll's: the roll waits.
    foreseen = [commit_reveal.roll(seed, label, 1, 90) for label in labels]
    assert all(r["number"] is None for r in campaign.state()["rolls"] if r["purpose"] == "gm_roll")
    assert "pending" in campaign.post("gm", "/ledger").render()
    # Nor can the operator record numbers before the round exists: the game refuses them.
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    folded = replay(ruleset, events_of(campaign))
    early = Event(folded.last_seq + 1, "random.recorded", "legatus", {"numbers": dict(zip(labels, foreseen))},
                  at=START.isoformat())
    with pytest.raises(Rejection, match="whose beacon is not recorded yet"):
        step(ruleset, folded, replace(early, hash=event_hash(folded.head, early)))
    # The round comes; the numbers are those of the seed mixed with its randomness, not the foreseen ones.
    campaign.clock.advance(timedelta(seconds=30))
    assert campaign.post("gm", "/ledger").ok
    events = events_of(campaign)
    beacons = {str(e.data["round"]): str(e.data["randomness"]) for e in events if e.kind == "beacon.recorded"}
    numbers = {r["label"]: r["number"] for r in campaign.state()["rolls"] if r["purpose"] == "gm_roll"}
    assert numbers == {label: commit_reveal.label_values(seed, label, 1, 1, 90, beacons)[0] for label in labels}
    assert [numbers[label] for label in labels] != foreseen  # 6 numbers of 1..90 alike by chance: 90**-6


def test_verify_recomputes_mixed_numbers_and_catches_seed_only_ones(campaign: Legatus) -> None:
    seed = the_operators_seed(campaign)
    assert campaign.post("gm", "/roll 3d6 omen").ok
    campaign.clock.advance(timedelta(seconds=30))
    assert campaign.post("gm", "/ledger").ok
    assert campaign.post("gm", "/campaign reveal").ok
    result, _ = campaign.verify()
    assert_verified_but_for_the_test_chain(result)  # the tests' chain: verify never passes it
    assert result.numbers_checked == 3 and result.beacons_checked >= 1
    assert not any("seed alone" in n for n in result.notes)
    # A log whose numbers came from the seed alone (as a dishonest bot could make them in advance), re-hashed.
    events = events_of(campaign)
    index = next(i for i, e in enumerate(events) if e.kind == "random.recorded")
    forged_numbers = {label: commit_reveal.roll(seed, label, 1, 90) for label in events[index].data["numbers"]}
    events[index] = replace(events[index], data={**events[index].data, "numbers": forged_numbers})
    forged = verify(load_ruleset("mare-nostrum", DATA_DIR), rechained(events), {})
    assert any("the revealed seed gives" in f.detail for f in forged.findings), [str(f) for f in forged.findings]


def test_a_roll_bound_less_than_the_margin_before_its_round_is_caught(campaign: Legatus) -> None:
    assert campaign.post("gm", "/roll 1d6 omen").ok
    campaign.clock.advance(timedelta(seconds=30))
    assert campaign.post("gm", "/ledger").ok
    events = events_of(campaign)
    assert_verified_but_for_the_test_chain(verify(load_ruleset("mare-nostrum", DATA_DIR), events, {}))
    round_no = int(commit_reveal.mixing_round(omen_labels(campaign)[0]) or 0)
    chain = events[0].data["drand_chain"]
    public_at = datetime.fromtimestamp(int(chain["genesis"]) + (round_no - 1) * int(chain["period"]), timezone.utc)
    # Stamp the /roll as made after its round was public (a bot that looked first): not bound in advance.
    index = max(i for i, e in enumerate(events) if e.seq < next(x.seq for x in events if x.kind == "beacon.recorded"))
    events[index] = replace(events[index], at=(public_at + timedelta(seconds=5)).isoformat())
    result = verify(load_ruleset("mare-nostrum", DATA_DIR), rechained(events), {})
    assert any("not bound in advance" in f.detail for f in result.findings), [str(f) for f in result.findings]
