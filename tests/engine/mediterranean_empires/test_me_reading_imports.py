"""Reading a Mediterranean Empires campaign (its set-up folded, summary and picture, as `legatus map` does) imports
none of the modules that play orders: they are the ruleset's engine/later.py stand-ins until an order is played."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PLAYING = ["combat", "fastcopy", "gm_rulings", "hand", "interception", "operations", "orders", "parse", "play",
           "politics", "turn"]

READ = """
import json, sys
from pathlib import Path
from engine.rulesets import load_ruleset
game = load_ruleset("mediterranean-empires", Path(sys.argv[1]) / "data")
state = game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal",
                             "rules_version": game.rules_version})
picture = game.picture(state)
summary = game.summary(state)
print(json.dumps({"turn": summary.turn_label, "spaces": len(picture.spaces),
                  "modules": sorted(m.rsplit(".", 1)[1] for m in sys.modules
                                    if m.startswith("engine.mediterranean_empires."))}))
"""


def _read(script: str) -> dict:
    done = subprocess.run([sys.executable, "-c", script, str(REPO)], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_campaign_read_imports_no_module_that_plays_orders() -> None:
    read = _read(READ)
    assert read["turn"] == "Game turn 1 (1281–1290)"
    assert read["spaces"] > 0
    assert [m for m in PLAYING if m in read["modules"]] == []


def test_an_order_played_imports_them_where_first_used() -> None:
    played = _read(READ.replace("picture = game.picture(state)", "from engine.events import Event\n"
                                "state = game.apply(state, Event(2, 'order', 'ann', {'seat': 'Player A', "
                                "'text': 'standard set-up'})).state\npicture = game.picture(state)"))
    assert [m for m in ("orders", "parse", "turn") if m not in played["modules"]] == []
