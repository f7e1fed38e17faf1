"""The layout of an area map (a ``Picture`` without a grid): each space drawn around its centre ``at``.

Each area is the part of the plane nearer its centre than any other's (a Voronoi cell), clipped to a disc
so that a lone island stays a round patch and the edge of the map does not run to the frame, and shrunk by
a gap so neighbours show their borders. Cells are convex, which keeps the geometry short: a point is inside
when it is on the inner side of every edge.

Each area keeps a plain patch of its colour at its centre; its name (and its note and marks) sits just
above the patch, its icons just below, each block tried at smaller sizes until it fits inside the area. As
areas never overlap, labels placed inside their own area never overlap either.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

# One convexity test for both area renderers (the disc layout and the coastline one).
from bot.render.area_geometry import box_in_convex as box_inside, inside_convex as inside_polygon  # noqa: F401  (its tests)
from bot.render.badges import BadgeItem, badge_items, badges_placed, place_badges
from bot.render.layout_parts import MIN_WIDTH, Area, Box, Icon, Label, MapLayout, Point, Shape, label_at, note_of
from bot.render.legend import header, legend_and_key, picture_styles
from bot.render.text import cut, line_height, printable, splits, text_width
from bot.render.palette import INK, SEA_INK, WHITE, SeatStyle, mix, style_of
from engine.ruleset import Picture, Space

LINK: tuple[int, int, int] = mix(INK, WHITE, 0.55)
Fits = Callable[[Box], bool]
CIRCLE_SIDES = 48


def _clip(polygon: list[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of a convex polygon where a·x + b·y <= c (Sutherland–Hodgman against one half-plane)."""
    out: list[Point] = []
    n = len(polygon)
    for i in range(n):
        p, q = polygon[i], polygon[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def cells(points: Sequence[Point], radius: float, gap: float) -> list[list[Point]]:
    """Each point's Voronoi cell, clipped to a disc of ``radius`` and kept ``gap`` pixels from its neighbours'."""
    out = []
    for i, (px, py) in enumerate(points):
        poly = [(px + radius * math.cos(2 * math.pi * k / CIRCLE_SIDES), py + radius * math.sin(2 * math.pi * k / CIRCLE_SIDES))
                for k in range(CIRCLE_SIDES)]
        for j, (qx, qy) in enumerate(points):
            if i == j:
                continue
            dx, dy = qx - px, qy - py
            d = math.hypot(dx, dy)
            if d >= 2 * radius or d == 0:
                continue
            # Points x with (x - midpoint)·(q - p) <= -gap/2·|q - p|: this side of the bisector, half a gap in.
            mx, my = (px + qx) / 2, (py + qy) / 2
            poly = _clip(poly, dx, dy, dx * mx + dy * my - gap / 2 * d)
            if not poly:
                break
        out.append(poly)
    return out


def name_block(space: Space, style: SeatStyle | None, cx: int, edge: int, above: bool, fits: Fits,
               largest: int, smallest: int) -> list[Label] | None:
    """The name (with its note below) as a block whose bottom (``above``) or top is at ``edge``; None if no
    size fits inside the area (``fits``: whether a box is inside it)."""
    words = printable(space.name).split() or [""]
    note = note_of(space)
    for size in range(largest, smallest - 1, -1):
        for k in range(1, min(3, len(words)) + 1):
            lines = splits(words, k, size, False)
            labels = stack(space, style, cx, edge, above, lines, size, note)
            if all(fits(lb.box) for lb in labels):
                return labels
    return None


def stack(space: Space, style: SeatStyle | None, cx: int, edge: int, above: bool, lines: tuple[str, ...], size: int,
           note: str) -> list[Label]:
    sea = space.kind == "sea"
    pad_x, pad_y = (0, 0) if sea else (max(2, size // 5), max(1, size // 10))
    colour = SEA_INK if sea else INK
    plate = None if sea or style is None else mix(style.fill, WHITE, 0.86)
    outline = None if sea or style is None else style.ink
    note_size = max(6, size - 3)
    name_h = line_height(size) * len(lines) + 2 * pad_y
    note_h = line_height(note_size) + 1 if note else 0
    top = edge - name_h - note_h if above else edge
    name_w = max(text_width(line, size) for line in lines) + 2 * pad_x
    out = [label_at("sea" if sea else "province", space.name, lines, size, cx - name_w // 2, top, colour,
                  pad_x=pad_x, pad_y=pad_y, plate=plate, plate_outline=outline)]
    if note:
        note_text = printable(note)
        w = text_width(note_text, note_size) + 2 * pad_x
        out.append(label_at("held", space.name, (note_text,), note_size, cx - w // 2, top + name_h + 1, colour,
                          pad_x=pad_x, plate=plate, plate_outline=outline))
    return out


def _fallback_name(space: Space, style: SeatStyle | None, centre: Point, polygon: Sequence[Point],
                   smallest: int) -> list[Label]:
    """A name too long for its area at any size: one line at the smallest size, cut to the inscribed disc."""
    cx, cy = centre
    r = min(_distance_to_edge(centre, polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon)))
    h = line_height(smallest)
    half_h = min(r - 1, h / 2)
    room = max(4, int(2 * math.sqrt(max(0.0, r * r - half_h * half_h))) - 6)
    text = cut(printable(space.name), room, smallest, False)
    return stack(space, style, round(cx), round(cy - h / 2), False, (text,), smallest, "")


def _distance_to_edge(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    return abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length


def badges_in(space: Space, styles: dict[str, SeatStyle], cx: int, edge: int, below: bool, half: int, fits: Fits,
              preferred: int, smallest: int, gap: int) -> tuple[list[Icon], list[Label]]:
    """The space's glyphs as badges in rows starting at ``edge`` (downwards when ``below``), inside the area, whose
    room either side of ``cx`` is at most ``half``."""
    fleets, specials = badge_items(space.glyphs, styles)
    items: list[BadgeItem] = fleets + specials
    if not items:
        return [], []
    tries: list[tuple[list[BadgeItem], int, bool]] = [(items, h, c) for h in range(preferred, smallest - 1, -1)
                                                      for c in (False, True)]
    for k in range(len(fleets) - 1, -1, -1):  # then the first fleets and a "+N" for the rest
        tries.append((fleets[:k] + [("more", None, len(fleets) - k, f"+{len(fleets) - k}")] + specials, smallest, True))
    for chosen, h, compact in tries:
        for rows in (1, 2, 3):
            zone_h = rows * h + (rows - 1) * gap
            for w in (half * 2, half * 3 // 2, half):
                zone = (cx - w // 2, edge if below else edge - zone_h, cx + w // 2, edge + zone_h if below else edge)
                placed = place_badges(chosen, zone, h, gap, compact) if w > h else None
                if placed and all(fits(b) for _i, b, _t, _s in placed):
                    return badges_placed(space.name, placed, styles)
    return [], []


def build_area_layout(picture: Picture, width: int = 1600) -> MapLayout:
    width = max(MIN_WIDTH, int(width))
    styles = picture_styles(picture)
    u = width / 1600
    margin = max(8, round(24 * u))
    labels, header_box = header(picture, width, u, margin)
    icons: list[Icon] = []
    spaces = [s for s in picture.spaces if s.at is not None]
    sites = [(float(s.at[0]), float(s.at[1])) for s in spaces]  # type: ignore[index]

    # Scale the map's own units into the frame, keeping half a typical spacing around the outer areas.
    nearest = [min((math.dist(p, q) for j, q in enumerate(sites) if j != i), default=1.0) for i, p in enumerate(sites)]
    spacing = statistics.median(nearest) if nearest else 1.0
    spacing = spacing or 1.0
    xs, ys = [p[0] for p in sites] or [0.0], [p[1] for p in sites] or [0.0]
    span_x, span_y = max(xs) - min(xs) + 1.2 * spacing, max(ys) - min(ys) + 1.2 * spacing
    frame_w = width - 2 * margin
    scale = min(frame_w / span_x, 1.25 * width / span_y)
    frame_h = round(span_y * scale)
    fx = margin + (frame_w - round(span_x * scale)) // 2
    fy = header_box[3] + margin // 2
    frame = (margin, fy, width - margin, fy + frame_h)
    points = [(fx + (x - min(xs) + 0.6 * spacing) * scale, fy + (y - min(ys) + 0.6 * spacing) * scale) for x, y in sites]
    px_spacing = spacing * scale
    gap = max(2.0, 4 * u)
    polygons = cells(points, 0.62 * px_spacing, gap)

    border = max(1, round(2 * u))
    attack = max(3, round(5 * u))
    k0 = max(4, round(6 * u))
    name_largest, name_smallest = max(8, round(20 * u)), max(7, round(11 * u))
    badge_h, badge_small = max(10, round(24 * u)), max(8, round(14 * u))
    areas: list[Area] = []
    for space, centre, polygon in zip(spaces, points, polygons):
        if len(polygon) < 3:
            continue
        cx, cy = round(centre[0]), round(centre[1])
        sea = space.kind == "sea"
        style = None if sea else style_of(styles, space.fill)
        def fits(box: Box, polygon: Sequence[Point] = polygon) -> bool:
            return box_inside(box, polygon)

        block = (name_block(space, style, cx, cy - k0, True, fits, name_largest, name_smallest)
                 or name_block(space, style, cx, cy + k0, False, fits, name_largest, name_smallest))
        below = block is None or block[0].box[3] <= cy  # the icons go on the other side of the centre
        if block is None:
            block = _fallback_name(space, style, centre, polygon, name_smallest)
            below = True
        edge = max(cy + k0, max(lb.box[3] for lb in block) + 2) if below else min(cy - k0, min(lb.box[1] for lb in block) - 2)
        xs = [p[0] for p in polygon]
        half = int(min(cx - min(xs), max(xs) - cx))
        badge_icons, badge_labels = badges_in(space, styles, cx, edge, below, half, fits, badge_h, badge_small,
                                              max(2, round(4 * u)))
        labels.extend(block + badge_labels)
        icons.extend(badge_icons)
        occupied = [lb.box for lb in block + badge_labels] + [i.box for i in badge_icons]
        inner: Box = (cx - k0 + 1, cy - k0 + 1, cx + k0 - 1, cy + k0 - 1)
        sample = None if any(_overlaps(inner, box) for box in occupied) else inner
        areas.append(Area("sea" if sea else "province", space.name, tuple(polygon), centre,
                          "sea" if sea else style_of(styles, space.fill).name, space.fill, space.highlight, sample))

    at = {s.name: p for s, p in zip(spaces, points)}
    links = tuple(Shape("line", (at[a], at[b]), outline=LINK, width=max(2.0, 3 * u))
                  for a, b in picture.links if a in at and b in at)
    legend_top = frame[3] + round(margin * 1.2)
    legend_labels, legend_icons, entries, legend_box = legend_and_key(picture, styles, legend_top, width, margin, u)
    labels.extend(legend_labels)
    icons.extend(legend_icons)
    return MapLayout(
        width=width, height=legend_box[3] + margin, styles=styles, title=picture.title, header=header_box, grid=frame,
        legend_box=legend_box, cells=(), labels=tuple(labels), icons=tuple(icons), legend=tuple(entries),
        border=border, attack_border=attack, radius=max(2, round(6 * u)), pattern_step=max(5, round(12 * u)),
        info={"turn_text": picture.subtitle, "lines": tuple(t for _n, t in picture.info)},
        areas=tuple(areas), links=links,
    )


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
