"""The layout of an area map drawn over a real coastline (a ``Picture`` with a ``drawing``, engine/area_drawing.py).

The view is projected into the frame (``area_geometry.projection``); each land area is the land of its cell, each
sea area the sea of its cell (``area_geometry.cells``), so the coast, the islands and the straits are the real
ones. The land is rasterised once at the layout's size: a box is inside an area when it is inside the area's cell
and all of its pixels are land (or all sea), which is how every name and badge is checked before it is placed.

What is drawn besides the areas: each border between two areas of one kind, thin where the rules let units cross it
and thick where they do not (the cells touch, the map's graph says no); a dashed line across the water for each
land border that crosses it (a "crossing") and for each pair of linked seas whose shapes do not meet (a strait
too narrow to show). A name too long for its area at the smallest size (an island like Malta) stands beside it,
on a plate, with a leader line to the area's centre, where it covers no other label.
"""
from __future__ import annotations

import dataclasses
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence

from typing import Any

from PIL import Image, ImageChops, ImageDraw

from bot.render.area_geometry import Cell, Point, cells, clip_ring, coast_lines, edges_between, inside_convex, projection
from bot.render import coast_cache
from bot.render.area_layout import badges_in
from bot.render.coast_names import Clearance, Fits, name_beside, name_inside
from bot.render.icons import LINE_KEYS
from bot.render.layout_parts import MIN_WIDTH, Area, Box, Icon, Label, MapLayout, Shape, intersects, note_of
from bot.render.legend import header, legend_and_key, picture_styles
from bot.render.palette import INK, SEA_FILL, SEA_INK, WHITE, SeatStyle, RGB, mix, style_of
from engine.area_drawing import Drawing
from engine.ruleset import Picture, Space

BORDER: RGB = mix(INK, WHITE, 0.25)
CLOSED: RGB = LINE_KEYS["closed"][0]  # a land border the rules close: brown, and thick
SEA_BORDER: RGB = mix(SEA_FILL, SEA_INK, 0.45)
SEA_CLOSED: RGB = mix(SEA_FILL, SEA_INK, 0.85)
CROSSING: RGB = INK
STRAIT: RGB = SEA_INK
SEA_TINTS: tuple[RGB, ...] = (SEA_FILL, mix(SEA_FILL, WHITE, 0.4), mix(SEA_FILL, SEA_INK, 0.14))
KEY_TEXT = {"closed": "no border here: no land move across", "crossing": "neighbours whose shapes do not meet"}


def land_mask(rings: Sequence[Sequence[Point]], size: tuple[int, int], scale: int = 1) -> Image.Image:
    """The land as a mask (255 land, 0 sea) of ``size`` times ``scale``."""
    mask = Image.new("L", (size[0] * scale, size[1] * scale), 0)
    draw = ImageDraw.Draw(mask)
    for ring in rings:
        draw.polygon([(x * scale, y * scale) for x, y in ring], fill=255)
    return mask


def _region(cell: Cell, mask: Image.Image, land: bool) -> tuple[Image.Image | None, Box | None, int]:
    """The cell's land (or sea) as a mask of its own, where it lies in the picture, and its number of pixels."""
    xs, ys = [p[0] for p in cell.points], [p[1] for p in cell.points]
    box = (max(0, math.floor(min(xs))), max(0, math.floor(min(ys))), min(mask.width, math.ceil(max(xs)) + 1),
           min(mask.height, math.ceil(max(ys)) + 1))
    if box[2] <= box[0] or box[3] <= box[1]:
        return None, None, 0
    shape = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
    ImageDraw.Draw(shape).polygon([(x - box[0], y - box[1]) for x, y in cell.points], fill=255)
    ground = mask.crop(box)
    region = ImageChops.multiply(shape, ground if land else ImageChops.invert(ground))
    inner = region.getbbox()
    if inner is None:
        return None, None, 0
    region = region.crop(inner)
    return region, (inner[0] + box[0], inner[1] + box[1], inner[2] + box[0], inner[3] + box[1]), \
        region.histogram()[255]


def _fits(region: Image.Image | None, at: Box | None) -> Fits:
    """Whether a box lies wholly in the area: its corners and middle first (a pixel each, which turns most boxes
    away), then one crop of the area's mask, whose darkest pixel must be the area's."""
    if region is None or at is None:
        return lambda box: False
    pixels: Any = region.load()
    ax, ay, ax1, ay1 = at

    def fits(box: Box) -> bool:
        x0, y0, x1, y1 = box
        if not (ax <= x0 and ay <= y0 and x1 <= ax1 and y1 <= ay1):
            return False
        x0, y0, x1, y1 = x0 - ax, y0 - ay, x1 - ax - 1, y1 - ay - 1
        xm, ym = (x0 + x1) // 2, (y0 + y1) // 2
        if not (pixels[x0, y0] == pixels[x1, y0] == pixels[x0, y1] == pixels[x1, y1] == pixels[xm, ym]
                == pixels[xm, y0] == pixels[xm, y1] == 255):
            return False
        return region.crop((x0, y0, x1 + 1, y1 + 1)).getextrema()[0] == 255
    return fits


def _dashes(a: Point, b: Point, dash: float, gap: float, colour: RGB, width: float) -> list[Shape]:
    length = math.dist(a, b)
    if length == 0:
        return []
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    out = []
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        out.append(Shape("line", ((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)), outline=colour,
                         width=width))
        t = e + gap
    return out


def _touches(cell: Cell, other: str, mask: Image.Image, land: bool) -> bool:
    """Whether the cell's border with ``other`` runs somewhere over its own ground (land, or sea)."""
    want = 255 if land else 0
    pixels: Any = mask.load()  # read directly: a few thousand pixels over a map
    width, height = mask.size
    for (ax, ay), (bx, by) in edges_between(cell, other):
        n = max(2, int(math.dist((ax, ay), (bx, by)) // 3))
        for i in range(1, n):
            x, y = round(ax + (bx - ax) * i / n), round(ay + (by - ay) * i / n)
            if 0 <= x < width and 0 <= y < height and pixels[x, y] == want:
                return True
    return False


def _across(a: Point, b: Point, inside_a: Callable[[Point], bool], inside_b: Callable[[Point], bool]
            ) -> tuple[Point, Point]:
    """Where the straight way from centre ``a`` to centre ``b`` leaves a's area and enters b's."""
    n = max(2, int(math.dist(a, b) // 2))
    points = [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]
    leave = next((i for i in range(n + 1) if not inside_a(points[i])), 0)
    enter = next((i for i in range(n, -1, -1) if not inside_b(points[i])), n)
    return points[max(0, leave - 1)], points[min(n, enter + 1)]


def _tints(names: list[str], sea_cells: list[Cell]) -> dict[str, RGB]:
    """A tint per sea, none the same as a sea whose shape it touches (greedy colouring in map order)."""
    out: dict[str, RGB] = {}
    for name, cell in zip(names, sea_cells):
        near = {out[s] for s in cell.sides if s in out}
        out[name] = next((t for t in SEA_TINTS if t not in near), SEA_TINTS[0])
    return out


def build_coast_layout(picture: Picture, width: int = 1600) -> MapLayout:
    drawing = picture.drawing
    assert drawing is not None
    width = max(MIN_WIDTH, int(width))
    styles = picture_styles(picture)
    u = width / 1600
    margin = max(8, round(24 * u))
    labels, header_box = header(picture, width, u, margin)
    icons: list[Icon] = []
    top = header_box[3] + margin // 2
    ground = _ground(drawing, width, margin, top)
    project, frame, land, mask = ground.project, ground.frame, ground.land, ground.mask
    used: list[str] = []  # the digests of the cells this picture's areas have
    areas, shapes, crossings = _areas(picture, drawing, ground, styles, u, used)
    placed = _place_names(picture, areas, mask, frame, styles, u)
    for name_labels, badge_icons in placed.values():
        labels.extend(name_labels)
        icons.extend(badge_icons)
    overlays = list(shapes["overlays"])
    final_areas = []
    attack = max(3, round(5 * u))
    for area in areas:
        name_labels, badge_icons = placed[area.name]
        outside = bool(name_labels) and not area.polygon_fits(name_labels[0].box)
        if outside:
            box = name_labels[0].box
            near = (min(max(area.centre[0], box[0]), box[2]), min(max(area.centre[1], box[1]), box[3]))
            overlays.append(Shape("line", (near, area.centre), outline=INK, width=max(1.0, 1.2 * u)))
            overlays.append(Shape("ellipse", ((area.centre[0] - 2 * u - 1, area.centre[1] - 2 * u - 1),
                                              (area.centre[0] + 2 * u + 1, area.centre[1] + 2 * u + 1)), fill=INK))
        dots = [box for s in overlays if s.kind == "ellipse"
                for box in [(math.floor(s.points[0][0]) - 1, math.floor(s.points[0][1]) - 1,
                             math.ceil(s.points[1][0]) + 2, math.ceil(s.points[1][1]) + 2)]]
        final_areas.append(area.finish(outside, [lb.box for lb in labels] + [i.box for i in icons] + dots,
                                       round(6 * u), attack + 1 if area.space.highlight else 0))
    _keep(ground)
    legend_top = frame[3] + round(margin * 1.2)
    # What the lines mean, after the game's own key: only those the map shows.
    drawn = {"closed": bool(shapes["closed"]), "crossing": bool(crossings)}
    extra = tuple((kind, KEY_TEXT[kind]) for kind, shown in drawn.items() if shown and kind not in dict(picture.key))
    keyed = dataclasses.replace(picture, key=picture.key + extra)
    legend_labels, legend_icons, entries, legend_box = legend_and_key(keyed, styles, legend_top, width, margin, u)
    labels.extend(legend_labels)
    icons.extend(legend_icons)
    return MapLayout(
        width=width, height=legend_box[3] + margin, styles=styles, title=picture.title, header=header_box, grid=frame,
        legend_box=legend_box, cells=(), labels=tuple(labels), icons=tuple(icons), legend=tuple(entries),
        border=max(1, round(1.5 * u)), attack_border=attack, radius=max(2, round(6 * u)),
        pattern_step=max(5, round(12 * u)),
        info={"turn_text": picture.subtitle, "lines": tuple(t for _n, t in picture.info)},
        areas=tuple(a.area for a in final_areas), land=land, coast=ground.coast,
        land_borders=tuple(shapes["land"]),
        sea_borders=tuple(shapes["sea"]), overlays=tuple(overlays), crossings=tuple(crossings),
        ground_key=coast_cache.group_key((ground.key, *used)),
    )


@dataclasses.dataclass
class _Region:
    """What an area's cell and the land make of it, which depends only on the map file and the frame: kept across
    renders of the same map (``_ground``), with what was worked out over it (averages, grids, where names fit)."""

    region: Box | None
    room: int
    fits: Fits
    clearance: Clearance
    grids: dict[int, list[tuple[int, int]]] = dataclasses.field(default_factory=dict)
    names: dict[str, list[Label] | None] = dataclasses.field(default_factory=dict)  # by coast_cache.name_key
    mask: Image.Image | None = None


@dataclasses.dataclass
class _Ground:
    """The frame of one map at one width: the projection, the land cut to the frame and rasterised, the cells."""

    rings: object  # the drawing's rings, held so that their id in the key is not reused while the entry lives
    project: Callable[[Point], Point]
    frame: Box
    land: tuple[tuple[Point, ...], ...]
    mask: Image.Image
    coast: tuple[tuple[Point, ...], ...]
    groups: dict[tuple[object, ...], tuple[list[Cell], list[_Region | None]]] = dataclasses.field(default_factory=dict)
    key: str = ""  # the name of its file in the disk cache, and what was found there (bot/render/coast_cache.py)
    stored: dict[str, coast_cache.StoredGroup] = dataclasses.field(default_factory=dict)
    digests: dict[tuple[object, ...], str] = dataclasses.field(default_factory=dict)
    dirty: bool = False


_GROUNDS: OrderedDict[tuple[object, ...], _Ground] = OrderedDict()
GROUNDS_KEPT = 4  # a bot draws a few maps at a few widths: each entry is about a mask of the picture


def _ground(drawing: Drawing, width: int, margin: int, top: int) -> _Ground:
    key = (drawing, id(drawing.rings), width, margin, top)
    found = _GROUNDS.get(key)
    if found is not None:
        _GROUNDS.move_to_end(key)
        return found
    project, view_h = projection(drawing, margin, top, width - 2 * margin)
    frame = (margin, top, width - margin, top + round(view_h))
    fields = (drawing.land, drawing.view, drawing.reach, drawing.sea_reach, drawing.reaches, drawing.borders)
    name = coast_cache.frame_key(fields, drawing.rings, (width, margin, top))
    stored = coast_cache.load(coast_cache.cache_dir(), name)
    land, coast = stored.land, stored.coast
    if land is None or coast is None:
        # Cut to the frame: nothing of the coast is painted outside it.
        land = tuple(tuple(r) for r in (clip_ring([project(p) for p in ring], frame) for ring in drawing.rings)
                     if len(r) > 2)
        coast = tuple(coast_lines(land, frame))
    ground = _Ground(drawing.rings, project, frame, land, land_mask(land, (width, frame[3] + 1)), coast, key=name,
                     stored=stored.groups, dirty=stored.land is None)
    _GROUNDS[key] = ground
    while len(_GROUNDS) > GROUNDS_KEPT:
        _GROUNDS.popitem(last=False)
    return ground


class _Placing:
    """An area while the layout is built: its cell, its region and the test of a box against it."""

    def __init__(self, space: Space, cell: Cell, centre: Point, shape: _Region, style: SeatStyle | None,
                 area: Area) -> None:
        self.space, self.cell, self.centre, self.region, self.room = space, cell, centre, shape.region, shape.room
        self.fits, self.style, self.area, self.name = shape.fits, style, area, space.name
        self.edges: tuple[Shape, ...] = ()
        self.clearance = shape.clearance
        self.grids = shape.grids
        self.names = shape.names

    def places(self, k: int, cx: float | None = None, cy: float | None = None) -> list[tuple[int, int]]:
        """Points of a grid over the area, inside it, nearest (cx, cy) (its centre) first: a few hundred at most."""
        if self.region is None:
            return []
        cx, cy = self.centre if cx is None or cy is None else (cx, cy)
        if k not in self.grids:
            x0, y0, x1, y1 = self.region
            step = max(k, int(math.sqrt(self.room) / 9))
            # The padded mask read directly: each point of the grid is inside the region's box, so inside the mask.
            pixels = self.clearance.levels[0]
            self.grids[k] = [(x, y) for x in range(x0 + step // 2, x1, step) for y in range(y0 + step // 2, y1, step)
                             if pixels[x - x0 + 1, y - y0 + 1] == 255]
        first = [(round(cx), round(cy))] if self.clearance.inside(round(cx), round(cy)) else []
        return first + sorted(self.grids[k], key=lambda a: (a[0] - cx) ** 2 + (a[1] - cy) ** 2)

    def polygon_fits(self, box: Box) -> bool:
        return self.fits(box)

    def finish(self, outside: bool, occupied: list[Box], k: int, frame: int) -> "_Placing":
        sample = None
        near = self.region or (0, 0, 0, 0)
        nx0, ny0, nx1, ny1 = near
        occupied = [b for b in occupied if b[0] < nx1 and nx0 < b[2] and b[1] < ny1 and ny0 < b[3]]  # intersects()
        for ax, ay in self.places(k):
            patch = (ax - k // 2, ay - k // 2, ax + k // 2 + 1, ay + k // 2 + 1)
            # Clear of an attacked area's frame too, which runs inside its outline.
            room = (patch[0] - frame, patch[1] - frame, patch[2] + frame, patch[3] + frame)
            if not any(intersects(patch, box) for box in occupied) and self.clearance.may_fit(room) and self.fits(room):
                sample = patch
                break
        a = self.area
        self.area = Area(a.kind, a.name, a.polygon, a.centre, a.style, a.owner, a.attacked, sample, a.clip, a.tint,
                         outside, self.region, self.edges, self.cell.sides)
        return self


def _areas(picture: Picture, drawing: Drawing, ground: _Ground, styles: dict[str, SeatStyle], u: float,
           used: list[str]) -> tuple[list[_Placing], dict[str, list[Shape]], list[tuple[str, str]]]:
    project, mask, frame = ground.project, ground.mask, ground.frame
    spaces = [s for s in picture.spaces if s.at is not None]
    links = {frozenset(pair) for pair in picture.links}
    lines = {(b.a, b.b): (project(b.line[0]), project(b.line[1])) for b in drawing.borders}
    scale = project((drawing.view[0], drawing.view[3] - 1))[1] - project((drawing.view[0], drawing.view[3]))[1]
    out: list[_Placing] = []
    # "closed": the closed land borders that run over land somewhere (a diagram's run only across its gaps).
    shapes: dict[str, list[Shape]] = {"land": [], "sea": [], "overlays": [], "closed": []}
    by_name: dict[str, _Placing] = {}
    for sea in (False, True):
        group = [s for s in spaces if (s.kind == "sea") == sea]
        names = [s.name for s in group]
        centres = [project(s.at) for s in group]  # type: ignore[arg-type]  # at: set (spaces, above)
        reaches = [drawing.reach_of(s.name, sea) * scale for s in group]
        key = (sea, tuple(names), tuple(centres), tuple(reaches), tuple(sorted(lines.items())))
        if key not in ground.groups:
            digest = coast_cache.group_key(key)
            stored = ground.stored.get(digest)
            if stored is not None and len(stored.cells) == len(names):
                ground.groups[key] = ([Cell(points, sides) for points, sides in stored.cells],
                                      [None if r is None else _stored_shape(r) for r in stored.regions])
            else:
                made = cells(names, centres, reaches, frame, lines)
                ground.groups[key] = (made, [_shape(cell, mask, not sea) if len(cell.points) >= 3 else None
                                             for cell in made])
                ground.dirty = True
            ground.digests[key] = digest
        used.append(ground.digests[key])
        group_cells, group_shapes = ground.groups[key]
        tints = _tints(names, group_cells) if sea else {}
        for space, centre, cell, shape in zip(group, centres, group_cells, group_shapes):
            if shape is None:
                continue
            style = None if sea else style_of(styles, space.fill)
            area = Area("sea" if sea else "province", space.name, cell.points, centre,
                        "sea" if sea else style_of(styles, space.fill).name, space.fill, space.highlight, None,
                        "sea" if sea else "land", tints.get(space.name))
            placing = _Placing(space, cell, centre, shape, style, area)
            out.append(placing)
            by_name[space.name] = placing
        for name, cell in zip(names, group_cells):
            if name not in by_name:
                continue
            edges = []
            n = len(cell.points)
            for i in range(n):
                other = cell.sides[i]
                open_ = other is None or frozenset((name, other)) in links
                if sea:
                    colour, w = (SEA_BORDER, 1.2 * u) if open_ else (SEA_CLOSED, 2.6 * u)
                else:
                    colour, w = (BORDER, 1.4 * u) if open_ else (CLOSED, 3.4 * u)
                edge = Shape("line", (cell.points[i], cell.points[(i + 1) % n]), outline=colour, width=max(1.0, w))
                edges.append(edge)
                if other is None or other > name or other not in by_name:  # drawn once for the whole map
                    shapes["sea" if sea else "land"].append(edge)
                    if other is not None and not (open_ or sea or shapes["closed"]) and _touches(cell, other, mask, True):
                        shapes["closed"].append(edge)
            by_name[name].edges = tuple(edges)
    # Crossings and straits: linked areas of one kind whose shapes do not meet over their own ground.
    crossings: list[tuple[str, str]] = []
    for a_name, b_name in picture.links:
        a, b = by_name.get(a_name), by_name.get(b_name)
        if a is None or b is None or (a.space.kind == "sea") != (b.space.kind == "sea"):
            continue
        land = a.space.kind != "sea"
        if _touches(a.cell, b_name, mask, land) or _touches(b.cell, a_name, mask, land):
            continue
        crossings.append((a_name, b_name))
        start, end = _across(a.centre, b.centre, _inside(a, mask, land), _inside(b, mask, land))
        colour = CROSSING if land else STRAIT
        shapes["overlays"] += _dashes(start, end, 7 * u, 4 * u, colour, max(1.5, 2.4 * u))
    return out, shapes, crossings


def _shape(cell: Cell, mask: Image.Image, land: bool) -> _Region:
    region_mask, region, room = _region(cell, mask, land)
    return _Region(region, room, _fits(region_mask, region), Clearance(region_mask, region), mask=region_mask)


def _stored_shape(stored: coast_cache.StoredRegion) -> _Region:
    clearance = Clearance(stored.mask, stored.box)
    for r, level in stored.levels.items():
        if r:  # the mask itself is the average over a square of one pixel: the clearance has it
            clearance.images[r] = level
    return _Region(stored.box, stored.room, _fits(stored.mask, stored.box), clearance, names=dict(stored.names),
                   mask=stored.mask)


def _keep(ground: _Ground) -> None:
    """The ground's cells and regions written to the disk cache, when this render worked out any of them."""
    shapes = [shape for _cells, group in ground.groups.values() for shape in group if shape is not None]
    if not (ground.dirty or any(shape.clearance.added for shape in shapes)):
        return
    groups = {}
    for key, (group_cells, group_shapes) in ground.groups.items():
        regions: list[coast_cache.StoredRegion | None] = []
        for shape in group_shapes:
            if shape is None or shape.region is None or shape.mask is None:
                regions.append(None)
                continue
            levels: dict[int, Image.Image | coast_cache.Bits | None] = {
                r: image if image is None or isinstance(image, coast_cache.Bits)
                else image.point(lambda v: 255 if v == 255 else 0) for r, image in shape.clearance.images.items()}
            regions.append(coast_cache.StoredRegion(shape.region, shape.room, shape.mask, levels, shape.names))
        groups[ground.digests[key]] = coast_cache.StoredGroup([(c.points, c.sides) for c in group_cells], regions)
    coast_cache.save(coast_cache.cache_dir(), ground.key, groups, ground.land, ground.coast)
    ground.dirty = False
    for shape in shapes:
        shape.clearance.added = False


def _inside(p: _Placing, mask: Image.Image, land: bool) -> Callable[[Point], bool]:
    want = 255 if land else 0
    pixels: Any = mask.load()
    width, height = mask.size

    def inside(point: Point) -> bool:
        x, y = round(point[0]), round(point[1])
        return 0 <= x < width and 0 <= y < height and pixels[x, y] == want and inside_convex(point, p.cell.points)
    return inside


def _place_names(picture: Picture, areas: list[_Placing], mask: Image.Image, frame: Box,
                 styles: dict[str, SeatStyle], u: float) -> dict[str, tuple[list[Label], list[Icon]]]:
    largest, smallest = max(8, round(19 * u)), max(7, round(10 * u))
    badge_h, badge_small = max(10, round(22 * u)), max(8, round(14 * u))
    k = max(4, round(7 * u))
    placed: dict[str, tuple[list[Label], list[Icon]]] = {}
    beside: list[_Placing] = []
    for p in areas:
        block = None
        if p.region is not None:
            cx, cy = p.centre
            if not p.fits((round(cx) - 1, round(cy) - 1, round(cx) + 1, round(cy) + 1)):
                cx, cy = (p.region[0] + p.region[2]) / 2, (p.region[1] + p.region[3]) / 2
            # A name stays as near its centre as the shape allows.
            # Where a name goes depends on its text, its style and the area's shape: found once for each.
            key = coast_cache.name_key((p.space.name, p.space.kind, note_of(p.space), p.style, largest, smallest, k, cx,
                                        cy))
            if key not in p.names:
                if len(p.names) > 64:  # notes and marks change with the game: keep only the recent ones
                    p.names.clear()
                anchors = p.places(k, cx, cy)
                p.names[key] = name_inside(p.space, p.style, anchors, p.fits, p.room, largest, smallest, p.clearance)
                p.clearance.added = True  # the region has something new to keep on disk
            found = p.names[key]
            block = None if found is None else list(found)
        if block is None:
            beside.append(p)
            continue
        icons: list[Icon] = []
        badge_labels: list[Label] = []
        if p.space.glyphs:
            half = (p.region[2] - p.region[0]) // 2 if p.region else 0
            mid = (block[0].box[0] + block[0].box[2]) // 2
            bottom, top = max(lb.box[3] for lb in block), min(lb.box[1] for lb in block)
            gap = max(2, round(4 * u))
            icons, badge_labels = badges_in(p.space, styles, mid, bottom + gap, True, half, p.fits, badge_h,
                                            badge_small, gap)
            if not icons:
                icons, badge_labels = badges_in(p.space, styles, mid, top - gap, False, half, p.fits, badge_h,
                                                badge_small, gap)
        placed[p.name] = (block + badge_labels, icons)
    taken = [lb.box for labels, _i in placed.values() for lb in labels] + \
            [i.box for _l, icons in placed.values() for i in icons]
    for p in beside:
        region = p.region or (round(p.centre[0]) - 2, round(p.centre[1]) - 2, round(p.centre[0]) + 2, round(p.centre[1]) + 2)
        block = name_beside(p.space, p.style, region, taken, frame, smallest)
        taken += [lb.box for lb in block]
        placed[p.name] = (block, [])
    return {p.name: placed[p.name] for p in areas}
