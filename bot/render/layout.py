"""Where everything goes on a map: one layout, painted by both the PNG and the SVG renderer.

Pure: from a ``Picture`` (engine/ruleset.py: the game's map at a moment, in neutral shapes) it computes the
tiles of a grid map (here) or the areas of an area map (``area_layout.py``), the labels (with their boxes,
fitted so none overlaps another), the icons and the legend, and the shapes that draw each icon. Nothing here
draws; text is only measured, with Pillow's bundled font so the measures are the same on every machine.

Coordinates are pixels of the final image: (x0, y0, x1, y1) with x1 and y1 exclusive.
"""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import ImageFont

from bot.render.palette import (
    ATTACK_RED, INDEPENDENT, INK, SEA_INK, WHITE, NationStyle, RGB, mix, nation_styles, style_of,
)
from engine.ruleset import HIGHLIGHT, Glyph, Picture, Space, Standing

Box = tuple[int, int, int, int]
Point = tuple[float, float]

MIN_WIDTH = 480  # below this the legend and the names no longer fit
GOLD: RGB = (0xF2, 0xC1, 0x2E)
BADGE: RGB = (0xFD, 0xFC, 0xF8)
PIRATE: RGB = (0x1A, 0x1A, 0x1A)


# --- text ----------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    # Pillow's bundled Aileron (Pillow >= 10.1): no system font, same metrics everywhere.
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def stroke(size: int, bold: bool) -> float:
    """The stroke, in pixels, that fakes a bold weight: the bundled font has only a regular one."""
    return size / 36 if bold else 0.0


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return math.ceil(font(size).getlength(text) + 2 * stroke(size, bold))


def line_height(size: int) -> int:
    ascent, descent = font(size).getmetrics()
    return ascent + descent


def ascent(size: int) -> int:
    return font(size).getmetrics()[0]


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """The text in the characters the bundled font has (ASCII): accents dropped, other signs replaced."""
    decomposed = unicodedata.normalize("NFKD", text)
    out = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        if 32 <= ord(ch) < 127 or ch in "·°’":
            out.append(ch)
        elif ch in "—–":
            out.append("-")
        else:
            out.append("?")
    return "".join(out)


def _splits(words: Sequence[str], k: int, size: int, bold: bool) -> tuple[str, ...]:
    """The words in ``k`` lines, cut where the widest line is narrowest."""
    if k <= 1 or len(words) <= 1:
        return (" ".join(words),)
    best: tuple[str, ...] | None = None
    best_width = math.inf
    for i in range(1, len(words) - k + 2):
        head = " ".join(words[:i])
        rest = _splits(words[i:], k - 1, size, bold)
        width = max(text_width(head, size, bold), *(text_width(r, size, bold) for r in rest))
        if width < best_width:
            best, best_width = (head, *rest), width
    assert best is not None
    return best


def _cut(text: str, max_w: int, size: int, bold: bool) -> str:
    if text_width(text, size, bold) <= max_w:
        return text
    while len(text) > 1 and text_width(text + ".", size, bold) > max_w:
        text = text[:-1]
    return text.rstrip() + "."


def fit_text(text: str, max_w: int, max_h: int, largest: int, smallest: int, max_lines: int = 2,
             bold: bool = False) -> tuple[int, tuple[str, ...]]:
    """The largest size (and the line breaks) at which ``text`` fits the box; a font stays as large as it
    can by wrapping first, so neighbouring tiles keep the same size. Cut with a period if nothing fits."""
    words = printable(text).split() or [""]
    smallest = min(smallest, largest)
    for size in range(largest, smallest - 1, -1):
        lh = line_height(size)
        for k in range(1, min(max_lines, len(words)) + 1):
            if k * lh > max_h:
                break
            lines = _splits(words, k, size, bold)
            if max(text_width(line, size, bold) for line in lines) <= max_w:
                return size, lines
    k = max(1, min(max_lines, len(words), max_h // line_height(smallest)))
    lines = _splits(words, k, smallest, bold)
    return smallest, tuple(_cut(line, max_w, smallest, bold) for line in lines)


# --- the layout's parts ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Label:
    kind: str  # "title", "heading", "info", "province", "held", "sea", "badge", "legend", "legend-detail", "key"
    place: str  # what it belongs to: a province, a sea, a nation, a key item, "title"
    lines: tuple[str, ...]
    size: int
    box: Box  # everything the label covers: its plate when it has one
    line_boxes: tuple[Box, ...]  # where each line's text sits
    colour: RGB
    plate: RGB | None = None
    plate_outline: RGB | None = None
    bold: bool = False

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass(frozen=True)
class Cell:
    kind: str  # "province", "sea"
    name: str
    column: int
    row: int
    box: Box  # the tile
    style: str  # a nation, palette.INDEPENDENT, or "sea"
    owner: str | None = None
    attacked: bool = False
    sample: Box | None = None  # plain fill, clear of labels and icons: where the owner's colour shows


@dataclass(frozen=True)
class Area:
    """A space of an area map: its shape (a convex polygon around its centre) and who colours it."""

    kind: str  # "province" (land), "sea"
    name: str
    polygon: tuple[Point, ...]
    centre: Point
    style: str  # a power, palette.INDEPENDENT, or "sea"
    owner: str | None = None
    attacked: bool = False
    sample: Box | None = None  # plain fill around the centre, clear of labels and icons

    @property
    def box(self) -> Box:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys))


@dataclass(frozen=True)
class Icon:
    # "capital", "fortification", "suburbs", "temple", "battle", "fleet", "pirates", "more" (fleets that did not
    # fit), and in the legend "swatch" and "attacked"
    kind: str
    place: str  # the province or sea, or "legend"
    box: Box
    nation: str | None = None
    count: int = 0
    compact: bool = False  # a badge drawn without its glyph, to make room in a crowded sea


@dataclass(frozen=True)
class LegendEntry:
    nation: str  # a nation, or palette.INDEPENDENT
    player: str | None
    provinces: int
    alive: bool
    swatch: Box
    name: Label
    detail: Label


@dataclass(frozen=True)
class Shape:
    """A drawing primitive both painters know: "polygon", "rect", "ellipse" or "line" (a polyline)."""

    kind: str
    points: tuple[Point, ...]
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 0.0
    radius: float = 0.0  # rounded corners of a rect


@dataclass(frozen=True)
class MapLayout:
    width: int
    height: int
    styles: dict[str, NationStyle]
    title: str
    header: Box
    grid: Box
    legend_box: Box
    cells: tuple[Cell, ...]
    labels: tuple[Label, ...]
    icons: tuple[Icon, ...]
    legend: tuple[LegendEntry, ...]
    border: int  # a tile's outline width
    attack_border: int
    radius: int  # tiles' rounded corners
    pattern_step: int  # spacing of the tiles' hatching
    info: dict[str, Any] = field(default_factory=dict)  # the subtitle and the info lines: what the header says
    areas: tuple["Area", ...] = ()  # an area map's spaces (a grid map has ``cells``)
    links: tuple[Shape, ...] = ()  # an area map's adjacencies, drawn under the names

    def labels_of(self, kind: str) -> list[Label]:
        return [label for label in self.labels if label.kind == kind]

    def icons_at(self, place: str) -> list[Icon]:
        return [icon for icon in self.icons if icon.place == place]


def intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def overlapping_labels(layout: MapLayout) -> list[tuple[Label, Label]]:
    labels = sorted(layout.labels, key=lambda lb: lb.box)
    out = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if b.box[0] >= a.box[2]:
                break
            if intersects(a.box, b.box):
                out.append((a, b))
    return out


def _label(kind: str, place: str, lines: tuple[str, ...], size: int, x: int, y: int, colour: RGB, *,
           align: str = "center", width: int | None = None, pad_x: int = 0, pad_y: int = 0,
           plate: RGB | None = None, plate_outline: RGB | None = None, bold: bool = False) -> Label:
    """A label whose box has its top-left corner at (x, y); lines centred in ``width`` or left-aligned."""
    lh = line_height(size)
    widths = [text_width(line, size, bold) for line in lines]
    inner_w = width if width is not None else max(widths)
    box = (x, y, x + inner_w + 2 * pad_x, y + lh * len(lines) + 2 * pad_y)
    line_boxes = []
    for i, w in enumerate(widths):
        lx = x + pad_x + ((inner_w - w) // 2 if align == "center" else 0)
        ly = y + pad_y + i * lh
        line_boxes.append((lx, ly, lx + w, ly + lh))
    return Label(kind, place, lines, size, box, tuple(line_boxes), colour, plate, plate_outline, bold)


def _centred_label(kind: str, place: str, lines: tuple[str, ...], size: int, cx: int, y: int, colour: RGB,
                   **kw: Any) -> Label:
    pad_x = kw.get("pad_x", 0)
    w = max(text_width(line, size, kw.get("bold", False)) for line in lines) + 2 * pad_x
    return _label(kind, place, lines, size, cx - w // 2, y, colour, **kw)


# --- the map ---------------------------------------------------------------------------------------------------------

def picture_styles(picture: Picture) -> dict[str, NationStyle]:
    """The powers' styles: from the colours the game's data asks for, in the picture's fixed order of powers."""
    asked = dict(picture.colours)
    powers = list(picture.powers) or list(dict.fromkeys(s.fill for s in picture.spaces if s.fill))
    return nation_styles({p: {"colour": asked.get(p)} for p in powers})


def build_layout(picture: Picture, width: int = 1600) -> MapLayout:
    """The layout of ``picture``, ``width`` pixels wide (at least 480): a grid map's tiles, or an area map's."""
    if picture.grid is None:
        from bot.render.area_layout import build_area_layout

        return build_area_layout(picture, width)
    return _grid_layout(picture, width)


def header(picture: Picture, width: int, u: float, margin: int) -> tuple[list[Label], Box]:
    """The title and the subtitle at the left, the picture's info lines at the right."""
    labels: list[Label] = []
    header_top = margin
    title_size = max(14, round(38 * u))
    info_size = max(10, round(17 * u))
    right_lines = tuple(printable(t) for _name, t in picture.info if t)
    places = [name for name, t in picture.info if t]
    right_w = max((text_width(t, info_size) for t in right_lines), default=0)
    left_room = width - 2 * margin - right_w - round(24 * u)
    heading = printable(f"{picture.title} · {picture.subtitle}" if picture.subtitle else picture.title)
    size = title_size
    while size > 10 and text_width(heading, size, True) > left_room:
        size -= 1
    title_label = _label("title", "title", (heading,), size, margin, header_top, INK, bold=True)
    labels.append(title_label)
    if right_lines:
        y = header_top + max(0, (line_height(size) - line_height(info_size) * len(right_lines)) // 2)
        for i, text in enumerate(right_lines):
            w = text_width(text, info_size)
            labels.append(_label("info", places[i], (text,), info_size, width - margin - w,
                                 y + i * line_height(info_size), INK))
    header_bottom = max(lb.box[3] for lb in labels)
    return labels, (0, 0, width, header_bottom + margin // 2)


def legend_and_key(picture: Picture, styles: Mapping[str, NationStyle], top: int, width: int, margin: int,
                   u: float) -> tuple[list[Label], list[Icon], list[LegendEntry], Box]:
    """The powers with their players and counts, then what the marks mean, in a box from ``top`` down."""
    labels: list[Label] = []
    icons: list[Icon] = []
    entries = _legend_entries(picture, styles, margin, top, width - 2 * margin, u)
    for entry in entries:
        labels.extend((entry.name, entry.detail))
        icons.append(Icon("swatch", "legend", entry.swatch, entry.nation))
    key_top = (max(e.swatch[3] for e in entries) if entries else top) + round(16 * u)
    key_labels, key_icons, key_bottom = _key(picture.key, margin, key_top, width - 2 * margin, u, styles)
    labels.extend(key_labels)
    icons.extend(key_icons)
    legend_box = (margin - round(12 * u), top - round(12 * u), width - margin + round(12 * u),
                  key_bottom + round(12 * u))
    return labels, icons, entries, legend_box


def _grid_layout(picture: Picture, width: int) -> MapLayout:
    assert picture.grid is not None
    columns, rows = picture.grid
    width = max(MIN_WIDTH, int(width))
    styles = picture_styles(picture)
    u = width / 1600  # scale of the header and legend, which do not depend on the grid
    margin = max(8, round(24 * u))
    # A small map keeps tiles of a sensible size, centred, rather than a few giant ones.
    cell = max(24, min((width - 2 * margin) // max(1, columns), round(width * 0.12)))
    grid_w = cell * columns
    gx = (width - grid_w) // 2
    labels, header_box = header(picture, width, u, margin)
    icons: list[Icon] = []
    gy = header_box[3] + margin // 2
    grid = (gx, gy, gx + grid_w, gy + cell * rows)

    # Tiles.
    gap = max(2, cell // 36)
    tile = cell - gap
    pad = max(3, round(tile * 0.065))
    border = max(1, round(tile / 55))
    attack = max(3, pad - 1)
    cells: list[Cell] = []

    def tile_box(col: int, row: int) -> Box:
        x0, y0 = gx + col * cell + gap // 2, gy + row * cell + gap // 2
        return x0, y0, x0 + tile, y0 + tile

    name_largest = max(8, round(tile * 0.15))
    name_smallest = max(7, round(tile * 0.085))
    seas = []
    for space in picture.spaces:
        if space.kind == "sea":
            seas.append(space)
            continue
        if not space.cells:
            continue
        col, row = space.cells[0]
        box = tile_box(col, row)
        style = style_of(styles, space.fill).name
        tile_labels, tile_icons = _province_contents(space, box, pad, name_largest, name_smallest, styles[style])
        labels.extend(tile_labels)
        icons.extend(tile_icons)
        occupied = [lb.box for lb in tile_labels] + [ic.box for ic in tile_icons]
        cells.append(Cell("province", space.name, col, row, box, style, space.fill, space.highlight,
                          _sample(box, pad, occupied)))
    for space in seas:
        for i, (col, row) in enumerate(space.cells):
            box = tile_box(col, row)
            if i == 0:  # a sea over several cells is named, and its ships shown, once
                tile_labels, tile_icons = _sea_contents(space.name, box, pad, name_largest, name_smallest, styles,
                                                        space.glyphs)
                labels.extend(tile_labels)
                icons.extend(tile_icons)
            cells.append(Cell("sea", space.name, col, row, box, "sea"))

    # Legend: the powers with their players and counts, then what the marks mean.
    legend_top = grid[3] + round(margin * 1.2)
    legend_labels, legend_icons, entries, legend_box = legend_and_key(picture, styles, legend_top, width, margin, u)
    labels.extend(legend_labels)
    icons.extend(legend_icons)
    height = legend_box[3] + margin
    return MapLayout(
        width=width, height=height, styles=styles, title=picture.title, header=header_box, grid=grid,
        legend_box=legend_box, cells=tuple(cells), labels=tuple(labels), icons=tuple(icons), legend=tuple(entries),
        border=border, attack_border=attack, radius=max(2, tile // 14), pattern_step=max(5, round(tile / 9)),
        info={"turn_text": picture.subtitle, "lines": tuple(t for _n, t in picture.info)},
    )


def _sample(box: Box, pad: int, occupied: list[Box]) -> Box | None:
    k = max(4, (box[2] - box[0]) // 11)
    x0, y0, x1, y1 = box[0] + pad, box[1] + pad, box[2] - pad - k, box[3] - pad - k
    candidates = [(x0, (y0 + y1) // 2), (x1, (y0 + y1) // 2), (x0, y1), (x1, y1), (x0, y0), (x1, y0),
                  ((x0 + x1) // 2, (y0 + y1) // 2)]
    for x, y in candidates:
        patch = (x, y, x + k, y + k)
        if not any(intersects(patch, other) for other in occupied):
            return patch
    return None


def _flow_icons(kinds: list[str], place: str, zone: Box, preferred: int, gap: int, nation: str | None) -> list[Icon]:
    """Icons in one centred row at the bottom of the zone, or two rows when one would make them too small."""
    if not kinds:
        return []
    zw, zh = zone[2] - zone[0], zone[3] - zone[1]
    n = len(kinds)
    one_row = min(preferred, (zw - (n - 1) * gap) // n, zh)
    per_row = math.ceil(n / 2)
    two_rows = min(preferred, (zw - (per_row - 1) * gap) // per_row, (zh - gap) // 2)
    rows = [kinds] if one_row >= two_rows or n < 3 else [kinds[:per_row], kinds[per_row:]]
    size = max(4, one_row if len(rows) == 1 else two_rows)
    out = []
    y = zone[3] - len(rows) * size - (len(rows) - 1) * gap
    for row in rows:
        row_w = len(row) * size + (len(row) - 1) * gap
        x = zone[0] + (zw - row_w) // 2
        for kind in row:
            out.append(Icon(kind, place, (x, y, x + size, y + size), nation))
            x += size + gap
        y += size + gap
    return out


def note_of(space: Space) -> str:
    """The line under a space's name: its note, then its marks."""
    return " · ".join(t for t in (space.note, *space.marks) if t)


def _province_contents(space: Space, box: Box, pad: int, largest: int, smallest: int, style: NationStyle
                       ) -> tuple[list[Label], list[Icon]]:
    name = space.name
    tile = box[2] - box[0]
    plate_px = max(2, tile // 32)
    plate_py = max(1, tile // 70)
    max_w = tile - 2 * pad - 2 * plate_px
    size, lines = fit_text(name, max_w, round(tile * 0.40) - 2 * plate_py, largest, smallest, max_lines=2)
    cx = (box[0] + box[2]) // 2
    plate = mix(style.fill, WHITE, 0.86)
    label = _centred_label("province", name, lines, size, cx, box[1] + pad, INK, pad_x=plate_px, pad_y=plate_py,
                           plate=plate, plate_outline=style.ink)
    labels = [label]
    bottom = label.box[3]
    note = note_of(space)
    if note:
        hsize, hlines = fit_text(note, max_w, line_height(max(7, size - 3)) * 2, max(7, size - 3),
                                 max(6, smallest - 2), max_lines=2)
        held_label = _centred_label("held", name, hlines, hsize, cx, bottom + max(1, tile // 60), INK,
                                    pad_x=plate_px, pad_y=0, plate=plate, plate_outline=style.ink)
        labels.append(held_label)
        bottom = held_label.box[3]
    kinds = [g.kind for g in space.glyphs]
    gap = max(2, tile // 40)
    zone = (box[0] + pad, bottom + gap, box[2] - pad, box[3] - pad)
    icons = _flow_icons(kinds, name, zone, round(tile * 0.25), gap, space.fill)
    return labels, icons


BadgeItem = tuple[str, str | None, int, str]  # kind, power, count, text


def badge_items(glyphs: Sequence[Glyph], styles: Mapping[str, NationStyle]) -> tuple[list[BadgeItem], list[BadgeItem]]:
    """A space's glyphs as badges: the fleets (with their power's tag and count), then the others."""
    fleets: list[BadgeItem] = []
    specials: list[BadgeItem] = []
    for g in glyphs:
        if g.kind == "fleet":
            if g.count:
                fleets.append(("fleet", g.power, int(g.count), f"{style_of(styles, g.power).tag} {g.count}"))
        elif g.kind == "pirates":
            specials.append(("pirates", None, 0, "PIRATES"))
        else:
            specials.append((g.kind, g.power, int(g.count), ""))
    return fleets, specials


def _sea_contents(name: str, box: Box, pad: int, largest: int, smallest: int, styles: Mapping[str, NationStyle],
                  glyphs: Sequence[Glyph]) -> tuple[list[Label], list[Icon]]:
    tile = box[2] - box[0]
    max_w = tile - 2 * pad
    cx = (box[0] + box[2]) // 2
    fleet_items, specials = badge_items(glyphs, styles)
    items = fleet_items + specials
    gap = max(2, tile // 40)
    preferred = max(8, round(tile * 0.2))
    smallest_badge = max(8, round(tile * 0.15))
    # The ships matter more than the sea's name, and the ships' count more than their drawing: a crowded
    # sea first drops the ship from its badges, then takes a smaller name, then smaller badges.
    attempts = [(size, preferred, compact) for size in range(largest - 1, smallest - 1, -1) for compact in (False, True)]
    attempts += [(smallest, h, True) for h in range(preferred - 1, smallest_badge - 1, -1)]
    label: Label | None = None
    placed: list[tuple[BadgeItem, Box, Box, int]] | None = None
    for size_cap, badge_h, compact in attempts:
        size, lines = fit_text(name, max_w, round(tile * 0.36), size_cap, min(smallest, size_cap), max_lines=2)
        label = _centred_label("sea", name, lines, size, cx, box[1] + pad, SEA_INK)
        if not items:
            return [label], []
        zone = (box[0] + pad, label.box[3] + max(2, tile // 30), box[2] - pad, box[3] - pad)
        placed = _place_badges(items, zone, badge_h, gap, compact)
        if placed is not None:
            break
    assert label is not None
    if placed is None:
        # Too many for the tile at this size: the first fleets, a "+N" for the rest, then pirates and battle.
        for k in range(len(fleet_items) - 1, -1, -1):
            more = ("more", None, len(fleet_items) - k, f"+{len(fleet_items) - k}")
            placed = _place_badges(fleet_items[:k] + [more] + specials, zone, smallest_badge, gap, True)
            if placed is not None:
                break
        placed = placed or []
    labels = [label]
    icons, badge_labels = badges_placed(name, placed, styles)
    return labels + badge_labels, icons


def badges_placed(place: str, placed: Sequence[tuple[BadgeItem, Box, Box, int]], styles: Mapping[str, NationStyle]
                  ) -> tuple[list[Icon], list[Label]]:
    icons: list[Icon] = []
    labels: list[Label] = []
    for (kind, owner, count, text), badge, text_box, tsize in placed:
        compact = bool(text) and text_box[0] - badge[0] < (badge[3] - badge[1]) // 2
        icons.append(Icon(kind, place, badge, owner, count, compact))
        if text:
            colour = WHITE if kind == "pirates" else (INK if kind == "more" else style_of(styles, owner).text)
            labels.append(_label("badge", place, (text,), tsize, text_box[0], text_box[1], colour))
    return icons, labels


def _place_badges(items: list[BadgeItem], zone: Box, h: int, gap: int, compact: bool = False
                  ) -> list[tuple[BadgeItem, Box, Box, int]] | None:
    """Badges in centred rows filling the zone from the bottom up; None when they do not fit.

    A badge is a square glyph (ship, skull, swords) then its text; ``compact`` badges with a text keep
    only a sliver of their glyph's room, so that a crowded sea can show every nation's fleets."""
    tsize = max(6, round(h * 0.62))
    zw = zone[2] - zone[0]
    widths, leads = [], []
    for kind, _nation, _count, text in items:
        lead = h - h // 12 if not (compact and text) and kind != "more" else h // 3
        leads.append(lead)
        widths.append(lead + (text_width(text, tsize) + h // 4 if text else h // 12))
    if max(widths) > zw:
        return None
    rows: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if rows[-1] and used + gap + w > zw:
            rows.append([])
            used = 0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append(i)
    total_h = len(rows) * h + (len(rows) - 1) * gap
    if total_h > zone[3] - zone[1]:
        return None
    out = []
    y = zone[3] - total_h
    lh = line_height(tsize)
    for row in rows:
        row_w = sum(widths[i] for i in row) + gap * (len(row) - 1)
        x = zone[0] + (zw - row_w) // 2
        for i in row:
            badge = (x, y, x + widths[i], y + h)
            text_box = (x + leads[i], y + (h - lh) // 2, x + widths[i] - h // 6, y + (h - lh) // 2 + lh)
            out.append((items[i], badge, text_box, tsize))
            x += widths[i] + gap
        y += h + gap
    return out


def _legend_entries(picture: Picture, styles: Mapping[str, NationStyle], x0: int, y0: int, total_w: int,
                    u: float) -> list[LegendEntry]:
    standings = picture.standings or tuple(
        Standing(None if power == INDEPENDENT or power not in styles else power, text) for power, text in picture.legend)
    rows_data: list[tuple[str, str | None, int, bool, str]] = [
        (style_of(styles, s.power).name, s.player, s.count, s.alive, s.text) for s in standings]
    if not rows_data:
        return []
    n = len(rows_data)
    rows = math.ceil(n / 4)
    cols = math.ceil(n / rows)
    col_w = total_w // cols
    swatch = max(12, round(40 * u))
    name_size = max(9, round(20 * u))
    detail_size = max(8, round(15 * u))
    row_h = swatch + round(14 * u)
    entries = []
    for i, (name, player, count, alive, detail) in enumerate(rows_data):
        cx = x0 + (i % cols) * col_w
        cy = y0 + (i // cols) * row_h
        sw = (cx, cy, cx + swatch, cy + swatch)
        text_x = cx + swatch + round(10 * u)
        room = col_w - swatch - round(22 * u)
        nsize, nlines = fit_text(name, room, line_height(name_size), name_size, 7, max_lines=1, bold=True)
        dsize, dlines = fit_text(detail, room, line_height(detail_size), detail_size, 6, max_lines=1)
        text_h = line_height(nsize) + line_height(dsize)
        ty = cy + (swatch - text_h) // 2
        colour = INK if alive else mix(INK, WHITE, 0.45)
        name_label = _label("legend", name, nlines, nsize, text_x, ty, colour, bold=True)
        detail_label = _label("legend-detail", name, dlines, dsize, text_x, ty + line_height(nsize), colour)
        entries.append(LegendEntry(name, player, count, alive, sw, name_label, detail_label))
    return entries


def _key(items_given: Sequence[tuple[str, str]], x0: int, y0: int, total_w: int, u: float,
         styles: Mapping[str, NationStyle]) -> tuple[list[Label], list[Icon], int]:
    size = max(8, round(15 * u))
    icon = max(10, round(24 * u))
    gap = round(8 * u)
    spacing = round(26 * u)
    items = []
    nation = next((n for n in styles if n != INDEPENDENT), None)
    for given, text in items_given:
        kind = "attacked" if given == HIGHLIGHT else given  # the legend's icon for a highlighted space
        w = icon
        if kind in ("fleet", "pirates"):
            sample = f"{styles[nation].tag if nation else 'ABC'} 2" if kind == "fleet" else "PIRATES"
            w = icon + text_width(sample, max(6, round(icon * 0.62))) + icon // 3
        items.append((kind, text, w, w + gap + text_width(text, size)))
    labels: list[Label] = []
    icons: list[Icon] = []
    x, y = x0, y0
    lh = line_height(size)
    row_h = max(icon, lh)
    if not items:
        return labels, icons, y0 - round(16 * u)
    for kind, text, w, total in items:
        if x > x0 and x + total > x0 + total_w:
            x, y = x0, y + row_h + round(8 * u)
        ib = (x, y + (row_h - icon) // 2, x + w, y + (row_h - icon) // 2 + icon)
        icons.append(Icon(kind, "legend", ib, nation if kind == "fleet" else None, 2 if kind == "fleet" else 0))
        if kind in ("fleet", "pirates"):
            tsize = max(6, round(icon * 0.62))
            badge_text = f"{styles[nation].tag if nation else 'ABC'} 2" if kind == "fleet" else "PIRATES"
            tl = line_height(tsize)
            colour = WHITE if kind == "pirates" else (styles[nation].text if nation else INK)
            labels.append(_label("badge", "legend", (badge_text,), tsize, ib[0] + icon, ib[1] + (icon - tl) // 2, colour))
        labels.append(_label("key", kind, (printable(text),), size, x + w + gap, y + (row_h - lh) // 2, INK))
        x += total + spacing
    return labels, icons, y + row_h


# --- icon shapes ------------------------------------------------------------------------------------------------------

def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> tuple[Point, ...]:
    out = []
    for i in range(points * 2):
        angle = -math.pi / 2 + i * math.pi / points
        rr = r if i % 2 == 0 else r * inner
        out.append((cx + rr * math.cos(angle), cy + rr * math.sin(angle)))
    return tuple(out)


def _rotated(points: Sequence[Point], cx: float, cy: float, angle: float) -> tuple[Point, ...]:
    c, s = math.cos(angle), math.sin(angle)
    return tuple((cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in points)


def _badge(box: Box, fill: RGB, outline: RGB, line: float) -> Shape:
    x0, y0, x1, y1 = box
    return Shape("rect", ((x0, y0), (x1 - 1, y1 - 1)), fill, outline, line, radius=(y1 - y0) * 0.28)


def _ship(x: float, y: float, s: float, hull: RGB, sail: RGB, line: float, ink: RGB) -> list[Shape]:
    """A galley with a square sail, in the square (x, y, s)."""
    return [
        Shape("polygon", ((x + s * 0.5, y + s * 0.14), (x + s * 0.5, y + s * 0.6), (x + s * 0.2, y + s * 0.6)),
              sail, ink, line * 0.7),
        Shape("polygon", ((x + s * 0.56, y + s * 0.2), (x + s * 0.84, y + s * 0.6), (x + s * 0.56, y + s * 0.6)),
              sail, ink, line * 0.7),
        Shape("polygon", ((x + s * 0.08, y + s * 0.66), (x + s * 0.92, y + s * 0.66), (x + s * 0.76, y + s * 0.86),
                          (x + s * 0.24, y + s * 0.86)), hull, ink, line * 0.7),
    ]


def _swords(cx: float, cy: float, r: float, colour: RGB) -> list[Shape]:
    shapes = []
    for angle in (math.pi / 4, -math.pi / 4):
        w = r * 0.13
        blade = ((cx - w, cy - r * 0.95), (cx + w, cy - r * 0.95), (cx + w, cy + r * 0.45), (cx - w, cy + r * 0.45))
        tip = ((cx - w, cy - r * 0.95), (cx, cy - r * 1.15), (cx + w, cy - r * 0.95))
        guard = ((cx - r * 0.38, cy + r * 0.42), (cx + r * 0.38, cy + r * 0.42), (cx + r * 0.38, cy + r * 0.58),
                 (cx - r * 0.38, cy + r * 0.58))
        grip = ((cx - w * 0.9, cy + r * 0.58), (cx + w * 0.9, cy + r * 0.58), (cx + w * 0.9, cy + r * 0.95),
                (cx - w * 0.9, cy + r * 0.95))
        for part in (blade, tip, guard, grip):
            shapes.append(Shape("polygon", _rotated(part, cx, cy, angle), colour))
    return shapes


def icon_shapes(icon: Icon, styles: Mapping[str, NationStyle], attack_border: int = 3) -> list[Shape]:
    """The primitives that draw an icon: the same in the PNG and in the SVG."""
    x0, y0, x1, y1 = icon.box
    w, h = x1 - x0, y1 - y0
    s = min(w, h)
    line = max(1.0, s / 16)
    cx, cy = x0 + w / 2, y0 + h / 2
    kind = icon.kind
    if kind == "swatch":
        return []  # painted like a tile, with the nation's pattern
    if kind == "attacked":
        return [Shape("rect", ((x0, y0), (x1 - 1, y1 - 1)), mix(INK, WHITE, 0.8), INK, line),
                Shape("rect", ((x0 + line, y0 + line), (x1 - 1 - line, y1 - 1 - line)), None, ATTACK_RED, max(2.0, s / 6))]
    if kind == "more":
        return [_badge(icon.box, BADGE, INK, line)]
    if kind in ("fleet", "pirates"):
        if kind == "fleet":
            st = style_of(styles, icon.nation)
            shapes = [_badge(icon.box, st.fill, st.ink if st.text == INK else INK, line)]
            if icon.compact:
                return shapes
            shapes += _ship(x0 + h * 0.08, y0 + h * 0.04, h * 0.9, INK if st.text == INK else WHITE, BADGE, line, INK)
            return shapes
        shapes = [_badge(icon.box, PIRATE, INK, line)]
        if icon.compact:
            return shapes
        hx, hy, r = x0 + h * 0.5, y0 + h * 0.45, h * 0.27
        shapes.append(Shape("ellipse", ((hx - r, hy - r), (hx + r, hy + r * 0.9)), WHITE))
        shapes.append(Shape("rect", ((hx - r * 0.6, hy + r * 0.5), (hx + r * 0.6, hy + r * 1.35)), WHITE))
        for ex in (-0.42, 0.42):
            e = r * 0.3
            shapes.append(Shape("ellipse", ((hx + ex * r - e, hy - e * 0.6), (hx + ex * r + e, hy + e * 1.4)), PIRATE))
        return shapes
    if kind == "battle":
        return [Shape("ellipse", ((x0, y0), (x1 - 1, y1 - 1)), ATTACK_RED, INK, line),
                *_swords(cx, cy + s * 0.02, s * 0.36, WHITE)]
    shapes = [_badge(icon.box, BADGE, INK, line)]
    if kind == "capital":
        shapes.append(Shape("polygon", _star(cx, cy + s * 0.03, s * 0.42), GOLD, INK, line))
    elif kind == "fortification":
        # A wall with three merlons and a gate.
        left, right, top, bottom = x0 + s * 0.16, x1 - s * 0.16, y0 + s * 0.22, y1 - s * 0.18
        m = (right - left) / 5
        outline = [(left, bottom), (left, top)]
        for i in range(5):
            yy = top if i % 2 == 0 else top + s * 0.14
            outline += [(left + i * m, yy), (left + (i + 1) * m, yy)]
        outline += [(right, top), (right, bottom)]
        shapes.append(Shape("polygon", tuple(outline), mix(INK, WHITE, 0.35), INK, line * 0.8))
        gw = s * 0.12
        shapes.append(Shape("rect", ((cx - gw, bottom - s * 0.26), (cx + gw, bottom)), INK, radius=gw * 0.9))
    elif kind == "suburbs":
        for hx, hs in ((x0 + s * 0.12, s * 0.4), (x0 + s * 0.48, s * 0.42)):
            base = y1 - s * 0.18
            body = ((hx, base), (hx, base - hs * 0.62), (hx + hs / 2, base - hs * 1.12), (hx + hs, base - hs * 0.62),
                    (hx + hs, base))
            shapes.append(Shape("polygon", body, mix(INK, WHITE, 0.55), INK, line * 0.8))
            dw = hs * 0.18
            shapes.append(Shape("rect", ((hx + hs / 2 - dw, base - hs * 0.36), (hx + hs / 2 + dw, base)), INK))
    elif kind == "temple":
        left, right = x0 + s * 0.14, x1 - s * 0.14
        top, roof, base = y0 + s * 0.16, y0 + s * 0.38, y1 - s * 0.16
        shapes.append(Shape("polygon", ((left - s * 0.02, roof), (cx, top), (right + s * 0.02, roof)), INK))
        shapes.append(Shape("rect", ((left, base - s * 0.08), (right, base)), INK))
        cw = (right - left) / 7
        for i in range(4):
            colx = left + cw * (0.5 + 2 * i)
            shapes.append(Shape("rect", ((colx, roof + s * 0.04), (colx + cw, base - s * 0.1)), INK))
    return shapes


def pattern_lines(box: Box, pattern: str, step: int) -> list[tuple[Point, Point]]:
    """The strokes of a hatching pattern over a box, as segments; dots are returned as zero-length segments."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    out: list[tuple[Point, Point]] = []
    if pattern in ("diagonal", "crosshatch"):
        for k in range(-h, w, step):
            out.append(((x0 + k, y1), (x0 + k + h, y0)))
    if pattern in ("antidiagonal", "crosshatch"):
        for k in range(0, w + h, step):
            out.append(((x0 + k - h, y0), (x0 + k, y1)))
    if pattern in ("horizontal", "grid"):
        for y in range(y0 + step // 2, y1, step):
            out.append(((x0, y), (x1, y)))
    if pattern in ("vertical", "grid"):
        for x in range(x0 + step // 2, x1, step):
            out.append(((x, y0), (x, y1)))
    if pattern in ("dots", "checks"):
        spacing = step if pattern == "dots" else step * 2
        for j, y in enumerate(range(y0 + spacing // 2, y1, spacing)):
            shift = spacing // 2 if j % 2 else 0
            for x in range(x0 + spacing // 2 + shift, x1, spacing):
                out.append(((x, y), (x, y)))
    if pattern == "waves":
        for y in range(y0 + step // 2, y1, step):
            pts = [(x0 + i * step / 2, y + (step / 5 if i % 2 else -step / 5)) for i in range(int(w * 2 / step) + 2)]
            out.extend(zip(pts[:-1], pts[1:]))
    return out
