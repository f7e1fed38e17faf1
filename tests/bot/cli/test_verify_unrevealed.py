"""``legatus verify`` of a campaign whose commit-reveal numbers still wait for their seed (a log made before rule 2,
tests/data/golden/mare-nostrum-commit-reveal-v1.log, cut before its /campaign reveal) says so plainly and exits 4,
never 0 as "verified"; the in-bot /verify says the same; the revealed log exits 0."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.main import EXIT_UNREVEALED, main
from bot.service.verify_text import verification_text
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import LOTTO
from tests.engine.test_verify import public_draws

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "mare-nostrum-commit-reveal-v1.log"
DATA = Path(__file__).resolve().parents[3] / "data"
DRAWS = LOTTO / "draws-2023-01.txt"


def _unrevealed(tmp_path: Path) -> Path:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["kind"] == "seed.revealed"
    log = tmp_path / "unrevealed.log"
    log.write_text("".join(lines[:-1]), encoding="utf-8")
    return log


def test_a_campaign_whose_numbers_wait_for_their_seed_is_not_verified(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Outsider with the export: the operator could have forged any of these numbers; verify must not bless them."""
    assert main(["verify", str(_unrevealed(tmp_path)), "--draws", str(DRAWS)]) == EXIT_UNREVEALED == 4
    out = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("verified") for line in out), out
    verdict = out[-1]
    assert verdict.startswith("NOT verified: 4 numbers of turn 1 wait for their seed: not verified "
                              "(the GM reveals it with /campaign reveal); "), verdict


def test_the_revealed_campaign_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(GOLDEN), "--draws", str(DRAWS)]) == 0
    out = capsys.readouterr().out
    assert "4 commit-reveal numbers recomputed from the revealed seed" in out and out.splitlines()[-1].startswith("verified: ")


def test_the_in_bot_verify_says_the_same(tmp_path: Path) -> None:
    """GM or player with Discord: /verify's reply is not a tick while numbers wait for the seed."""
    events = [Event.from_dict(json.loads(line)) for line in _unrevealed(tmp_path).read_text(encoding="utf-8").splitlines()]
    text = verification_text(verify(load_ruleset("mare-nostrum", DATA), events, public_draws()))
    assert text.splitlines()[0].startswith("✗ Not verified: 4 numbers of turn 1 wait for their seed: not verified "
                                           "(the GM reveals it with /campaign reveal)"), text
    assert "✓" not in text
