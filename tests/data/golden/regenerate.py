"""Regenerate the golden Mare Nostrum log after a deliberate change of the rules or the map.

    .venv/bin/python tests/data/golden/regenerate.py

Plays the scripted 15-turn campaign (tests/bot/campaign_play.py) on the recorded draws in tests/data/lotto,
refuses to write anything if a scripted order was refused, exports its event log, replays it with the engine
alone and writes the three files tests/engine/test_golden_log.py compares against: the log, the chain head
("seq:hash") and the public state. Say in the commit why the rules changed: these files pin them.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
REPO = GOLDEN.parents[2]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "bot")]

from campaign_play import play_full_campaign  # noqa: E402  (needs the paths above)
from engine import canonical  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.log import replay  # noqa: E402
from engine.rulesets import load_ruleset  # noqa: E402

NAME = "mare-nostrum-15-turns"


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        service, transcript = play_full_campaign(Path(folder) / "campaign.db")
        refused = transcript.refused()
        if refused:
            print("The scripted campaign had refused orders; fix tests/bot/campaign_play.py first:", file=sys.stderr)
            for author, text, answer in refused[:3]:
                print(f"--- {author}: {text}\n{answer}", file=sys.stderr)
            return 1
        log = service.export()
    events = [Event.from_dict(json.loads(line)) for line in log.splitlines()]
    ruleset = load_ruleset("mare-nostrum", REPO / "data")
    folded = replay(ruleset, events)
    state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
    (GOLDEN / f"{NAME}.log").write_text(log, encoding="utf-8")
    (GOLDEN / f"{NAME}.head").write_text(f"{folded.last_seq}:{folded.head}\n", encoding="utf-8")
    (GOLDEN / f"{NAME}.state.json").write_text(state, encoding="utf-8")
    print(f"{len(events)} events, turn {folded.state.turn}, head {folded.last_seq}:{folded.head}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
