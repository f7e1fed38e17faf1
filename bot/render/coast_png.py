"""Painting an area map over a coastline (bot/render/coast_layout.py) into the PNG's supersampled canvas.

The seas are painted whole, the land over them: each power's land areas are their cells cut by the land (one mask
of the frame), pasted over one tile of the power's fill and hatching on which their borders are drawn, so a border
between two land areas stops at the coast. The coast was cut to the frame by the layout.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.coast_layout import land_mask
from bot.render.layout_parts import Area, MapLayout, Point, Shape
from bot.render.palette import ATTACK_RED, BACKGROUND, GRID_FILL, INK, SEA_FILL, SEA_INK, SEA_WAVE, WHITE, RGB, mix, pattern_ink

OFF_LAND: RGB = mix(BACKGROUND, (0xB8, 0xA9, 0x86), 0.35)  # land outside every area: the world beyond the board
OFF_SEA: RGB = mix(SEA_FILL, BACKGROUND, 0.5)
SHORE: RGB = mix(SEA_FILL, WHITE, 0.5)
COAST: RGB = mix(SEA_INK, INK, 0.4)

TileMaker = Callable[[RGB, RGB, str, int, int, int, int, int, RGB], Image.Image]
ShapeDrawer = Callable[[ImageDraw.ImageDraw, list[Shape]], None]


def _moved(points: Sequence[Point], dx: float, dy: float) -> tuple[Point, ...]:
    return tuple((x - dx, y - dy) for x, y in points)


_LAND_MASKS: dict[tuple[int, tuple[int, int], int], tuple[object, Image.Image]] = {}


def _frame_land(layout: MapLayout, size: tuple[int, int], ss: int) -> Image.Image:
    """The land of the frame at ``ss`` times its size: the same for every render of one map at one width (the
    layout's rings are then the very same object, coast_layout keeps them), so it is rasterised once."""
    key = (id(layout.land), size, ss)
    found = _LAND_MASKS.get(key)
    if found is not None and found[0] is layout.land:
        return found[1]
    mask = land_mask([_moved(ring, layout.grid[0], layout.grid[1]) for ring in layout.land], size, ss)
    if len(_LAND_MASKS) >= 4:  # as many as coast_layout keeps frames
        _LAND_MASKS.clear()
    _LAND_MASKS[key] = (layout.land, mask)
    return mask


def paint_coast(image: Image.Image, layout: MapLayout, ss: int, tile: TileMaker, draw_shapes: ShapeDrawer) -> None:
    """The frame's seas, land and borders, straight onto the canvas: the layout cut the coast to the frame."""
    gx, gy, gx1, gy1 = layout.grid
    size = (gx1 - gx, gy1 - gy)
    draw = ImageDraw.Draw(image)
    # The land of the frame alone (the layout's rings in the frame's own coordinates): the masks stay that small.
    land = _frame_land(layout, size, ss)
    draw.rectangle((gx * ss, gy * ss, gx1 * ss - 1, gy1 * ss - 1), fill=OFF_SEA)
    # The seas whole, their waves and borders: the land painted over them cuts them at the coast.
    for area in layout.areas:
        if area.clip == "sea":
            draw.polygon([(x * ss, y * ss) for x, y in area.polygon], fill=area.tint or SEA_FILL)
    if any(area.clip == "sea" for area in layout.areas):  # a diagram of land areas alone (a status card) has no sea
        _waves(draw, (gx * ss, gy * ss, gx1 * ss, gy1 * ss), layout.pattern_step * ss, max(1, round(ss * 1.1)))
    draw_shapes(draw, list(layout.sea_borders))
    # A band of paler water along the coast, as old sea charts have it; the land covers its inner half.
    shore = max(1, round(5 * ss * layout.width / 1600))
    for line in layout.coast:
        draw.line([(x * ss, y * ss) for x, y in line], fill=SHORE, width=shore)
    for ring in layout.land:
        draw.polygon([(x * ss, y * ss) for x, y in ring], fill=OFF_LAND)
    _land_areas(image, layout, land, ss, tile, draw_shapes)
    for line in layout.coast:
        draw.line([(x * ss, y * ss) for x, y in line], fill=COAST, width=max(1, round(1.1 * ss)))
    # The shore's band spills over the frame's edge where a coast meets it: the frame's own ground takes it back.
    pad = 3 * ss  # the frame's rounded ground reaches this far
    for box in ((gx * ss - pad, gy * ss - pad, gx1 * ss + pad, gy * ss - 1), (gx * ss - pad, gy1 * ss, gx1 * ss + pad, gy1 * ss + pad),
                (gx * ss - pad, gy * ss, gx * ss - 1, gy1 * ss), (gx1 * ss, gy * ss, gx1 * ss + pad, gy1 * ss)):
        draw.rectangle(box, fill=GRID_FILL)
    for area in layout.areas:
        if area.attacked:
            _attack(image, area, land if area.clip == "land" else ImageChops.invert(land), layout, ss)
    draw_shapes(draw, list(layout.overlays))


def _moved_shape(shape: Shape, dx: float, dy: float) -> Shape:
    return Shape(shape.kind, _moved(shape.points, dx, dy), shape.fill, shape.outline, shape.width, shape.radius)


def _waves(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], step: int, width: int) -> None:
    """The sea's waves over the whole frame, a polyline a row (the tiles' "waves" pattern, drawn once)."""
    x0, y0, x1, y1 = box
    ink = mix(SEA_FILL, SEA_WAVE, 0.8)
    for y in range(y0 + step // 2, y1 - step // 4, step):
        draw.line([(min(x1 - 1, x0 + i * step / 2), y + (step / 5 if i % 2 else -step / 5))
                   for i in range(int((x1 - x0) * 2 / step) + 2)], fill=ink, width=width)


def _cell_mask(area: Area, ground: Image.Image, layout: MapLayout, ss: int
               ) -> tuple[Image.Image, tuple[int, int], tuple[float, float]] | None:
    """The area's own mask in the frame (its cell times the ground), where it goes, and the layout's point that is
    the mask's top-left corner."""
    gx, gy = layout.grid[0], layout.grid[1]
    x0, y0, x1, y1 = area.extent or area.box
    x0, y0 = max(x0, gx), max(y0, gy)
    x1, y1 = min(x1, layout.grid[2]), min(y1, layout.grid[3])
    ox, oy = (x0 - gx) * ss, (y0 - gy) * ss
    w, h = (x1 - x0) * ss, (y1 - y0) * ss
    if w <= 0 or h <= 0:
        return None
    shape = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape).polygon([((x - x0) * ss, (y - y0) * ss) for x, y in area.polygon], fill=255)
    return ImageChops.multiply(shape, ground.crop((ox, oy, ox + w, oy + h))), (x0 * ss, y0 * ss), (x0, y0)


def _land_areas(image: Image.Image, layout: MapLayout, land: Image.Image, ss: int, tile: TileMaker,
                draw_shapes: ShapeDrawer) -> None:
    """The land areas, one paste a power: the cells of all its areas in one mask, cut by the land, over one tile
    of its fill and hatching (so the hatching runs on across its areas, and is drawn once). Each area's borders are
    drawn on that tile twice as wide: the half inside the area shows, its neighbour's tile gives the other half."""
    gx, gy = layout.grid[0], layout.grid[1]
    by_style: dict[str, list[Area]] = {}
    for area in layout.areas:
        if area.clip == "land" and area.extent is not None:
            by_style.setdefault(area.style, []).append(area)
    for name, areas in by_style.items():
        x0 = max(gx, min(a.extent[0] for a in areas if a.extent))
        y0 = max(gy, min(a.extent[1] for a in areas if a.extent))
        x1 = min(layout.grid[2], max(a.extent[2] for a in areas if a.extent))
        y1 = min(layout.grid[3], max(a.extent[3] for a in areas if a.extent))
        if x1 <= x0 or y1 <= y0:
            continue
        ox, oy, w, h = (x0 - gx) * ss, (y0 - gy) * ss, (x1 - x0) * ss, (y1 - y0) * ss
        mask = Image.new("L", (w, h), 0)
        shapes = ImageDraw.Draw(mask)
        for area in areas:
            shapes.polygon([((x - x0) * ss, (y - y0) * ss) for x, y in area.polygon], fill=255)
        style = layout.styles[name]
        painted = tile(style.fill, pattern_ink(style), style.pattern, w, h, 0, layout.pattern_step * ss, 0, style.fill)
        draw_shapes(ImageDraw.Draw(painted), [Shape(e.kind, _moved(e.points, x0, y0), e.fill, e.outline, 2 * e.width)
                                              for area in areas for e in area.edges])
        image.paste(painted, (x0 * ss, y0 * ss), ImageChops.multiply(mask, land.crop((ox, oy, ox + w, oy + h))))


def _attack(image: Image.Image, area: Area, ground: Image.Image, layout: MapLayout, ss: int) -> None:
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
    image.paste(INK, at, ImageChops.subtract(mask, inner))
    image.paste(ATTACK_RED, at, ImageChops.subtract(edge, inner))
