"""A commit-reveal campaign recorded as the bot made them before rule 2 (main at 3308372: numbers drawn from the seed
mixed with a drand round, checkable only once the seed is revealed): turn 1 on the draw of 2023-01-03 with a peace
treaty, a siege and a GM roll of 2d6 (4 numbers), then /campaign reveal. Its beacons are signed by the fake relay's
test chain, named in its campaign.created. It must replay to the very same state and head for ever, verify once
revealed, and before the reveal be reported plainly as not verified: its numbers wait for the seed."""
from __future__ import annotations

from typing import Any

import json
from pathlib import Path

from engine import canonical
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.engine.test_verify import public_draws

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
DATA = Path(__file__).resolve().parents[2] / "data"
NAME = "mare-nostrum-commit-reveal-v1"


def recorded() -> list[Event]:
    lines = (GOLDEN / f"{NAME}.log").read_text(encoding="utf-8").splitlines()
    return [Event.from_dict(json.loads(line)) for line in lines]


def test_the_old_log_names_no_rule_and_replays_to_the_same_state_and_head() -> None:
    events = recorded()
    assert "commit_reveal_rule" not in events[0].data and events[-1].kind == "seed.revealed"
    ruleset = load_ruleset("mare-nostrum", DATA)
    folded = replay(ruleset, events)
    assert f"{folded.last_seq}:{folded.head}" == (GOLDEN / f"{NAME}.head").read_text().strip()
    state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
    assert state == (GOLDEN / f"{NAME}.state.json").read_text(encoding="utf-8")


def beyond_its_chain(result: Any) -> list[str]:
    """The findings but those of its chain: the log was recorded on the tests' own drand chain, before campaigns were
    pinned to quicknet, so verify refuses its chain and its beacons' signatures (checked under quicknet's key)."""
    return [str(f) for f in result.findings if not (
        f.purpose == "drand chain" or (f.purpose.startswith("drand round ") and "quicknet's public key" in f.detail))]


def test_the_old_log_verifies_from_its_revealed_seed() -> None:
    result = verify(load_ruleset("mare-nostrum", DATA), recorded(), public_draws())
    assert beyond_its_chain(result) == [] and len(result.findings) == 4, [str(f) for f in result.findings]
    assert (result.awaiting_reveal, result.numbers_checked, result.awaiting_turns) == (0, 4, ())


def test_before_its_reveal_the_old_log_is_not_verified() -> None:
    """Outsider with the export: a campaign whose numbers still wait for the seed has no mismatch to show, and is
    still not verified: every one of its numbers could be forged until the reveal."""
    result = verify(load_ruleset("mare-nostrum", DATA), recorded()[:-1], public_draws())
    assert beyond_its_chain(result) == [], [str(f) for f in result.findings]  # no mismatch found but its chain...
    assert not result.verified  # ...and nothing to call verified either
    assert (result.awaiting_reveal, result.awaiting_turns) == (4, (1,))
    assert result.awaiting_words() == "4 numbers of turn 1 wait for their seed: not verified"
