"""Benchmark: draw the 1600 px map and the history charts of a 15-turn campaign. Prints figures; asserts nothing.

    .venv/bin/python bench/render_map.py [--state STATE.json] [--runs 15] [--width 1600] [--peer-python PY]

Whole process against a peer: ``legatus map`` on the campaign's database, and the python ``diplomacy`` package
drawing its ``ancmed`` map through cairosvg at the same width, each as a fresh process (median wall time of
``--process-runs``, peak RSS from wait4), in the same run. The peer runs under ``--peer-python`` (or
$LEGATUS_PEER_PYTHON, or this interpreter) if that interpreter can import ``diplomacy`` and ``cairosvg``; it is not
a dependency of Legatus: ``python3 -m venv /tmp/peer && /tmp/peer/bin/pip install diplomacy cairosvg``.

Without --state it plays the scripted campaign of tests/bot/campaign_play.py into a temporary database,
saves its public state, and measures in a fresh process, so that the memory figures are the drawing's own
and not the campaign's. Time is the median of several runs after one warm-up (the bot keeps its fonts and
tile cache between turns); memory is tracemalloc's peak for one render and the growth of the process's
peak resident set (getrusage) over the first, cold render.
"""
from __future__ import annotations

import argparse
import json
import os
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


PEER_SCRIPT = """
import sys
from diplomacy import Game
from diplomacy.engine.renderer import Renderer
import cairosvg
svg = Renderer(Game(map_name="ancmed")).render(incl_orders=True, incl_abbrev=False)
cairosvg.svg2png(bytestring=svg.encode(), write_to=sys.argv[1], output_width=int(sys.argv[2]))
"""


def run_process(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one whole process (wait4's rusage is the child's own)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command[:3]} failed: {process.stderr.read().decode()[-400:] if process.stderr else ''}")
    return wall, usage.ru_maxrss / 1024


def compare_with_peer(db: Path, out_dir: Path, width: int, runs: int, peer_python: str) -> None:
    ours_cmd = [str(Path(sys.executable).with_name("legatus")), "map", "--db", str(db), "--out",
                str(out_dir / "ours.png"), "--width", str(width)]
    if not Path(ours_cmd[0]).exists():
        ours_cmd = [sys.executable, "-m", "bot.cli", *ours_cmd[1:]]
    probe = subprocess.run([peer_python, "-c", "import diplomacy, cairosvg"], capture_output=True, text=True)
    peer_cmd = [peer_python, "-c", PEER_SCRIPT, str(out_dir / "peer.png"), str(width)]
    ours: list[tuple[float, float]] = []
    peer: list[tuple[float, float]] = []
    # Byte-compiled once, as an installed bot (and the peer's installed package) is: PYTHONDONTWRITEBYTECODE would
    # otherwise make every run of ours compile its modules again.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "bot"), str(REPO / "engine")],
                   check=False, stdout=subprocess.DEVNULL)
    run_process(ours_cmd)  # warm the file cache for both, as a bot host's would be
    if probe.returncode == 0:
        run_process(peer_cmd)
    for _ in range(runs):  # interleaved, so both see the same machine
        ours.append(run_process(ours_cmd))
        if probe.returncode == 0:
            peer.append(run_process(peer_cmd))
    ours_wall, ours_rss = statistics.median(w for w, _ in ours), max(r for _, r in ours)
    print(f"whole process, legatus map {width} px: median {ours_wall * 1000:.0f} ms wall, peak RSS {ours_rss:.0f} MiB "
          f"({runs} runs)")
    if probe.returncode != 0:
        print(f"peer not measured: {peer_python} cannot import diplomacy and cairosvg "
              f"({probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else 'no output'}); "
              "give --peer-python, see this file's docstring")
        return
    peer_wall, peer_rss = statistics.median(w for w, _ in peer), max(r for _, r in peer)
    print(f"whole process, peer (diplomacy ancmed + cairosvg) {width} px: median {peer_wall * 1000:.0f} ms wall, "
          f"peak RSS {peer_rss:.0f} MiB ({runs} runs)")
    print(f"ratio legatus/peer: time {ours_wall / peer_wall:.2f} (target <= 0.40), "
          f"memory {ours_rss / peer_rss:.2f} (target < 1)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--state", type=Path, default=None, help="a public state JSON (legatus state --json)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--process-runs", type=int, default=7, help="whole-process runs of each side")
    parser.add_argument("--peer-python", default=os.environ.get("LEGATUS_PEER_PYTHON", sys.executable),
                        help="an interpreter that can import diplomacy and cairosvg")
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
        code = subprocess.run(command, check=False).returncode
        compare_with_peer(Path(tmp) / "bench.db", Path(tmp), args.width, args.process_runs, args.peer_python)
        return code


if __name__ == "__main__":
    sys.exit(main())
