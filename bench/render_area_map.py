"""Benchmark: draw Mediterranean Empires' area map over the coastline. Prints figures; asserts nothing.

    .venv/bin/python bench/render_area_map.py [--runs 7] [--width 1600] [--peer-python PY]

In process: the layout, the painting and the whole PNG (and the SVG) of the reference pictures (the set-up and the
end of the scripted game, tests/bot/render/reference/me-*.json), median CPU time of ``--runs`` after one warm-up;
and the first layout of a process, with an empty disk cache and with the map's file in it (bot/render/coast_cache.py);
and a fresh process's layout and painting of the set-up stage by stage (CPU: the layout from the files, the layers
read, the canvas, the land areas, the labels, the rest, the encoding).
Whole process: ``legatus map`` on a new Mediterranean Empires campaign, with the map's file in the disk cache (as
every draw after a map's first) and with an empty one (a map's very first draw), against the python ``diplomacy``
package drawing its ``ancmed`` map through cairosvg at the same width (bench/render_map.py says how to install the
peer), each a fresh process, interleaved: median wall and CPU time (CPU is the steadier figure on a shared machine),
peak RSS. Our processes run with their modules' bytecode compiled (kept under a temporary PYTHONPYCACHEPREFIX),
as a pip install leaves them and as the peer's are in its site-packages; once more without any bytecode (every
module compiled from source on each start, as in an editable install under PYTHONDONTWRITEBYTECODE=1), which is not
the peer's footing and is printed apart.

2026-11-26, main after the paint and startup merges (2efbe1f, and the cache's key read once), 2-core machine shared
by eight sessions, load average 2.0-4.5, ``--runs 5`` three times (ranges of the medians): ``legatus map`` with the
map's files 331-344 ms CPU (333-386 ms wall), 455-469 ms CPU without bytecode, 798-813 ms CPU at a map's first draw,
against 825-845 ms CPU (840-1,023 ms wall) for the peer: 0.40-0.41 of its CPU time and 0.38-0.40 of its wall time
from a map's second draw on (the issue's 0.4 met at the line, not reliably by CPU), 0.95-0.98 at its first, 0.55-0.56
without bytecode; peak RSS 79 MiB with the files, 103 MiB at a first draw, against 81. In process, CPU: layout 10 ms,
PNG 87-103 ms, SVG 20-21 ms. A fresh process's part of it, CPU ms: layout 39-41, layers read 23, canvas 2-3, land
areas with the coast 15-16, names 25-26, the rest and the halving 34, encoding 13 (the other ~190 ms: the
interpreter's start, the imports, reading the campaign).

2026-11-26, branch s9-speed3 (a campaign read imports no order-playing module, engine/later.py; the names' masks
kept in the map cache, bot/render/name_masks.py), load 2-3, ``--runs 7``: ``legatus map`` with the map's files 295
ms CPU (296 wall), 794 at a map's first draw, against 844 ms CPU for the peer: 0.35 of its CPU time (0.35 of its
wall time), peak RSS 78 against 81 MiB; main and the branch interleaved, 11 fresh processes each: 327 against 286 ms
CPU (main 1ffeea3), 338 against 297 (main dbb3f15, merged in; the same PNG and SVG bytes at 480-2400 px). A fresh
process's part, CPU ms: layout 39, layers read 23, canvas 2, land areas with the coast 15, names 5 (were 25: their
masks read, not rendered), the rest and the halving 34, encoding 13.
"""
from __future__ import annotations

import argparse
import json
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

from render_map import PEER_SCRIPT  # type: ignore[import-not-found]  # noqa: E402


def median_ms(fn: object, runs: int) -> float:
    """Median CPU time: on a machine shared by several sessions the wall time measures the others too."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        fn()  # type: ignore[operator]
        samples.append(time.process_time() - start)
    return statistics.median(samples) * 1000


def run_process(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Wall and CPU seconds and peak resident MiB of one whole process (wait4's rusage is the child's own)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{command[:3]} failed: {process.stderr.read().decode()[-400:] if process.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def first_layouts(runs: int, width: int, cache: Path) -> None:
    """The first layout of a process (nothing kept in memory), from an empty disk cache and from the map's file."""
    from bot.render import coast_layout
    from bot.render.layout import build_layout
    from tests.bot.render import area_pictures

    picture = area_pictures.load("me-setup.json")
    empty, kept = [], []
    for i in range(runs):
        os.environ["LEGATUS_CACHE_DIR"] = str(cache / f"empty-{i}")
        coast_layout._GROUNDS.clear()
        start = time.process_time()
        build_layout(picture, width)
        empty.append(time.process_time() - start)
        coast_layout._GROUNDS.clear()
        start = time.process_time()
        build_layout(picture, width)
        kept.append(time.process_time() - start)
    print(f"me-setup.json {width} px, first layout of a process, CPU: {statistics.median(empty) * 1000:.0f} ms with an "
          f"empty disk cache, {statistics.median(kept) * 1000:.0f} ms with the map's file in it ({runs} runs)")


# One fresh process's painting of the set-up, stage by stage (CPU time): what a `legatus map` spends in this code
# once the map's files are in the disk cache. The stages wrap the painter's own functions.
BREAKDOWN = """
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
from bot.render import map_png
from bot.render.layout import build_layout
from bot.render.png_file import encode_png
from tests.bot.render import area_pictures
spent = {}
def timed(module, name, label):
    inner = getattr(module, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    setattr(module, name, wrapper)
timed(map_png, "layers_of", "layers read")
timed(map_png, "coast_canvas", "canvas")
timed(map_png, "paint_coast", "land areas, coast, attacks, overlays")
timed(map_png, "draw_label", "labels")
timed(map_png, "masks_of", "labels")  # the names' masks, read from the map cache (bot/render/name_masks.py)
picture = area_pictures.load("me-setup.json")
start = time.process_time()
layout = build_layout(picture, int(sys.argv[2]))
spent["layout"] = time.process_time() - start
start = time.process_time()
image = map_png.paint(layout)
painting = time.process_time() - start
spent["icons, legend, header, halving"] = painting - spent["canvas"] - spent["layers read"] - spent["labels"] - \
    spent["land areas, coast, attacks, overlays"]
start = time.process_time()
encode_png(image, 1)
spent["encoding"] = time.process_time() - start
print(json.dumps(spent))
"""


def breakdown(runs: int, width: int, cache: Path) -> None:
    """Where a fresh process spends its layout and painting, with the map's files in the disk cache (median CPU)."""
    env = {**os.environ, "LEGATUS_CACHE_DIR": str(cache / "breakdown")}
    command = [sys.executable, "-c", BREAKDOWN, str(REPO), str(width)]
    subprocess.run(command, env=env, check=True, capture_output=True)  # the map's first draw writes its files
    samples = [json.loads(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
               for _ in range(runs)]
    parts = ", ".join(f"{name} {statistics.median(s[name] for s in samples) * 1000:.0f}" for name in samples[0])
    print(f"me-setup.json {width} px, a fresh process with the map's files in the disk cache, CPU ms (median of "
          f"{runs}): {parts}")


def in_process(runs: int, width: int) -> None:
    from bot.render.layout import build_layout
    from bot.render.map_png import paint, render_png
    from bot.render.map_svg import render_svg
    from tests.bot.render import area_pictures

    for name in area_pictures.PICTURES:
        picture = area_pictures.load(name)
        render_png(picture, width)  # warm: fonts, the coastline file
        layout = build_layout(picture, width)
        print(f"{name} {width} px, CPU: layout {median_ms(lambda: build_layout(picture, width), runs):.0f} ms, "
              f"painting {median_ms(lambda: paint(layout), runs):.0f} ms, "
              f"whole PNG {median_ms(lambda: render_png(picture, width), runs):.0f} ms, "
              f"SVG {median_ms(lambda: render_svg(picture, width), runs):.0f} ms ({runs} runs); "
              f"{len(layout.areas)} areas, {sum(1 for a in layout.areas if a.label_outside)} names beside their area")


def whole_process(width: int, runs: int, peer_python: str, cache: Path) -> None:
    legatus = Path(sys.executable).with_name("legatus")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "me.db"
        subprocess.run([str(legatus), "new", "--db", str(db), "--ruleset", "mediterranean-empires", "--player",
                        "Player A=ann", "--player", "Player B=bob"], check=True, stdout=subprocess.DEVNULL)
        ours_cmd = [str(legatus), "map", "--db", str(db), "--out", str(Path(tmp) / "ours.png"), "--width", str(width)]
        peer_cmd = [peer_python, "-c", PEER_SCRIPT, str(Path(tmp) / "peer.png"), str(width)]
        has_peer = subprocess.run([peer_python, "-c", "import diplomacy, cairosvg"], capture_output=True).returncode == 0
        compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        compiled["PYTHONPYCACHEPREFIX"] = str(cache / "bytecode")
        kept_env = {**compiled, "LEGATUS_CACHE_DIR": str(cache / "kept")}
        run_process(ours_cmd, kept_env)  # the map's first draw: its file is written, and the bytecode
        if has_peer:
            run_process(peer_cmd)
        source_env = {**kept_env, "PYTHONDONTWRITEBYTECODE": "1"}
        source_env.pop("PYTHONPYCACHEPREFIX")
        ours, cold, source, peer = [], [], [], []
        for i in range(runs):  # interleaved, so that all see the same machine
            ours.append(run_process(ours_cmd, kept_env))
            cold.append(run_process(ours_cmd, {**compiled, "LEGATUS_CACHE_DIR": str(cache / f"cold-{i}")}))
            source.append(run_process(ours_cmd, source_env))
            if has_peer:
                peer.append(run_process(peer_cmd))

    def figures(samples: list[tuple[float, float, float]]) -> tuple[float, float, float]:
        return (statistics.median(w for w, _c, _r in samples), statistics.median(c for _w, c, _r in samples),
                max(r for _w, _c, r in samples))

    for label, samples in (("map's file in the disk cache", ours), ("empty disk cache (a map's first draw)", cold),
                           ("map's file in the disk cache, no bytecode", source)):
        wall, cpu, rss = figures(samples)
        print(f"whole process, legatus map (Mediterranean Empires) {width} px, {label}: median {wall * 1000:.0f} ms "
              f"wall, {cpu * 1000:.0f} ms CPU, peak RSS {rss:.0f} MiB ({runs} runs)")
    if not peer:
        print(f"peer not measured: {peer_python} cannot import diplomacy and cairosvg")
        return
    peer_wall, peer_cpu, peer_rss = figures(peer)
    print(f"whole process, peer (diplomacy ancmed + cairosvg) {width} px: median {peer_wall * 1000:.0f} ms wall, "
          f"{peer_cpu * 1000:.0f} ms CPU, peak RSS {peer_rss:.0f} MiB")
    for label, samples in (("cached", ours), ("empty cache", cold), ("cached, no bytecode", source)):
        wall, cpu, rss = figures(samples)
        print(f"ratio legatus/peer, {label}: wall {wall / peer_wall:.2f}, CPU {cpu / peer_cpu:.2f} (target <= 0.40), "
              f"memory {rss / peer_rss:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--peer-python", default=os.environ.get("LEGATUS_PEER_PYTHON", sys.executable))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["LEGATUS_CACHE_DIR"] = str(Path(cache) / "in-process")  # the user's own cache stays untouched
        # The whole processes first: a child's peak RSS counts what it inherited before exec, so this process must
        # not have drawn anything yet.
        whole_process(args.width, args.runs, args.peer_python, Path(cache))
        in_process(args.runs, args.width)
        first_layouts(args.runs, args.width, Path(cache))
        breakdown(args.runs, args.width, Path(cache))
    return 0


if __name__ == "__main__":
    sys.exit(main())
