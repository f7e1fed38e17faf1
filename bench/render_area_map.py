"""Benchmark: draw Mediterranean Empires' area map over the coastline. Prints figures; asserts nothing.

    .venv/bin/python bench/render_area_map.py [--runs 7] [--width 1600] [--peer-python PY]

In process: the layout, the painting and the whole PNG (and the SVG) of the reference pictures (the set-up and the
end of the scripted game, tests/bot/render/reference/me-*.json), median of ``--runs`` after one warm-up. Whole
process: ``legatus map`` on a new Mediterranean Empires campaign, against the python ``diplomacy`` package drawing
its ``ancmed`` map through cairosvg at the same width (bench/render_map.py says how to install the peer), each a
fresh process, interleaved, median wall time and peak RSS.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from render_map import PEER_SCRIPT, run_process  # type: ignore[import-not-found]  # noqa: E402


def median_ms(fn: object, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def in_process(runs: int, width: int) -> None:
    from bot.render.layout import build_layout
    from bot.render.map_png import paint, render_png
    from bot.render.map_svg import render_svg
    from tests.bot.render import area_pictures

    for name in area_pictures.PICTURES:
        picture = area_pictures.load(name)
        render_png(picture, width)  # warm: fonts, the coastline file
        layout = build_layout(picture, width)
        print(f"{name} {width} px: layout {median_ms(lambda: build_layout(picture, width), runs):.0f} ms, "
              f"painting {median_ms(lambda: paint(layout), runs):.0f} ms, "
              f"whole PNG {median_ms(lambda: render_png(picture, width), runs):.0f} ms, "
              f"SVG {median_ms(lambda: render_svg(picture, width), runs):.0f} ms ({runs} runs); "
              f"{len(layout.areas)} areas, {sum(1 for a in layout.areas if a.label_outside)} names beside their area")


def whole_process(width: int, runs: int, peer_python: str) -> None:
    legatus = Path(sys.executable).with_name("legatus")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "me.db"
        subprocess.run([str(legatus), "new", "--db", str(db), "--ruleset", "mediterranean-empires", "--player",
                        "Player A=ann", "--player", "Player B=bob"], check=True, stdout=subprocess.DEVNULL)
        ours_cmd = [str(legatus), "map", "--db", str(db), "--out", str(Path(tmp) / "ours.png"), "--width", str(width)]
        peer_cmd = [peer_python, "-c", PEER_SCRIPT, str(Path(tmp) / "peer.png"), str(width)]
        has_peer = subprocess.run([peer_python, "-c", "import diplomacy, cairosvg"], capture_output=True).returncode == 0
        run_process(ours_cmd)
        if has_peer:
            run_process(peer_cmd)
        ours, peer = [], []
        for _ in range(runs):
            ours.append(run_process(ours_cmd))
            if has_peer:
                peer.append(run_process(peer_cmd))
    ours_wall, ours_rss = statistics.median(w for w, _ in ours), max(r for _, r in ours)
    print(f"whole process, legatus map (Mediterranean Empires) {width} px: median {ours_wall * 1000:.0f} ms wall, "
          f"peak RSS {ours_rss:.0f} MiB ({runs} runs)")
    if not peer:
        print(f"peer not measured: {peer_python} cannot import diplomacy and cairosvg")
        return
    peer_wall, peer_rss = statistics.median(w for w, _ in peer), max(r for _, r in peer)
    print(f"whole process, peer (diplomacy ancmed + cairosvg) {width} px: median {peer_wall * 1000:.0f} ms wall, "
          f"peak RSS {peer_rss:.0f} MiB; ratio legatus/peer: time {ours_wall / peer_wall:.2f}, "
          f"memory {ours_rss / peer_rss:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--peer-python", default=os.environ.get("LEGATUS_PEER_PYTHON", sys.executable))
    args = parser.parse_args()
    in_process(args.runs, args.width)
    whole_process(args.width, args.runs, args.peer_python)
    return 0


if __name__ == "__main__":
    sys.exit(main())
