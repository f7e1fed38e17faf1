"""The parts a map layout is made of (labels, tiles, areas, icons, legend rows, shapes) and the box arithmetic
that keeps them apart. Coordinates are pixels of the final image: (x0, y0, x1, y1) with x1 and y1 exclusive."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.render.palette import SeatStyle, RGB
from bot.render.text import line_height, text_width
from engine.ruleset import Space

Box = tuple[int, int, int, int]
Point = tuple[float, float]

MIN_WIDTH = 480  # below this the legend and the names no longer fit

@dataclass(frozen=True)
class Label:
    kind: str  # "title", "heading", "info", "province", "held", "sea", "badge", "legend", "legend-detail", "key"
    place: str  # what it belongs to: a province, a sea, a seat, a key item, "title"
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
    style: str  # a seat, palette.INDEPENDENT, or "sea"
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
    # Over a coastline: "land" or "sea", the part of the polygon (its cell) that is the area; and a sea's tint.
    clip: str = ""
    tint: RGB | None = None
    label_outside: bool = False  # too small for its name: the name stands beside it, with a leader line
    extent: Box | None = None  # the box of the area itself (its cell's land or sea)
    edges: tuple[Shape, ...] = ()  # its cell's borders, each in its kind's colour and width
    neighbours: tuple[str | None, ...] = ()  # who is across each of ``edges`` (None: the frame, or the area's reach)

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
    seat: str | None = None
    count: int = 0
    compact: bool = False  # a badge drawn without its glyph, to make room in a crowded sea


@dataclass(frozen=True)
class LegendEntry:
    seat: str  # a seat, or palette.INDEPENDENT
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
    styles: dict[str, SeatStyle]
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
    # An area map over a coastline: the land's rings (pixels), the borders drawn on land and on sea (each cut to
    # its own), and what is drawn over the areas (crossings, straits, leader lines), all under the names.
    land: tuple[tuple[Point, ...], ...] = ()
    coast: tuple[tuple[Point, ...], ...] = ()  # the land's rings as lines, without where the frame cut them
    land_borders: tuple[Shape, ...] = ()
    sea_borders: tuple[Shape, ...] = ()
    overlays: tuple[Shape, ...] = ()
    crossings: tuple[tuple[str, str], ...] = ()  # neighbours by the rules whose shapes do not meet: joined by dashes
    # A hash of what the frame, the coast and the areas' cells were made from (bot/render/coast_layers.py names the
    # layers painted from them by it); empty: nothing names them.
    ground_key: str = ""

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


def label_at(kind: str, place: str, lines: tuple[str, ...], size: int, x: int, y: int, colour: RGB, *,
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


def centred_label(kind: str, place: str, lines: tuple[str, ...], size: int, cx: int, y: int, colour: RGB,
                   **kw: Any) -> Label:
    pad_x = kw.get("pad_x", 0)
    w = max(text_width(line, size, kw.get("bold", False)) for line in lines) + 2 * pad_x
    return label_at(kind, place, lines, size, cx - w // 2, y, colour, **kw)


# --- the map ---------------------------------------------------------------------------------------------------------
def note_of(space: Space) -> str:
    """The line under a space's name: its note, then its marks."""
    return " · ".join(t for t in (space.note, *space.marks) if t)

