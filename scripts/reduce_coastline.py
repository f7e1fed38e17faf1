"""Reduce Natural Earth's land to the Mediterranean: the coastline the area maps are drawn over.

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz      # in a scratch directory
    python3 scripts/reduce_coastline.py package/land-10m.json data/geo/mediterranean-land.json
    python3 scripts/reduce_coastline.py package/land-10m.json data/geo/mediterranean-wide-land.json --box -10 22 50 48

The input is the TopoJSON of Natural Earth's 1:10m land (version 4.1.0, public domain) that the npm package
`world-atlas` 2.0.2 ships (its packaging is ISC-licensed). Each polygon's outer ring is decoded, clipped to the
box (lon -10..42, lat 28..48, or ``--box``: the wide file reaches the Nile valley and Mesopotamia), simplified (Douglas-Peucker, 0.01 degrees: about one pixel on a 1600 px map of the
western Mediterranean) and kept if it covers at least 0.002 square degrees (about 20 km²: Malta, the Aeolian
islands' largest, Elba stay; rocks go). Holes are dropped: the land has none in this box that a board would show.
The result is committed, so nothing of npm is needed to draw a map; this script is how it was made. Standard
library only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
from pathlib import Path

Point = tuple[float, float]
BOX = (-10.0, 28.0, 42.0, 48.0)  # lon0, lat0, lon1, lat1
TOLERANCE = 0.01
MIN_AREA = 0.002
PACKAGE = "world-atlas@2.0.2"


def decode_arcs(topology: dict) -> list[list[Point]]:
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    out = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:  # quantized and delta-encoded
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        out.append(points)
    return out


def ring(indices: list[int], arcs: list[list[Point]]) -> list[Point]:
    points: list[Point] = []
    for i in indices:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(arc if not points else arc[1:])
    return points


def clip(points: list[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """Sutherland-Hodgman against the box's four sides."""
    x0, y0, x1, y1 = box
    for inside, cross in (
        (lambda p: p[0] >= x0, lambda p, q: (x0, p[1] + (q[1] - p[1]) * (x0 - p[0]) / (q[0] - p[0]))),
        (lambda p: p[0] <= x1, lambda p, q: (x1, p[1] + (q[1] - p[1]) * (x1 - p[0]) / (q[0] - p[0]))),
        (lambda p: p[1] >= y0, lambda p, q: (p[0] + (q[0] - p[0]) * (y0 - p[1]) / (q[1] - p[1]), y0)),
        (lambda p: p[1] <= y1, lambda p, q: (p[0] + (q[0] - p[0]) * (y1 - p[1]) / (q[1] - p[1]), y1)),
    ):
        out: list[Point] = []
        for i, q in enumerate(points):
            p = points[i - 1]
            if inside(q):
                if not inside(p):
                    out.append(cross(p, q))
                out.append(q)
            elif inside(p):
                out.append(cross(p, q))
        points = out
        if not points:
            break
    return points


def simplify(points: list[Point], tolerance: float) -> list[Point]:
    """Douglas-Peucker on an open line (iterative: the coastlines are long)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = points[a], points[b]
        length = math.hypot(bx - ax, by - ay)
        far, far_d = -1, tolerance
        for i in range(a + 1, b):
            px, py = points[i]
            d = (abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length) if length else math.hypot(px - ax, py - ay)
            if d > far_d:
                far, far_d = i, d
        if far >= 0:
            keep[far] = True
            stack += [(a, far), (far, b)]
    return [p for p, k in zip(points, keep) if k]


def simplify_ring(points: list[Point], tolerance: float) -> list[Point]:
    if points and points[0] == points[-1]:
        points = points[:-1]
    if len(points) < 4:
        return points
    # Cut the closed ring at its first point and the point farthest from it, simplify both halves.
    far = max(range(len(points)), key=lambda i: math.dist(points[0], points[i]))
    first = simplify(points[: far + 1], tolerance)
    second = simplify(points[far:] + [points[0]], tolerance)
    return first[:-1] + second[:-1]


def area(points: list[Point]) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(points, points[1:] + points[:1]))) / 2


def reduce(topology: dict, box: tuple[float, float, float, float] = BOX) -> list[list[Point]]:
    arcs = decode_arcs(topology)
    rings = []
    for geometry in topology["objects"]["land"]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for polygon in polygons:
            outer = ring(polygon[0], arcs)
            xs, ys = [p[0] for p in outer], [p[1] for p in outer]
            if max(xs) < box[0] or min(xs) > box[2] or max(ys) < box[1] or min(ys) > box[3]:
                continue
            clipped = simplify_ring(clip(outer, box), TOLERANCE)
            if len(clipped) >= 3 and area(clipped) >= MIN_AREA:
                rings.append(clipped)
    return rings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("land", type=Path, help="land-10m.json from the world-atlas package")
    parser.add_argument("out", type=Path)
    parser.add_argument("--box", type=float, nargs=4, default=list(BOX), metavar=("WEST", "SOUTH", "EAST", "NORTH"))
    args = parser.parse_args()
    box = tuple(args.box)
    raw = args.land.read_bytes()
    rings = reduce(json.loads(raw), box)  # type: ignore[arg-type]  # argparse gives four floats: nargs=4
    document = {
        "about": "Land of the Mediterranean, for drawing area maps (scripts/reduce_coastline.py made it)",
        "source": f"Natural Earth 1:10m land, version 4.1.0, as TopoJSON in the npm package {PACKAGE} "
                  f"(land-10m.json, sha256 {hashlib.sha256(raw).hexdigest()})",
        "licence": "Natural Earth: public domain (naturalearthdata.com/about/terms-of-use); world-atlas: ISC",
        "box": list(box),
        "tolerance": TOLERANCE,
        "min_area": MIN_AREA,
        # Each ring: lon, lat, lon, lat, ... in degrees, three decimals.
        "rings": [[round(v, 3) for p in r for v in p] for r in sorted(rings, key=area, reverse=True)],
    }
    args.out.write_text(json.dumps(document, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(rings)} rings, {sum(len(r) for r in rings)} points, {args.out.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
