"""Regenerate the golden Mare Nostrum: Empires log after a deliberate change of the rules.

    .venv/bin/python tests/data/golden/regenerate_mne.py

Plays the scripted 3-player game (tests/games/mare_nostrum_empires_players.py) on the fake drand relay, exports its
event log, replays it with the engine alone and writes what tests/engine/test_golden_mne_logs.py compares against:
the log, the chain head ("seq:hash") and the public state. Say in the commit why the rules changed: these files pin
them; a change that would fold an old campaign differently applies only to campaigns created after it.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
REPO = GOLDEN.parents[2]
sys.path[:0] = [str(REPO)]

from engine import canonical  # noqa: E402  (needs the path above)
from engine.events import Event  # noqa: E402
from engine.log import replay  # noqa: E402
from engine.rulesets import load_ruleset  # noqa: E402
from tests.games.mare_nostrum_empires_players import play_game, table  # noqa: E402

NAME = "mare-nostrum-empires-3-players"


def main() -> int:
    with tempfile.TemporaryDirectory() as folder, table(Path(folder) / "mne.db") as t:
        play_game(t)
        log = t.service.export()
    events = [Event.from_dict(json.loads(line)) for line in log.splitlines()]
    ruleset = load_ruleset("mare-nostrum-empires", REPO / "data")
    folded = replay(ruleset, events)
    state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
    (GOLDEN / f"{NAME}.log").write_text(log, encoding="utf-8")
    (GOLDEN / f"{NAME}.head").write_text(f"{folded.last_seq}:{folded.head}\n", encoding="utf-8")
    (GOLDEN / f"{NAME}.state.json").write_text(state, encoding="utf-8")
    print(f"{NAME}: {len(events)} events, round {folded.state.round}, head {folded.last_seq}:{folded.head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
