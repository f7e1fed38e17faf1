"""What an area map's PNG paints from the map file and the width alone, painted once and kept.

The PNG is painted at twice its size (bot/render/map_png.py). Under the land areas lies what only the map decides:
the frame's rounded ground, the seas in their tints with their waves and borders, the paler band along the coast, the
land beyond every area and the borders between land areas (``under``); and where each land area's fill goes, its cell
cut by the land less the pixels of its borders (``masks``).
Both are painted once per map and width and kept in memory (the last ``KEPT``) and on disk beside the layout's file
(bot/render/coast_cache.py), named by a hash of everything they are drawn from: the layout's ground (the drawing,
the coast, the frame, the areas' cells: ``MapLayout.ground_key``), the seas' borders, the sizes, and the code that
paints them. A render pastes them and paints only what the state decides over them (coast_png.py).

``under`` is painted in a palette image with the same coordinates as the whole canvas, so its pixels are exactly
those the same strokes give on the canvas itself (every stroke here is one flat colour: no blending to lose).
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from bot.render import coast_cache
from bot.render.coast_layout import land_mask
from bot.render.layout_parts import Area, MapLayout, Point, Shape
from bot.render.palette import BACKGROUND, GRID_FILL, INK, SEA_FILL, SEA_INK, SEA_WAVE, WHITE, RGB, mix

OFF_LAND: RGB = mix(BACKGROUND, (0xB8, 0xA9, 0x86), 0.35)  # land outside every area: the world beyond the board
OFF_SEA: RGB = mix(SEA_FILL, BACKGROUND, 0.5)
SHORE: RGB = mix(SEA_FILL, WHITE, 0.5)
COAST: RGB = mix(SEA_INK, INK, 0.4)

ShapeDrawer = Callable[[ImageDraw.ImageDraw, list[Shape]], None]
Corner = tuple[int, int]
KEPT = 4  # as many as coast_layout keeps frames: a bot draws a few maps at a few widths


@dataclass
class Layers:
    under: Image.Image  # "P": the frame and its pad at ``ss`` times the size, to be pasted at ``corner``
    corner: Corner
    masks: dict[str, tuple[Corner, Image.Image]]  # a land area's "L" mask (0 or 255) and its corner on the canvas
    land: Image.Image | None = None  # the frame's land at ``ss`` times its size, made when an attacked area needs it


_KEPT: OrderedDict[str, Layers] = OrderedDict()


def frame_pad(ss: int) -> int:
    return 3 * ss  # how far the frame's rounded ground reaches beyond it


def moved(points: tuple[Point, ...] | list[Point], dx: float, dy: float) -> tuple[Point, ...]:
    return tuple((x - dx, y - dy) for x, y in points)


def _version() -> bytes:
    """This module's code, map_png's (its shape drawer paints the borders) and the colours (palette.py)."""
    return hashlib.sha256(coast_cache.sources("coast_layers", "map_png", "palette")).digest()


# Read once, as the process loads its code: a source replaced under a running bot must not name what this code paints.
_VERSION = _version()


def layers_key(layout: MapLayout, ss: int) -> str:
    """What the layers are painted from besides the ground (whose key holds Pillow's version and the layout's code):
    the borders, whose colour and width follow the rules' links, the sizes, and this code."""
    digest = hashlib.sha256(layout.ground_key.encode())
    digest.update(_VERSION)
    digest.update(repr((ss, layout.width, layout.grid, layout.pattern_step, layout.sea_borders,
                        layout.land_borders)).encode())
    return digest.hexdigest()


def layers_of(layout: MapLayout, ss: int, draw_shapes: ShapeDrawer) -> Layers:
    """The map's layers: from memory, else from the disk, else painted (and kept in both)."""
    if not layout.ground_key:  # nothing names this ground: painted for this render alone
        return paint_layers(layout, ss, draw_shapes)
    key = layers_key(layout, ss)  # a repr of every border's points: asked once a render (bot/render/map_png.py)
    found = _KEPT.get(key)
    if found is None:
        folder = coast_cache.cache_dir()
        stored = coast_cache.load_layers(folder, key)
        found = Layers(*stored) if stored is not None else None
        if found is None:
            found = paint_layers(layout, ss, draw_shapes)
            coast_cache.save_layers(folder, key, found.under, found.corner, found.masks)
        _KEPT[key] = found
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    _KEPT.move_to_end(key)
    return found


def paint_layers(layout: MapLayout, ss: int, draw_shapes: ShapeDrawer) -> Layers:
    gx, gy, gx1, gy1 = layout.grid
    pad = frame_pad(ss)
    corner = (gx * ss - pad, gy * ss - pad)
    # The canvas's own coordinates, down to the frame's pad: a stroke falls on the very pixels it falls on there.
    canvas = Image.new("P", (layout.width * ss, gy1 * ss + pad), 0)
    canvas.putpalette([*BACKGROUND])
    draw = ImageDraw.Draw(canvas)
    draw.rounded_rectangle((gx * ss - pad, gy * ss - pad, gx1 * ss - 1 + pad, gy1 * ss - 1 + pad), radius=ss * 6,
                           fill=GRID_FILL)
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
    # The borders between land areas, twice as wide, shown inside the areas only (the half inside each shows): where
    # they run, an area's mask leaves the border, painted here, uncovered.
    borders = [Shape(e.kind, e.points, e.fill, e.outline, 2 * e.width) for e in layout.land_borders]
    bordered = canvas.copy()
    draw_shapes(ImageDraw.Draw(bordered), borders)
    lines = Image.new("P", canvas.size, 0)
    lines.putpalette([0, 0, 0])
    draw_shapes(ImageDraw.Draw(lines), [Shape(e.kind, e.points, None, WHITE, e.width) for e in borders])
    lines = lines.convert("L")  # 255 where a border runs
    # The land of the frame alone (the layout's rings in the frame's own coordinates): the masks stay that small.
    land = land_mask([moved(ring, gx, gy) for ring in layout.land], (gx1 - gx, gy1 - gy), ss)
    masks = {}
    for area in layout.areas:
        if area.clip == "land":
            cut = cell_mask(area, land, layout, ss)
            if cut is None:
                continue
            mask, (x, y), _corner = cut
            on_border = ImageChops.multiply(mask, lines.crop((x, y, x + mask.width, y + mask.height)))
            canvas.paste(bordered.crop((x, y, x + mask.width, y + mask.height)), (x, y), on_border)
            masks[area.name] = ((x, y), ImageChops.subtract(mask, on_border))
    canvas.putpalette(bordered.getpalette() or [])  # the borders' colours were added to the copy's palette
    return Layers(canvas.crop((*corner, gx1 * ss + pad, gy1 * ss + pad)), corner, masks)


def _waves(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], step: int, width: int) -> None:
    """The sea's waves over the whole frame, a polyline a row (the tiles' "waves" pattern, drawn once)."""
    x0, y0, x1, y1 = box
    ink = mix(SEA_FILL, SEA_WAVE, 0.8)
    for y in range(y0 + step // 2, y1 - step // 4, step):
        draw.line([(min(x1 - 1, x0 + i * step / 2), y + (step / 5 if i % 2 else -step / 5))
                   for i in range(int((x1 - x0) * 2 / step) + 2)], fill=ink, width=width)


def cell_mask(area: Area, ground: Image.Image, layout: MapLayout, ss: int
              ) -> tuple[Image.Image, Corner, tuple[float, float]] | None:
    """The area's own mask in the frame (its cell times the ground, a mask of the frame at ``ss`` times its size),
    where it goes on the canvas, and the layout's point that is the mask's top-left corner."""
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
