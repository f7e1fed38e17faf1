"""Painting an area map over a coastline (bot/render/coast_layout.py) into the PNG's supersampled canvas.

What only the map decides (the frame's ground, the seas with their waves and borders, the shore, the land beyond
the areas, the borders between land areas, and where each land area's fill goes) is painted once per map and width
(bot/render/coast_layers.py) and makes the canvas, a palette image. Over it, each land area in its holder's fill and
hatching through its mask, which leaves the area's borders uncovered; the hatching is laid from the frame's corner,
so it runs on from one area of a power into the next. Then the coast, the frame's edge, attacked areas' bands and
what is drawn over the areas: flat colours all, laid on the palette while it has room for them.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.coast_layers import COAST, OFF_LAND, OFF_SEA, SHORE, Corner, Layers, ShapeDrawer, cell_mask, moved
from bot.render.coast_layout import land_mask
from bot.render.layout_parts import MapLayout
from bot.render.palette import ATTACK_RED, GRID_FILL, INK, RGB, SeatStyle, pattern_ink

__all__ = ["COAST", "OFF_LAND", "OFF_SEA", "SHORE", "coast_canvas", "paint_coast"]

TileMaker = Callable[[RGB, RGB, str, int, int, int, int, int, RGB], Image.Image]
PERIOD = 4  # steps: every hatching repeats after four steps each way (checks: dots two apart, every other row shifted)
OWN_PERIOD = {"dots": 2, "checks": 4}  # steps after which a pattern repeats each way; the others after one


def coast_canvas(layout: MapLayout, ss: int, layers: Layers) -> Image.Image:
    """The canvas, ``ss`` times the picture's size, with what the map alone decides on it (its ``layers``, from
    ``layers_of``): the frame's ground, the seas, the land beyond the areas and the borders between the areas. A
    palette image of the map's few colours, a quarter of the bytes of a picture to lay, until ``paint_coast`` has
    laid every flat colour on it."""
    canvas = Image.new("P", (layout.width * ss, layout.height * ss), 0)  # 0: the background, as layers paint it
    canvas.putpalette(layers.under.getpalette() or [])
    canvas.paste(layers.under, layers.corner)
    return canvas


def paint_coast(image: Image.Image, layout: MapLayout, ss: int, tile: TileMaker, draw_shapes: ShapeDrawer,
                layers: Layers) -> Image.Image:
    """The land areas in their holders' fills and hatching (through the ``layers``' masks) over the canvas
    ``coast_canvas`` made, the coast, and what is drawn over the areas: the layout cut the coast to the frame.
    Returns the canvas (a picture instead of a palette image only when the palette has no room for the powers'
    colours)."""
    gx, gy, gx1, gy1 = layout.grid
    anchor = (gx * ss, gy * ss)
    step = layout.pattern_step * ss
    areas = [(area, placed) for area in layout.areas if area.clip == "land"
             for placed in [layers.masks.get(area.name)] if placed is not None]
    colours = {c for area, _placed in areas for style in [layout.styles[area.style]]
               for c in (style.fill, pattern_ink(style))} | {COAST, GRID_FILL}
    if image.mode == "P" and not palette_holds(image, colours):
        image = image.convert("RGB")  # more colours than a palette holds
    for area, ((x, y), mask) in areas:
        period = _period(layout.styles[area.style], step, tile, image)
        image.paste(_hatched(period, (x - anchor[0], y - anchor[1]), mask.size), (x, y), mask)
    draw = ImageDraw.Draw(image)
    for line in layout.coast:
        draw.line([(x * ss, y * ss) for x, y in line], fill=COAST, width=max(1, round(1.1 * ss)))
    # The shore's band spills over the frame's edge where a coast meets it: the frame's own ground takes it back.
    pad = 3 * ss  # the frame's rounded ground reaches this far
    for box in ((gx * ss - pad, gy * ss - pad, gx1 * ss + pad, gy * ss - 1), (gx * ss - pad, gy1 * ss, gx1 * ss + pad, gy1 * ss + pad),
                (gx * ss - pad, gy * ss, gx * ss - 1, gy1 * ss), (gx1 * ss, gy * ss, gx1 * ss + pad, gy1 * ss)):
        draw.rectangle(box, fill=GRID_FILL)
    attacked = [area for area in layout.areas if area.attacked]
    if attacked:
        if layers.land is None:
            layers.land = land_mask([moved(ring, gx, gy) for ring in layout.land], (gx1 - gx, gy1 - gy), ss)
        land = layers.land
        for area in attacked:
            cut = cell_mask(area, land if area.clip == "land" else ImageChops.invert(land), layout, ss)
            if cut is not None:
                _attack(image, cut[0], cut[1], layout, ss)
    draw_shapes(draw, list(layout.overlays))
    return image


def _period(style: SeatStyle, step: int, tile: TileMaker, canvas: Image.Image) -> Image.Image:
    """A period of the power's hatching in the canvas's mode: in a palette canvas, its fill and ink are the
    palette's (allocated there when new)."""
    ink = pattern_ink(style)
    period = _period_tile(style.fill, ink, style.pattern, step, tile)
    if canvas.mode != "P":
        return period
    assert canvas.palette is not None
    indexed = Image.new("P", period.size, canvas.palette.getcolor(style.fill, canvas))
    indexed.paste(canvas.palette.getcolor(ink, canvas), (0, 0), _ink_of(style.fill, ink, style.pattern, step, tile))
    return indexed


@lru_cache(maxsize=64)
def _ink_of(fill: RGB, ink: RGB, pattern: str, step: int, tile: TileMaker) -> Image.Image:
    """Where a period of the hatching is ink: it has only its fill and its ink (Pillow's strokes do not blend)."""
    period = _period_tile(fill, ink, pattern, step, tile)
    return ImageChops.difference(period, Image.new("RGB", period.size, fill)).convert("L").point([0] + [255] * 255)


@lru_cache(maxsize=64)
def _period_tile(fill: RGB, ink: RGB, pattern: str, step: int, tile: TileMaker) -> Image.Image:
    """``PERIOD`` steps of a power's fill and hatching each way: the pattern's own period, cut from the middle of
    three so that no stroke ends inside it, laid again and again."""
    own = OWN_PERIOD.get(pattern, 1) * step
    one = tile(fill, ink, pattern, 3 * own, 3 * own, 0, step, 0, fill).crop((own, own, 2 * own, 2 * own))
    period = Image.new("RGB", (PERIOD * step, PERIOD * step))
    for x in range(0, period.width, own):
        for y in range(0, period.height, own):
            period.paste(one, (x, y))
    return period


def _hatched(period: Image.Image, at: Corner, size: tuple[int, int]) -> Image.Image:
    """The hatching of ``size`` whose corner is ``at`` from the frame's corner: the period laid along a band, the band
    laid down the tile."""
    p = period.width
    ox, oy = at[0] % p, at[1] % p
    band = Image.new(period.mode, (size[0], p))
    for x in range(-ox, size[0], p):
        band.paste(period, (x, 0))
    sheet = Image.new(period.mode, size)
    for y in range(-oy, size[1], p):
        sheet.paste(band, (0, y))
    return sheet


def _attack(image: Image.Image, mask: Image.Image, at: Corner, layout: MapLayout, ss: int) -> None:
    """A thick red band edged in black inside the area's whole outline, coast included."""
    inner = edge = mask
    for i in range(layout.attack_border * ss):  # a 3x3 minimum again and again: a square erosion, far cheaper
        inner = inner.filter(ImageFilter.MinFilter(3))
        if i == ss - 1:
            edge = inner
    image.paste(flat(image, INK), at, ImageChops.subtract(mask, inner))
    image.paste(flat(image, ATTACK_RED), at, ImageChops.subtract(edge, inner))


def flat(image: Image.Image, colour: RGB) -> RGB | int:
    """The colour as the image takes it: in a palette image its index (allocated there when new)."""
    if image.mode == "P" and image.palette is not None:
        return image.palette.getcolor(colour, image)
    return colour


def palette_holds(image: Image.Image, colours: set[RGB]) -> bool:
    """Whether a palette image has room for ``colours`` besides those it has."""
    palette = image.getpalette() or []
    have = {tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)}
    return len(have | colours) <= 256
