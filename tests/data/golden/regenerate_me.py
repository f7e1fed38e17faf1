"""Regenerate the golden Mediterranean Empires logs after a deliberate change of the rules.

    .venv/bin/python tests/data/golden/regenerate_me.py

Plays the two scripted games (tests/games/mediterranean_empires_players.py: the standard seven game turns, and the
Vespers scenario with every optional rule) on the fake drand relay, refuses to write anything if a scripted line was
refused, exports each event log, replays it with the engine alone and writes what tests/engine/test_golden_log.py
compares against: the log, the chain head ("seq:hash") and the public state. Say in the commit why the rules
changed: these files pin them.

The committed files were recorded before ``rules_version`` existed: they are version-1 campaigns, the old logs every
later reading of the rules must still replay. Regenerating writes games of the newest reading; keep the old ones
under their names and add the new ones beside them rather than overwrite them.
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
from tests.games.mediterranean_empires_players import play_game, table  # noqa: E402

GAMES: dict[str, list[str] | None] = {
    "mediterranean-empires-7-turns": None,
    "mediterranean-empires-vespers": ["vespers", "mercenaries", "poison", "concessions"],
}


def main() -> int:
    for name, options in GAMES.items():
        with tempfile.TemporaryDirectory() as folder, table(Path(folder) / "me.db", options) as t:
            play_game(t)
            if t.refused():
                print(f"{name}: the scripted game had refused lines; fix the players first:", file=sys.stderr)
                for who, text, answer in t.refused()[:3]:
                    print(f"--- {who}: {text}\n{answer}", file=sys.stderr)
                return 1
            log = t.service.export()
        events = [Event.from_dict(json.loads(line)) for line in log.splitlines()]
        ruleset = load_ruleset("mediterranean-empires", REPO / "data")
        folded = replay(ruleset, events)
        state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
        (GOLDEN / f"{name}.log").write_text(log, encoding="utf-8")
        (GOLDEN / f"{name}.head").write_text(f"{folded.last_seq}:{folded.head}\n", encoding="utf-8")
        (GOLDEN / f"{name}.state.json").write_text(state, encoding="utf-8")
        print(f"{name}: {len(events)} events, turn {folded.state.turn}, head {folded.last_seq}:{folded.head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
