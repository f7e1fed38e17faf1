"""A whole campaign on the real lottery results: played, exported, replayed to the same bytes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.store.db import open_engine
from bot.service.legatus import Legatus
from engine import canonical


def test_fifteen_turns_play_export_and_replay(played_campaign: tuple[Path, Path]) -> None:
    db, log = played_campaign
    service = Legatus(open_engine(db))  # a restarted bot reading the same database
    state = service.state()
    assert state["turn"] >= 15
    assert state["phase"] in ("closed", "over")
    # Something happened in this campaign: battles fought, buildings up, rolls of every kind drawn.
    purposes = {r["purpose"] for r in state["rolls"] if r["number"] is not None}
    assert {"siege", "peace_treaty", "naval_attacker", "naval_defender"} <= purposes
    assert sum(p["suburbs"] for p in state["provinces"].values()) > 5
    assert len(state["history"]) == state["turn"]

    expected = canonical.dumps(state, indent=2) + "\n"
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(log), "--json"], capture_output=True, text=True, check=True
    )
    assert result.stdout == expected
    again = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(log), "--json"], capture_output=True, text=True, check=True
    )
    assert again.stdout == result.stdout
    # The log is self-contained: every draw it used is in it.
    kinds = [json.loads(line)["kind"] for line in log.read_text().splitlines()]
    assert kinds.count("draw.recorded") >= 15
