"""Benchmark: draw the 1600 px map and the history charts of a 15-turn campaign. Prints figures; asserts nothing.

    .venv/bin/python bench/render_map.py [--state STATE.json] [--runs 15] [--width 1600]

Without --state it plays the scripted campaign of tests/bot/campaign_play.py into a temporary database,
saves its public state, and measures in a fresh process, so that the memory figures are the drawing's own
and not the campaign's. Time is the median of several runs after one warm-up (the bot keeps its fonts and
tile cache between turns); memory is tracemalloc's peak for one render and the growth of the process's
peak resident set (getrusage) over the first, cold render.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def max_rss_kib() -> int:
    # Linux reports kibibytes, macOS bytes.
    value = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return value // 1024 if sys.platform == "darwin" else value


def timed(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return wall, cpu


def report(label: str, wall: list[float], cpu: list[float]) -> None:
    print(f"{label}: median {statistics.median(wall) * 1000:.1f} ms wall, {statistics.median(cpu) * 1000:.1f} ms CPU "
          f"(min {min(wall) * 1000:.1f}, max {max(wall) * 1000:.1f} ms wall; {len(wall)} runs)")


def peak_traced(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    fn()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def measure(state_path: Path, runs: int, width: int) -> None:
    from bot.render.charts import render_chart
    from bot.render.map_png import render_png
    from bot.render.map_svg import render_svg
    from bot.service.legatus import DATA_DIR
    from engine.mare_nostrum.picture import picture_of_view
    from engine.rulesets import load_ruleset

    view = json.loads(state_path.read_text(encoding="utf-8"))
    rules = load_ruleset(view["ruleset"], DATA_DIR).rules  # type: ignore[attr-defined]
    # A stored public state: its picture is built once, as the bot builds it once per turn from the state.
    start = time.perf_counter()
    picture = picture_of_view(rules, view)
    print(f"Picture of the state: {(time.perf_counter() - start) * 1000:.1f} ms")
    print(f"Campaign state: turn {view['turn']} ({view['year']}), {len(view['history'])} closed turns, "
          f"{sum(len(f) for f in view['fleets'].values())} fleet stacks")

    def png() -> bytes:
        return render_png(picture, width)

    rss_before = max_rss_kib()
    start = time.perf_counter()
    data = png()
    cold = time.perf_counter() - start
    rss_after = max_rss_kib()
    print(f"PNG {width} px: {len(data) / 1024:.0f} KiB; first (cold) render {cold * 1000:.1f} ms")
    report(f"PNG {width} px", *timed(png, runs))
    # tracemalloc sees Python's own allocations only; Pillow's image buffers show in the resident set.
    print(f"PNG {width} px memory: tracemalloc peak {peak_traced(png):.1f} MiB (Python objects); max RSS grew by "
          f"{(rss_after - rss_before) / 1024:.1f} MiB over the first render (from {rss_before / 1024:.1f} MiB; "
          "mostly the twice-size canvas)")

    def svg() -> str:
        return render_svg(picture, width)

    print(f"SVG {width} px: {len(svg().encode()) / 1024:.0f} KiB")
    report(f"SVG {width} px", *timed(svg, runs))

    for kind in ("provinces", "stability"):
        def chart(kind: str = kind) -> bytes:
            return render_chart(picture, kind, 1200)

        chart()
        report(f"chart {kind} 1200 px", *timed(chart, runs))
        print(f"chart {kind} memory: tracemalloc peak {peak_traced(chart):.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", type=Path, default=None, help="a public state JSON (legatus state --json)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--width", type=int, default=1600)
    args = parser.parse_args()
    if args.state is not None:
        measure(args.state, args.runs, args.width)
        return 0
    from engine import canonical
    from tests.bot.campaign_play import play_full_campaign

    with tempfile.TemporaryDirectory() as tmp:
        service, _ = play_full_campaign(Path(tmp) / "bench.db")
        state = Path(tmp) / "state.json"
        state.write_text(canonical.dumps(service.state()), encoding="utf-8")
        service.engine.dispose()
        command = [sys.executable, __file__, "--state", str(state), "--runs", str(args.runs), "--width", str(args.width)]
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
