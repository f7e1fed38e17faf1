"""How an area map is drawn over a real coastline: the ``[drawing]`` table of a map's data file.

Any area map (a game's board of land and sea areas, each with its centre ``at``) may carry one. It names the land it
is drawn over (a coastline file in ``data/geo/``), the part of the world shown, and how far an area may reach from
its centre; each area's shape is then derived from the centres (the land around a land area's centre that is nearer
to it than to any other land area's, the same for seas), and a GM adjusts a shape by moving its centre or by drawing
the line a border runs along:

    [drawing]
    land = "mediterranean-land.json"      # data/geo/
    view = [-10.0, 33.6, 19.6, 47.6]      # west, south, east, north: what the picture shows
    reach = 2.0                           # a land area ends this far from its centre (map units) ...
    sea_reach = 3.4                       # ... a sea area this far ...
    reaches = { "Bay of Biscay" = 4.0 }   # ... or as far as its own reach says
    colours = "game"                      # the powers' colours as the game's data writes them (default "safe")

    [[drawing.border]]                    # the border between two areas of one kind runs along this line
    between = ["Milan", "Brescia"]
    through = [[9.75, 44.9], [9.85, 46.2]]

Pure: this module only reads and checks the table; ``bot/render/coast_layout.py`` draws it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

Point = tuple[float, float]


class DrawingError(ValueError):
    """A mistake in a ``[drawing]`` table, named precisely enough to fix it."""


@dataclass(frozen=True)
class Border:
    """Between areas ``a`` and ``b`` (both land or both sea) the border runs along the line through ``line``'s two
    points, instead of halfway between their centres."""

    a: str
    b: str
    line: tuple[Point, Point]


@dataclass(frozen=True)
class Drawing:
    land: str  # a coastline file in data/geo/
    view: tuple[float, float, float, float]  # west, south, east, north
    reach: float
    sea_reach: float
    reaches: tuple[tuple[str, float], ...] = ()
    borders: tuple[Border, ...] = ()
    # "safe": the powers' colours as the colour-blind-safe palette makes them (bot/render/palette.py); "game": as the
    # game's data writes them, the hatching alone telling apart two that some eyes confuse.
    colours: str = "safe"
    # The land's outer rings in map units, read from ``land`` when the map was loaded from its file.
    rings: tuple[tuple[Point, ...], ...] = field(default=(), repr=False, compare=False)

    def reach_of(self, area: str, sea: bool) -> float:
        return dict(self.reaches).get(area, self.sea_reach if sea else self.reach)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DrawingError(f"{where} must be a number, not {value!r}")
    return float(value)


def _point(value: object, where: str) -> Point:
    if not (isinstance(value, list) and len(value) == 2):
        raise DrawingError(f"{where} must be two numbers, [x, y], not {value!r}")
    return _number(value[0], where), _number(value[1], where)


COLOURS = ("safe", "game")
# A map file without a ``[drawing]`` table is drawn over the first of these coastlines that covers all its centres
# (``derived_table``): the smaller first, it is the finer view of the western sea.
DERIVED_LANDS = ("mediterranean-land.json", "mediterranean-wide-land.json")
DERIVED_MARGIN = 1.5  # degrees of land and sea shown beyond the outermost centres
DERIVED_REACH, DERIVED_SEA_REACH = 2.0, 3.4  # as Mediterranean Empires' own table: areas of a few provinces


def derived_table(areas: dict[str, tuple[str, Point]], geo: Path) -> dict[str, Any] | None:
    """The ``[drawing]`` table of a map file that has none, so that every area map is drawn over the coast by one
    renderer: a coastline that covers every centre, a view around them, the default reaches. None when no
    coastline file covers them (a board elsewhere, or centres that are not degrees): such a map is drawn around its
    centres alone."""
    if not areas:
        return None
    xs, ys = [p[0] for _k, p in areas.values()], [p[1] for _k, p in areas.values()]
    for land in DERIVED_LANDS:
        path = geo / land
        if not path.is_file():
            continue
        rings = load_land(path)
        west, east = min(x for r in rings for x, _y in r), max(x for r in rings for x, _y in r)
        south, north = min(y for r in rings for _x, y in r), max(y for r in rings for _x, y in r)
        if west <= min(xs) and max(xs) <= east and south <= min(ys) and max(ys) <= north:
            m = DERIVED_MARGIN
            view = [max(west, min(xs) - m), max(south, min(ys) - m), min(east, max(xs) + m), min(north, max(ys) + m)]
            return {"land": land, "view": view, "reach": DERIVED_REACH, "sea_reach": DERIVED_SEA_REACH}
    return None


@lru_cache(maxsize=8)
def load_land(path: Path) -> tuple[tuple[Point, ...], ...]:
    """A coastline file (scripts/reduce_coastline.py): its rings, each a polygon of land in degrees."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return tuple(tuple(zip(r[0::2], r[1::2])) for r in document["rings"])


def read_drawing(raw: Any, areas: dict[str, tuple[str, Point]], source: str = "map",
                 geo: Path | None = None) -> Drawing | None:
    """The ``[drawing]`` table (None when the map has none). ``areas``: each area's kind ("land", "sea") and centre,
    to check the names and that a drawn border passes between the two centres it separates. ``geo``: the folder of
    coastline files (``data/geo/``), from which the land is read; without it the drawing has no land."""
    if raw is None:
        return None
    where = f"{source}: [drawing]"
    if not isinstance(raw, dict):
        raise DrawingError(f"{where} must be a table")
    unknown = sorted(set(raw) - {"land", "view", "reach", "sea_reach", "reaches", "border", "colours"})
    if unknown:
        raise DrawingError(f"{where}: unknown key {unknown[0]!r}; the keys are land, view, reach, sea_reach, reaches, "
                           "border, colours")
    colours = raw.get("colours", "safe")
    if colours not in COLOURS:
        raise DrawingError(f"{where}: 'colours' is {colours!r}: write \"safe\" (the colour-blind-safe palette, the "
                           "default) or \"game\" (the colours the game's data gives each power)")
    land = raw.get("land")
    if not isinstance(land, str) or not land.endswith(".json") or "/" in land or "\\" in land:
        raise DrawingError(f"{where}: 'land' must name a coastline file of data/geo/, such as "
                           f"\"mediterranean-land.json\", not {land!r}")
    view_raw = raw.get("view")
    if not (isinstance(view_raw, list) and len(view_raw) == 4):
        raise DrawingError(f"{where}: 'view' must be [west, south, east, north], not {view_raw!r}")
    west, south, east, north = (_number(v, f"{where} view") for v in view_raw)
    if not (west < east and south < north):
        raise DrawingError(f"{where}: 'view' {view_raw} must have west < east and south < north")
    outside = [n for n, (_k, (x, y)) in areas.items() if not (west <= x <= east and south <= y <= north)]
    if outside:
        raise DrawingError(f"{where}: the centre of '{outside[0]}' {list(areas[outside[0]][1])} lies outside the "
                           f"view {view_raw}: widen the view or move the centre")
    reach = _number(raw.get("reach"), f"{where} reach")
    sea_reach = _number(raw.get("sea_reach", reach), f"{where} sea_reach")
    reaches_raw = raw.get("reaches", {})
    if not isinstance(reaches_raw, dict):
        raise DrawingError(f"{where}: 'reaches' must be a table of area = number")
    reaches = []
    for name, value in reaches_raw.items():
        if name not in areas:
            raise DrawingError(f"{where} reaches: '{name}' is not an area of the map")
        reaches.append((name, _number(value, f"{where} reaches '{name}'")))
    for name, value in [("land areas", reach), ("sea areas", sea_reach), *reaches]:
        if value <= 0:
            raise DrawingError(f"{where}: the reach of {name} is {value}: it must be more than 0")
    borders = []
    for i, body in enumerate(raw.get("border", []), start=1):
        at = f"{where} border {i}"
        if not isinstance(body, dict):
            raise DrawingError(f"{at} must be a table with 'between' and 'through'")
        between = body.get("between")
        if not (isinstance(between, list) and len(between) == 2 and all(isinstance(n, str) for n in between)):
            raise DrawingError(f"{at}: 'between' must name two areas, [\"A\", \"B\"], not {between!r}")
        a, b = between
        for name in (a, b):
            if name not in areas:
                raise DrawingError(f"{at}: '{name}' is not an area of the map")
        if areas[a][0] != areas[b][0] or a == b:
            raise DrawingError(f"{at}: a border separates two land areas or two sea areas; '{a}' is "
                               f"{areas[a][0]} and '{b}' is {areas[b][0]}")
        through = body.get("through")
        if not (isinstance(through, list) and len(through) == 2):
            raise DrawingError(f"{at}: 'through' must be two points, [[x, y], [x, y]], not {through!r}")
        p, q = _point(through[0], f"{at} through"), _point(through[1], f"{at} through")
        if p == q:
            raise DrawingError(f"{at}: the two points of 'through' are the same point: a line needs two")
        side_a, side_b = _side(p, q, areas[a][1]), _side(p, q, areas[b][1])
        if side_a * side_b >= 0:
            raise DrawingError(f"{at}: the line through {list(p)} and {list(q)} must pass between the centres of "
                               f"'{a}' {list(areas[a][1])} and '{b}' {list(areas[b][1])}")
        borders.append(Border(a, b, (p, q)))
    rings: tuple[tuple[Point, ...], ...] = ()
    if geo is not None:
        path = geo / land
        if not path.is_file():
            raise DrawingError(f"{where}: the coastline file {path} does not exist; 'land' names a file of {geo}")
        rings = load_land(path)
    return Drawing(land, (west, south, east, north), reach, sea_reach, tuple(reaches), tuple(borders), colours, rings)


def _side(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
