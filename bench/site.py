"""Benchmark of the campaign site (bot/site/): writing it, and its first view in a real browser.

    .venv/bin/python bench/site.py [--runs 5]

Prints figures; asserts nothing. On the golden Mare Nostrum campaign (tests/data/golden, 396 events, 15 turns),
each the median of ``--runs``:

- ``write_site``: the whole static site (16 maps, 2 charts, the page, the log) from the export;
- the first view in Debian's chromium (headless, through Playwright): from navigation to the page's ``load``
  event (text, styles, scripts and the one map shown; the other turns' maps load when picked), and to the end of
  the verification in the browser (the chain re-hashed, 71 rolls derived again). The target for the first view
  is 1 s on this machine (issue 28);
- the same verification on a Mediterranean Empires game with its 2 quicknet beacons, where the BLS checks are the
  cost (the first pairing also builds @noble/curves' tables).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.site.build import write_site  # noqa: E402
from bot.site.links import folder_of  # noqa: E402
from tests.bot.site.browser import CHROMIUM, launch  # noqa: E402
from tests.bot.site.site_games import NAME as ME_NAME, mediterranean_empires_on_quicknet  # noqa: E402

GOLDEN = REPO / "tests" / "data" / "golden" / "mare-nostrum-15-turns.log"


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms (min {min(values) * 1000:.1f}, max {max(values) * 1000:.1f})"


def _view(browser: object, url: str) -> tuple[float, float]:
    page = browser.new_page()  # type: ignore[attr-defined]
    start = time.perf_counter()
    page.goto(url, wait_until="load")
    loaded = time.perf_counter() - start
    page.wait_for_selector("body[data-verified]", timeout=60_000)
    verified = time.perf_counter() - start
    page.close()
    return loaded, verified


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    log = GOLDEN.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        writes = []
        for _ in range(args.runs):
            start = time.perf_counter()
            write_site(root / "site", [("Mare Nostrum golden", log)], REPO / "data")
            writes.append(time.perf_counter() - start)
        print(f"write_site, golden campaign (396 events):        {_ms(writes)}")
        service = mediterranean_empires_on_quicknet(root / "me.db")
        write_site(root / "site", [("Mare Nostrum golden", log), (ME_NAME, service.export(ME_NAME))], REPO / "data")
        if not CHROMIUM.exists():
            print(f"no {CHROMIUM}: the browser figures need Debian's chromium (apt-get install chromium)")
            return 0
        golden = (root / "site" / folder_of("Mare Nostrum golden") / "index.html").as_uri()
        me = (root / "site" / folder_of(ME_NAME) / "index.html").as_uri()
        for browser in launch():
            _view(browser, golden)  # untimed: the browser's own start-up and caches
            views = [_view(browser, golden) for _ in range(args.runs)]
            print(f"first view (load event), golden page:           {_ms([v[0] for v in views])}  target 1000 ms")
            print(f"verified in the browser, golden page:           {_ms([v[1] for v in views])}")
            beacons = [_view(browser, me) for _ in range(args.runs)]
            print(f"verified in the browser, 2 beacons (ME game):   {_ms([v[1] for v in beacons])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
