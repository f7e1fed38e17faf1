"""A picture whose centres no coastline covers (the card games' status cards, a board elsewhere) drawn by the one
area-map renderer, bot/render/coast_layout.py, as a diagram: its own land instead of a coast.

The centres, in the picture's own units (y down), are scaled into a view a degree wide around (0, 0), where the
renderer's projection is a plain scaling. Each land area's land is its cell among all the centres (the part of the
plane nearer its centre than any other's, up to a reach of 0.62 typical spacings), shrunk by a gap, so that
areas stand apart as the old diagram's discs did and the rules' links between them are drawn as dashed lines
across the gap; the seas take the water between, each up to its reach. What a renderer does with areas (names
that fit, badges, owners' colours and hatching, attacks, the legend) is then the coastline map's, for every area
map alike.
"""
from __future__ import annotations

import dataclasses
import math
import statistics

from bot.render.area_geometry import Point, cells, shrunk
from engine.area_drawing import Drawing
from engine.ruleset import Picture

REACH = 0.62  # of the median distance from a centre to its nearest neighbour, as the old diagram's discs
GAP = 0.05  # between two areas' land, of the same distance
TALLEST = 1.25  # the view is at most this many times as tall as it is wide


def as_diagram(picture: Picture) -> Picture:
    """The picture with its centres moved into a view of their own and a drawing whose land is its areas'."""
    spaces = [s for s in picture.spaces if s.at is not None]
    sites: list[Point] = [(float(s.at[0]), float(s.at[1])) for s in spaces]  # type: ignore[index]  # at: set, above
    nearest = [min((math.dist(p, q) for j, q in enumerate(sites) if j != i), default=1.0) for i, p in enumerate(sites)]
    spacing = (statistics.median(nearest) if nearest else 1.0) or 1.0
    xs, ys = [p[0] for p in sites] or [0.0], [p[1] for p in sites] or [0.0]
    span_y = max(ys) - min(ys) + 2 * REACH * spacing
    span_x = max(max(xs) - min(xs) + 2 * REACH * spacing, span_y / TALLEST)
    cx, cy, d = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, max(span_x, span_y)

    def moved(p: Point) -> Point:
        return (p[0] - cx) / d, (cy - p[1]) / d  # north up: the picture's y runs down

    view = (-span_x / 2 / d, -span_y / 2 / d, span_x / 2 / d, span_y / 2 / d)
    reach = REACH * spacing / d
    centres = [moved(p) for p in sites]
    made = cells([s.name for s in spaces], centres, [reach] * len(spaces), view, {})
    rings = tuple(ring for space, cell, centre in zip(spaces, made, centres)
                  if space.kind != "sea" and len(cell.points) >= 3
                  for ring in [shrunk(cell.points, centre, GAP * spacing / d)] if len(ring) >= 3)
    at = dict(zip((s.name for s in spaces), centres))
    drawn = tuple(dataclasses.replace(s, at=at[s.name]) if s.name in at else s for s in picture.spaces)
    return dataclasses.replace(picture, spaces=drawn, drawing=Drawing("", view, reach, reach, rings=rings))
