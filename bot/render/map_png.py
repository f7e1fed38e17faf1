"""The campaign map as a PNG, painted with Pillow from the layout (bot/render/layout.py).

Everything is drawn at twice the size and then halved: Pillow's shapes have no antialiasing of their own,
and halving gives smooth stars, swords and hatching for a fraction of the time a vector library would take.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.bands import Deferred, halved_in_bands, pasted_on_bands, plate_on_bands, text_on_bands
from bot.render.coast_layers import layers_of
from bot.render.coast_png import coast_canvas, paint_coast, palette_holds
from bot.render.layout import (
    Box, Label, MapLayout, Shape, build_layout, font, icon_shapes, pattern_lines, stroke,
)
from bot.render.name_masks import Line, Mask, masks_of
from bot.render.palette import (
    ATTACK_RED, BACKGROUND, GRID_FILL, HEADER_FILL, INK, LEGEND_FILL, SEA_FILL, SEA_WAVE, RGB, mix, pattern_ink,
)
from bot.render.png_file import encode_png
from engine.ruleset import Picture

SS = 2  # supersampling factor


def render_png(picture: Picture, width: int = 1600, *, compress_level: int = 1) -> bytes:
    """The map ``picture`` (a ruleset's ``picture(state)``) as PNG bytes."""
    # zlib level 1, rows unfiltered (bot/render/png_file.py): the map is redrawn on every turn of every campaign.
    return encode_png(paint(build_layout(picture, width)), compress_level)


def _scaled(box: Box) -> tuple[int, int, int, int]:
    return box[0] * SS, box[1] * SS, box[2] * SS - 1, box[3] * SS - 1


@lru_cache(maxsize=64)
def _mask(w: int, h: int, radius: int) -> Image.Image:
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    return mask


@lru_cache(maxsize=128)
def _tile(fill: RGB, ink: RGB, pattern: str, w: int, h: int, radius: int, step: int, border: int,
          outline: RGB) -> Image.Image:
    """A tile in its fill and pattern, at the supersampled size; cached, since most tiles share a style."""
    tile = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(tile)
    width = max(1, round(SS * 1.1))
    for (ax, ay), (bx, by) in pattern_lines((0, 0, w, h), pattern, step):
        if (ax, ay) == (bx, by):
            r = max(1.5, step / 7)
            draw.ellipse((ax - r, ay - r, ax + r, ay + r), fill=ink)
        else:
            draw.line(((ax, ay), (bx, by)), fill=ink, width=width)
    if border:
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=outline, width=border)
    return tile


def _paste_tile(image: Image.Image, box: Box, fill: RGB, ink: RGB, pattern: str, radius: int, step: int,
                border: int, outline: RGB, deferred: list[Deferred] | None = None) -> None:
    x0, y0, x1, y1 = _scaled(box)
    w, h = x1 - x0 + 1, y1 - y0 + 1
    tile = _tile(fill, ink, pattern, w, h, radius * SS, step * SS, border * SS, outline)
    if deferred is not None:
        deferred.append(pasted_on_bands(tile, (x0, y0), _mask(w, h, radius * SS)))
        return
    image.paste(tile, (x0, y0), _mask(w, h, radius * SS))


def draw_shapes(draw: ImageDraw.ImageDraw, shapes: list[Shape]) -> None:
    for shape in shapes:
        pts = [(x * SS, y * SS) for x, y in shape.points]
        width = round(shape.width * SS) if shape.outline is not None else 0
        if shape.kind == "polygon":
            # Pillow draws a polygon's wide outline through a mask the size of the whole image: a closed
            # line instead costs a hundredth of it.
            if shape.fill is not None:
                draw.polygon(pts, fill=shape.fill)
            if width and shape.outline is not None:
                draw.line([*pts, pts[0], pts[1]], fill=shape.outline, width=width, joint="curve")
        elif shape.kind == "rect":
            (ax, ay), (bx, by) = pts
            box = (min(ax, bx), min(ay, by), max(ax, bx) + SS - 1, max(ay, by) + SS - 1)
            if shape.radius:
                draw.rounded_rectangle(box, radius=shape.radius * SS, fill=shape.fill,
                                       outline=shape.outline if width else None, width=max(1, width))
            else:
                draw.rectangle(box, fill=shape.fill, outline=shape.outline if width else None, width=max(1, width))
        elif shape.kind == "ellipse":
            (ax, ay), (bx, by) = pts
            draw.ellipse((ax, ay, bx + SS - 1, by + SS - 1), fill=shape.fill,
                         outline=shape.outline if width else None, width=max(1, width))
        elif shape.kind == "line":
            draw.line(pts, fill=shape.outline or shape.fill, width=max(1, width), joint="curve")


def draw_label(draw: ImageDraw.ImageDraw, label: Label, deferred: list[Deferred] | None = None,
               masks: Iterator[Mask] | None = None) -> None:
    """The label's plate and its text (laid on the bands later, in order, when ``deferred`` takes them; the masks of
    its lines from ``masks`` when given, in the order of ``label_lines``)."""
    if label.plate is not None:
        x0, y0, x1, y1 = _scaled(label.box)
        radius = max(2, (label.box[3] - label.box[1]) // 5) * SS
        width = SS if label.plate_outline else 0
        if deferred is not None:
            deferred.append(plate_on_bands((x0, y0, x1, y1), radius, label.plate, label.plate_outline, width))
        else:
            draw.rounded_rectangle((x0, y0, x1, y1), radius=radius, fill=label.plate, outline=label.plate_outline,
                                   width=width)
    f = font(label.size * SS)
    sw = stroke(label.size, label.bold)
    for line, box in zip(label.lines, label.line_boxes):
        width = round(sw * SS)
        if deferred is not None:
            deferred.append(text_on_bands(box[0] * SS + width, box[1] * SS, line, f, label.colour, width,
                                          None if masks is None else next(masks)))
            continue
        draw.text((box[0] * SS + width, box[1] * SS), line, font=f, fill=label.colour, anchor="la",
                  stroke_width=width, stroke_fill=label.colour)


def paint(layout: MapLayout) -> Image.Image:
    over_coast = bool(layout.land or layout.areas)
    if over_coast:  # the ground, the seas and the borders come painted (bot/render/coast_layers.py)
        layers = layers_of(layout, SS, draw_shapes)
        image = coast_canvas(layout, SS, layers)
    else:
        image = Image.new("RGB", (layout.width * SS, layout.height * SS), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle(_scaled(layout.header), fill=HEADER_FILL)
    draw.line(((0, layout.header[3] * SS), (layout.width * SS, layout.header[3] * SS)), fill=mix(HEADER_FILL, INK, 0.25),
              width=SS)
    gx0, gy0, gx1, gy1 = _scaled(layout.grid)
    pad = SS * 3
    if not over_coast:  # an area map's frame came with its canvas
        draw.rounded_rectangle((gx0 - pad, gy0 - pad, gx1 + pad, gy1 + pad), radius=SS * 6, fill=GRID_FILL)
    lx0, ly0, lx1, ly1 = _scaled(layout.legend_box)
    draw.rounded_rectangle((lx0, ly0, lx1, ly1), radius=SS * 8, fill=LEGEND_FILL, outline=mix(LEGEND_FILL, INK, 0.2),
                           width=SS)
    styles = layout.styles
    if over_coast:
        # Each power's hatching is one period of it, kept; the areas' tiles are laid from it.
        image = paint_coast(image, layout, SS, _tile.__wrapped__, draw_shapes, layers)
        if image.mode == "P" and not palette_holds(image, _flat_colours(layout)):
            image = image.convert("RGB")
        draw = ImageDraw.Draw(image)
    for cell in layout.cells:
        if cell.kind == "sea":
            _paste_tile(image, cell.box, SEA_FILL, SEA_WAVE, "waves", layout.radius, layout.pattern_step, 0, SEA_FILL)
            continue
        style = styles[cell.style]
        _paste_tile(image, cell.box, style.fill, pattern_ink(style), style.pattern, layout.radius, layout.pattern_step,
                    layout.border, style.ink)
    for cell in layout.cells:
        if cell.attacked:
            _attack_frame(draw, cell.box, layout.attack_border, layout.radius)
    # A palette canvas (an area map's) takes what blends band by band as it is halved (bot/render/bands.py).
    deferred: list[Deferred] | None = [] if image.mode == "P" else None
    for icon in layout.icons:
        if icon.kind == "swatch":
            style = styles[icon.seat or ""]
            _paste_tile(image, icon.box, style.fill, pattern_ink(style), style.pattern, max(2, layout.radius // 2),
                        max(4, layout.pattern_step * 2 // 3), layout.border, style.ink, deferred)
    # Icons first: a fleet's badge is the ground its label is written on.
    for icon in layout.icons:
        draw_shapes(draw, icon_shapes(icon, styles, layout.attack_border))
    masks = None if deferred is None else iter(masks_of(label_lines(layout.labels)))
    for label in layout.labels:
        draw_label(draw, label, deferred, masks)
    if deferred is not None:
        return halved_in_bands(image, deferred, SS)
    return image.reduce(SS)


def label_lines(labels: Sequence[Label]) -> list[Line]:
    """Every line of the labels as ``draw_label`` renders it, in its order: the font's size, the text, the stroke."""
    return [(label.size * SS, line, round(stroke(label.size, label.bold) * SS)) for label in labels
            for line, _box in zip(label.lines, label.line_boxes)]


def _flat_colours(layout: MapLayout) -> set[RGB]:
    """The flat colours still to be laid on an area map's canvas: its icons', overlays' and attacks'."""
    shapes = [*layout.overlays, *(s for icon in layout.icons for s in icon_shapes(icon, layout.styles,
                                                                                  layout.attack_border))]
    colours = {c for s in shapes for c in (s.fill, s.outline) if c is not None}
    return colours | {INK, ATTACK_RED}


def _attack_frame(draw: ImageDraw.ImageDraw, box: Box, width: int, radius: int) -> None:
    """A thick red frame edged in black: its weight, not only its colour, says 'attacked'."""
    x0, y0, x1, y1 = _scaled(box)
    w = width * SS
    draw.rounded_rectangle((x0, y0, x1, y1), radius=radius * SS, outline=INK, width=w)
    edge = max(1, SS)
    draw.rounded_rectangle((x0 + edge, y0 + edge, x1 - edge, y1 - edge), radius=radius * SS, outline=ATTACK_RED,
                           width=w - 2 * edge)


def _debug_boxes(image: Image.Image, layout: MapLayout, icons: bool = True) -> Image.Image:
    """The image with every label box (and icon box) outlined: for looking at a layout by eye."""
    out = image.copy()
    draw = ImageDraw.Draw(out)
    for label in layout.labels:
        draw.rectangle((label.box[0], label.box[1], label.box[2] - 1, label.box[3] - 1), outline=(255, 0, 255))
    if icons:
        for icon in layout.icons:
            draw.rectangle((icon.box[0], icon.box[1], icon.box[2] - 1, icon.box[3] - 1), outline=(0, 160, 255))
    return out


