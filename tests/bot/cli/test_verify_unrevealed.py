"""``legatus verify`` of a campaign whose commit-reveal numbers still wait for their seed (a campaign made as before
rule 2, on quicknet with a real recorded beacon, its log cut before its /campaign reveal) says so plainly and exits 4,
never 0 as "verified"; the in-bot /verify says the same; the revealed log exits 0."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.cli.main import EXIT_UNREVEALED, main
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service import legatus as legatus_service
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine import commit_reveal
from engine.chance import drand
from bot.service.verify_text import verification_text
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import recorded_quicknet_relay, serving
from tests.conftest import LOTTO, PLAYERS
from tests.engine.test_verify import public_draws

DATA = Path(__file__).resolve().parents[3] / "data"
DRAWS = LOTTO / "draws-2023-01.txt"
# Round 657413 (a real recorded quicknet beacon) is the first one 10 s after this moment (docs/randomness.md 2).
QUICKNET_START = datetime.fromtimestamp(1694775590, timezone.utc)


@pytest.fixture
def old_rule_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A commit-reveal campaign made as the bot made them before rule 2 (numbers from the seed mixed with their round),
    on quicknet with a real recorded beacon: its log cut before /campaign reveal, and the whole log after it."""
    monkeypatch.setattr(legatus_service, "RULE_OF_NEW_CAMPAIGNS", commit_reveal.RULE_SEED)
    clock = FixedClock(QUICKNET_START)
    with serving(recorded_quicknet_relay()) as relay:
        service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(drand.QUICKNET, [relay.url], timeout=2, attempts=1),
                                       clock=lambda: clock.now().timestamp())
        service.import_draws(DRAWS.read_text(encoding="utf-8"), DRAWS.name)
        assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), randomness="commit-reveal").changed
        assert service.post("gm", "/turn open 2023-01-03").ok
        assert service.post("gm", "/roll 2d6 omen").ok
        clock.advance(timedelta(seconds=30))
        assert service.post("gm", "/ledger").ok  # the round has come: its beacon and the numbers are recorded
        unrevealed, revealed = tmp_path / "unrevealed.log", tmp_path / "revealed.log"
        unrevealed.write_text(service.export(), encoding="utf-8")
        assert service.post("gm", "/campaign reveal").ok
        revealed.write_text(service.export(), encoding="utf-8")
    assert '"beacon.recorded"' in unrevealed.read_text(encoding="utf-8")
    return unrevealed, revealed


def test_a_campaign_whose_numbers_wait_for_their_seed_is_not_verified(old_rule_logs: tuple[Path, Path],
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Outsider with the export: the operator could have forged any of these numbers; verify must not bless them."""
    assert main(["verify", str(old_rule_logs[0]), "--draws", str(DRAWS)]) == EXIT_UNREVEALED == 4
    out = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("verified") for line in out), out
    verdict = out[-1]
    assert verdict.startswith("NOT verified: 2 numbers of turn 1 wait for their seed: not verified "
                              "(the GM reveals it with /campaign reveal); "), verdict


def test_the_revealed_campaign_verifies(old_rule_logs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(old_rule_logs[1]), "--draws", str(DRAWS)]) == 0
    out = capsys.readouterr().out
    assert "2 commit-reveal numbers recomputed from the revealed seed" in out and out.splitlines()[-1].startswith("verified: ")


def test_the_in_bot_verify_says_the_same(old_rule_logs: tuple[Path, Path]) -> None:
    """GM or player with Discord: /verify's reply is not a tick while numbers wait for the seed."""
    events = [Event.from_dict(json.loads(line)) for line in old_rule_logs[0].read_text(encoding="utf-8").splitlines()]
    text = verification_text(verify(load_ruleset("mare-nostrum", DATA), events, public_draws()))
    assert text.splitlines()[0].startswith("✗ Not verified: 2 numbers of turn 1 wait for their seed: not verified "
                                           "(the GM reveals it with /campaign reveal)"), text
    assert "✓" not in text
