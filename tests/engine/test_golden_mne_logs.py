"""The scripted 3-player Mare Nostrum: Empires game, recorded, must replay to the very same state and hash-chain
head after any refactoring of the game. The files are exported by tests/data/golden/regenerate_mne.py; only a
deliberate change of the rules may change them (regenerate them then, and say why in the commit)."""
from __future__ import annotations

import json
from pathlib import Path

from engine import canonical
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
DATA = Path(__file__).resolve().parents[2] / "data"
NAME = "mare-nostrum-empires-3-players"


def test_the_recorded_game_replays_to_the_same_state_and_head() -> None:
    lines = (GOLDEN / f"{NAME}.log").read_text(encoding="utf-8").splitlines()
    events = [Event.from_dict(json.loads(line)) for line in lines]
    ruleset = load_ruleset("mare-nostrum-empires", DATA)
    folded = replay(ruleset, events)
    assert f"{folded.last_seq}:{folded.head}" == (GOLDEN / f"{NAME}.head").read_text().strip()
    assert folded.state.phase == "over" and folded.state.winners == [("Romans", "hold the three titles")]
    state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
    assert state == (GOLDEN / f"{NAME}.state.json").read_text(encoding="utf-8")
