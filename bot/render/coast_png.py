"""Painting an area map over a coastline (bot/render/coast_layout.py) into the PNG's supersampled canvas.

The frame is painted on a board of its own size, so that nothing of the coastline runs into the margins. Each area
is its cell cut by the land (or by the sea): the land is one mask of the board, and each area's fill is pasted
through its cell's mask multiplied by it. Borders are drawn on a layer and cut the same way, so a border between two
land areas stops at the coast and a sea border at the shore.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.coast_layout import land_mask
from bot.render.layout_parts import Area, MapLayout, Point, Shape
from bot.render.palette import ATTACK_RED, BACKGROUND, INK, SEA_FILL, SEA_INK, SEA_WAVE, WHITE, RGB, mix, pattern_ink

OFF_LAND: RGB = mix(BACKGROUND, (0xB8, 0xA9, 0x86), 0.35)  # land outside every area: the world beyond the board
OFF_SEA: RGB = mix(SEA_FILL, BACKGROUND, 0.5)
SHORE: RGB = mix(SEA_FILL, WHITE, 0.5)
COAST: RGB = mix(SEA_INK, INK, 0.4)

TileMaker = Callable[[RGB, RGB, str, int, int, int, int, int, RGB], Image.Image]
ShapeDrawer = Callable[[ImageDraw.ImageDraw, list[Shape]], None]


def _moved(points: Sequence[Point], dx: float, dy: float) -> tuple[Point, ...]:
    return tuple((x - dx, y - dy) for x, y in points)


def paint_coast(image: Image.Image, layout: MapLayout, ss: int, tile: TileMaker, draw_shapes: ShapeDrawer) -> None:
    gx, gy, gx1, gy1 = layout.grid
    size = (gx1 - gx, gy1 - gy)
    board = Image.new("RGB", (size[0] * ss, size[1] * ss), OFF_SEA)
    draw = ImageDraw.Draw(board)
    rings = [_moved(ring, gx, gy) for ring in layout.land]
    land = land_mask(rings, size, ss)
    sea = ImageChops.invert(land)
    for area in layout.areas:
        if area.clip == "sea":  # whole: the land painted next cuts it at the coast
            _paint_area(board, area, layout, None, ss, tile, draw_shapes)
    # A band of paler water along the coast, as old sea charts have it; the land painted next covers its inner half.
    shore = max(1, round(5 * ss * layout.width / 1600))
    for ring in rings:
        draw.line([(x * ss, y * ss) for x, y in (*ring, ring[0])], fill=SHORE, width=shore)
    board.paste(OFF_LAND, mask=land)
    for area in layout.areas:
        if area.clip == "land":
            _paint_area(board, area, layout, land, ss, tile, draw_shapes)
    for ring in rings:
        draw.line([(x * ss, y * ss) for x, y in (*ring, ring[0])], fill=COAST, width=max(1, round(1.1 * ss)))
    for area in layout.areas:
        if area.attacked:
            _attack(board, area, land if area.clip == "land" else sea, layout, ss)
    image.paste(board, (gx * ss, gy * ss))
    draw_shapes(ImageDraw.Draw(image), list(layout.overlays))


def _cell_mask(area: Area, ground: Image.Image | None, layout: MapLayout, ss: int
               ) -> tuple[Image.Image, tuple[int, int], tuple[float, float]] | None:
    """The area's own mask on the board (its cell times the ground), where it goes, and the layout's point that is
    the mask's top-left corner."""
    gx, gy = layout.grid[0], layout.grid[1]
    x0, y0, x1, y1 = (area.extent or area.box) if ground is not None else area.box
    x0, y0 = max(x0, layout.grid[0]), max(y0, layout.grid[1])
    x1, y1 = min(x1, layout.grid[2]), min(y1, layout.grid[3])
    ox, oy = (x0 - gx) * ss, (y0 - gy) * ss
    w, h = (x1 - x0) * ss, (y1 - y0) * ss
    if w <= 0 or h <= 0:
        return None
    shape = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape).polygon([((x - x0) * ss, (y - y0) * ss) for x, y in area.polygon], fill=255)
    if ground is None:
        return shape, (ox, oy), (x0, y0)
    return ImageChops.multiply(shape, ground.crop((ox, oy, ox + w, oy + h))), (ox, oy), (x0, y0)


def _paint_area(board: Image.Image, area: Area, layout: MapLayout, ground: Image.Image | None, ss: int,
                tile: TileMaker, draw_shapes: ShapeDrawer) -> None:
    """The area's fill and pattern, and its borders: each drawn twice as wide on its own tile, so that the half
    inside the area shows, and the neighbour's tile gives the other half."""
    cut = _cell_mask(area, ground, layout, ss)
    if cut is None:
        return
    mask, at, (x0, y0) = cut
    if area.kind == "sea":
        fill = area.tint or SEA_FILL
        ink, pattern = mix(fill, SEA_WAVE, 0.8), "waves"
    else:
        style = layout.styles[area.style]
        fill, ink, pattern = style.fill, pattern_ink(style), style.pattern
    painted = tile(fill, ink, pattern, mask.width, mask.height, 0, layout.pattern_step * ss, 0, fill).copy()
    draw_shapes(ImageDraw.Draw(painted), [Shape(e.kind, _moved(e.points, x0, y0), e.fill, e.outline, 2 * e.width)
                                          for e in area.edges])
    board.paste(painted, at, mask)


def _attack(board: Image.Image, area: Area, ground: Image.Image, layout: MapLayout, ss: int) -> None:
    """A thick red band edged in black inside the area's whole outline, coast included."""
    cut = _cell_mask(area, ground, layout, ss)
    if cut is None:
        return
    mask, at, _corner = cut
    inner = edge = mask
    for i in range(layout.attack_border * ss):  # a 3x3 minimum again and again: a square erosion, far cheaper
        inner = inner.filter(ImageFilter.MinFilter(3))
        if i == ss - 1:
            edge = inner
    board.paste(INK, at, ImageChops.subtract(mask, inner))
    board.paste(ATTACK_RED, at, ImageChops.subtract(edge, inner))
