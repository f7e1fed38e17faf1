"""A whole campaign on the real lottery results: played, exported, replayed to the same bytes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.db import open_engine
from bot.service import Legatus
from campaign_play import play_full_campaign
from engine import canonical


def test_fifteen_turns_play_export_and_replay(tmp_path: Path) -> None:
    service, transcript = play_full_campaign(tmp_path / "full.db")
    state = service.state()
    assert state["turn"] >= 15
    assert transcript.refused() == [], "\n\n".join(p[2] for p in transcript.refused()[:3])
    assert state["phase"] in ("closed", "over")
    # Something happened in this campaign: battles fought, buildings up, rolls drawn.
    assert any(r["number"] is not None for r in state["rolls"])
    assert sum(p["suburbs"] for p in state["provinces"].values()) > 5
    assert len(state["history"]) == state["turn"]

    log = tmp_path / "full.log"
    log.write_text(service.export(), encoding="utf-8")
    expected = canonical.dumps(state, indent=2) + "\n"
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(log), "--json"],
        capture_output=True, text=True, check=True,
    )
    assert result.stdout == expected

    # A restarted bot reading the same database rebuilds the same state.
    fresh = Legatus(open_engine(tmp_path / "full.db"))
    assert canonical.dumps(fresh.state()) == canonical.dumps(state)
    # The log is self-contained: every draw it used is in it.
    kinds = [json.loads(line)["kind"] for line in log.read_text().splitlines()]
    assert kinds.count("draw.recorded") >= 15
