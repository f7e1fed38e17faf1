"""Rebuild the rendering tests' reference states and images (tests/bot/render/reference/). On purpose only.

    .venv/bin/python bench/regenerate_reference_images.py            # replay the campaign, then draw
    .venv/bin/python bench/regenerate_reference_images.py --images   # keep the stored states, only draw

The states are the public state of the scripted campaign of tests/bot/campaign_play.py (real 2023 and 2026
draws, a fixed clock) after turn 2 and after turn 15, without the roll ledger the drawing never reads; and
Mediterranean Empires' pictures of its set-up and of the end of its scripted game (tests/bot/render/area_pictures.py).
Regenerate them when the rules change what that campaign does; regenerate the images alone when the
drawing changes on purpose. Look at every image before committing it.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "bot" / "render"))

from bot.render.history import state_at_turn  # noqa: E402
from engine import canonical  # noqa: E402
from tests.bot.campaign_play import play_full_campaign  # noqa: E402
from tests.bot.render.area_pictures import write_pictures  # noqa: E402
from test_reference_images import REFERENCE, regenerate  # type: ignore[import-not-found]  # noqa: E402


def write_states() -> list[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        service, transcript = play_full_campaign(Path(tmp) / "reference.db")
        if transcript.refused():
            raise SystemExit("the scripted campaign had orders refused: fix the campaign before the images")
        written = []
        for turn in (2, 15):
            view = state_at_turn(service, None, turn)
            view.pop("rolls", None)
            path = REFERENCE / f"state-turn{turn}.json"
            path.write_text(canonical.dumps(view, indent=2) + "\n", encoding="utf-8")
            written.append(path)
        service.engine.dispose()
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", action="store_true", help="keep the stored states; only draw the images")
    args = parser.parse_args()
    REFERENCE.mkdir(parents=True, exist_ok=True)
    written = [] if args.images else write_states() + write_pictures()
    written += regenerate()
    for path in written:
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
