"""The shapes of an area map drawn over a coastline: the projection, and each area's cell.

A cell is the part of the frame nearer its area's centre than any other centre of the same kind (land areas among
land areas, seas among seas), within the area's reach of its centre; where a GM drew a border (``Drawing.borders``)
that border's line replaces the halfway line. Cells are convex (an intersection of half-planes), so a point is
inside when it is on the inner side of every edge; the land (or the sea) cuts the area out of its cell when it is
painted. Each edge of a cell remembers where it came from: the area on its other side, or None for the frame and the
reach, so the painter can tell an open border from a closed one.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.area_drawing import Drawing

Point = tuple[float, float]
CIRCLE_SIDES = 48


@dataclass(frozen=True)
class Projection:
    """Degrees to pixels: longitude scaled by the cosine of the view's middle latitude, north up."""

    west: float
    north: float
    k: float  # cos(middle latitude)
    scale: float  # pixels per degree of latitude
    x0: float
    y0: float

    def __call__(self, p: Point) -> Point:
        return self.x0 + (p[0] - self.west) * self.k * self.scale, self.y0 + (self.north - p[1]) * self.scale


def projection(drawing: Drawing, x0: float, y0: float, width: float) -> tuple[Projection, float]:
    """The projection that fits the view ``width`` pixels wide with its top-left at (x0, y0), and the view's height."""
    west, south, east, north = drawing.view
    k = math.cos(math.radians((south + north) / 2))
    scale = width / ((east - west) * k)
    return Projection(west, north, k, scale, x0, y0), (north - south) * scale


@dataclass(frozen=True)
class Cell:
    """A convex polygon and, for each vertex, what the edge from it to the next vertex separates it from."""

    points: tuple[Point, ...]
    sides: tuple[str | None, ...]


def _clip(points: list[Point], sides: list[str | None], a: float, b: float, c: float, tag: str
          ) -> tuple[list[Point], list[str | None]]:
    """The part of a convex polygon where a·x + b·y <= c; the new edge along the line is tagged ``tag``."""
    out: list[Point] = []
    out_sides: list[str | None] = []
    n = len(points)
    for i in range(n):
        p, q = points[i], points[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
            if fq <= 0:
                out_sides.append(sides[i])
            else:  # leaving: the edge runs to the line, then along it
                t = fp / (fp - fq)
                out_sides.append(sides[i])
                out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
                out_sides.append(tag)
        elif fq <= 0:  # entering
            t = fp / (fp - fq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
            out_sides.append(sides[i])
    return out, out_sides


def cells(names: Sequence[str], centres: Sequence[Point], reaches: Sequence[float],
          frame: tuple[float, float, float, float], lines: dict[tuple[str, str], tuple[Point, Point]]) -> list[Cell]:
    """Each centre's cell (all centres of one kind): within ``frame`` and its reach; ``lines`` holds the borders a
    GM drew, by pair of names, in pixels."""
    x0, y0, x1, y1 = frame
    out = []
    for i, (name, (px, py), reach) in enumerate(zip(names, centres, reaches)):
        points = [(px + reach * math.cos(2 * math.pi * k / CIRCLE_SIDES), py + reach * math.sin(2 * math.pi * k / CIRCLE_SIDES))
                  for k in range(CIRCLE_SIDES)]
        sides: list[str | None] = [None] * CIRCLE_SIDES
        for a, b, c in ((-1.0, 0.0, -x0), (1.0, 0.0, x1), (0.0, -1.0, -y0), (0.0, 1.0, y1)):
            points, sides = _clip(points, sides, a, b, c, "")
        sides = [s or None for s in sides]
        for j, (qx, qy) in enumerate(centres):
            if i == j or not points:
                continue
            other = names[j]
            drawn = lines.get((name, other)) or lines.get((other, name))
            if drawn is not None:
                (ax, ay), (bx, by) = drawn
                # The normal of the drawn line, turned towards the other centre: this cell keeps the near side.
                nx, ny = ay - by, bx - ax
                if nx * (qx - ax) + ny * (qy - ay) < 0:
                    nx, ny = -nx, -ny
                points, sides = _clip(points, sides, nx, ny, nx * ax + ny * ay, other)
                continue
            dx, dy = qx - px, qy - py
            if math.hypot(dx, dy) >= reach + reaches[j] or (dx, dy) == (0, 0):
                continue
            mx, my = (px + qx) / 2, (py + qy) / 2
            points, sides = _clip(points, sides, dx, dy, dx * mx + dy * my, other)
        out.append(Cell(tuple(points), tuple(sides)))
    return out


def inside_convex(point: Point, polygon: Sequence[Point]) -> bool:
    """Whether ``point`` is inside a convex polygon whose vertices turn one way (either way)."""
    sign = 0
    n = len(polygon)
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        if cross != 0:
            s = 1 if cross > 0 else -1
            if sign and s != sign:
                return False
            sign = s
    return True


def box_in_convex(box: tuple[int, int, int, int], polygon: Sequence[Point]) -> bool:
    x0, y0, x1, y1 = box
    return all(inside_convex(p, polygon) for p in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def edges_between(cell: Cell, other: str) -> list[tuple[Point, Point]]:
    """The cell's edges along its border with ``other``."""
    n = len(cell.points)
    return [(cell.points[i], cell.points[(i + 1) % n]) for i in range(n) if cell.sides[i] == other]


def clip_ring(points: Sequence[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """A ring (not always convex: a coastline) cut to a box, side by side; where the land runs out of the box its
    ring runs along the box's edge."""
    ring = list(points)
    x0, y0, x1, y1 = box
    for a, b, c in ((-1.0, 0.0, -x0), (1.0, 0.0, x1), (0.0, -1.0, -y0), (0.0, 1.0, y1)):
        if not ring:
            break
        ring, _sides = _clip(ring, [None] * len(ring), a, b, c, "")
    return ring


def coast_lines(rings: Sequence[Sequence[Point]], box: tuple[float, float, float, float]) -> list[tuple[Point, ...]]:
    """The rings as lines to stroke, without the stretches that run along the box's edges: where the land was cut
    at the frame there is no coast to draw."""
    x0, y0, x1, y1 = box

    def on_edge(p: Point, q: Point) -> bool:
        return any(math.isclose(p[i], v, abs_tol=1e-6) and math.isclose(q[i], v, abs_tol=1e-6)
                   for i, v in ((0, x0), (0, x1), (1, y0), (1, y1)))

    out: list[tuple[Point, ...]] = []
    for ring in rings:
        n = len(ring)
        cut = [i for i in range(n) if on_edge(ring[i], ring[(i + 1) % n])]
        if not cut:
            out.append((*ring, ring[0]))
            continue
        # Start after a cut edge and walk the ring once, breaking the line at every cut edge.
        start = (cut[0] + 1) % n
        line: list[Point] = [ring[start]]
        for k in range(n):
            i = (start + k) % n
            j = (i + 1) % n
            if on_edge(ring[i], ring[j]):
                if len(line) > 1:
                    out.append(tuple(line))
                line = [ring[j]]
            else:
                line.append(ring[j])
        if len(line) > 1:
            out.append(tuple(line))
    return out


def shrunk(polygon: Sequence[Point], inside: Point, by: float) -> tuple[Point, ...]:
    """A convex polygon with every edge moved ``by`` towards ``inside`` (a point within it): a gap between cells."""
    points: list[Point] = list(polygon)
    sides: list[str | None] = [None] * len(polygon)
    for i in range(len(polygon)):
        (ax, ay), (bx, by_) = polygon[i], polygon[(i + 1) % len(polygon)]
        nx, ny = by_ - ay, ax - bx
        length = math.hypot(nx, ny)
        if length == 0:
            continue
        nx, ny = nx / length, ny / length
        if nx * (inside[0] - ax) + ny * (inside[1] - ay) > 0:
            nx, ny = -nx, -ny  # the normal pointing out of the polygon
        points, sides = _clip(points, sides, nx, ny, nx * ax + ny * ay - by, "")
    return tuple(points)
