"""An area map's canvas made a picture and halved a band of rows at a time (bot/render/map_png.py).

The canvas of an area map is a palette image at twice the picture's size until everything of one flat colour is on
it (coast_png.py). Made a picture whole, it would be 4 bytes a pixel at twice the size, 31 MB at 1600 px, memory a
fresh process must first be given page by page. Here each band of rows is made a picture, what blends is painted on
it in order (the names with their plates, the legend's swatches: ``Deferred``), and it is halved into the picture
at once: every pixel is what the whole canvas would have given, since a band starts on an even row and halving
reads each 2x2 square alone, what is laid on it is moved by whole rows, and a name's text is rendered once, as a
mask, and laid on each band it touches.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render.palette import RGB

BAND = 256  # rows of the canvas a band (even: a band starts on a row halving begins with)


@dataclass(frozen=True)
class Deferred:
    """Something painted on the bands it touches: its rows on the canvas and how it paints a band starting at a row."""

    top: int
    bottom: int
    paint: Callable[[Image.Image, int], None]


def font_mask(font: ImageFont.FreeTypeFont, line: str, stroke: int) -> tuple[Any, tuple[int, int]]:
    """The font's mask of a line as ImageDraw renders it at anchor "la", its stroke in its own colour (Pillow's core
    image, mode L), and where it sits from the anchor."""
    return font.getmask2(line, "L", None, None, None, stroke, "la", 0, (0.0, 0.0), stroke_filled=True)


def text_on_bands(x: int, y: int, line: str, font: ImageFont.FreeTypeFont, colour: RGB, stroke: int,
                  rendered: tuple[Any, tuple[int, int]] | None = None) -> Deferred:
    """A line of text as ``ImageDraw.text`` draws it at whole pixels (x, y), anchor "la", its stroke in its own
    colour: the font's mask for it (``font_mask``, or ``rendered`` when the caller has it: bot/render/name_masks.py),
    laid in its colour where ImageDraw lays it (its fill through a mask is what ImageDraw's bitmap is)."""
    mask, (dx, dy) = font_mask(font, line, stroke) if rendered is None else rendered
    at_x, at_y = x + dx, y + dy
    width, height = mask.size

    def paint(band: Image.Image, row: int) -> None:
        band.im.paste(colour, (at_x, at_y - row, at_x + width, at_y - row + height), mask)
    return Deferred(at_y, at_y + height, paint)


def plate_on_bands(box: tuple[int, int, int, int], radius: int, fill: RGB, outline: RGB | None, width: int
                   ) -> Deferred:
    """A label's plate, a rounded rectangle of whole pixels: drawn on a band moved by whole rows, it covers the same
    pixels (a plate is laid in its turn among the names, as one covers the text of a name before it that runs
    past its own box)."""
    x0, y0, x1, y1 = box

    def paint(band: Image.Image, row: int) -> None:
        ImageDraw.Draw(band).rounded_rectangle((x0, y0 - row, x1, y1 - row), radius=radius, fill=fill,
                                               outline=outline, width=width)
    return Deferred(y0, y1 + 1, paint)


def pasted_on_bands(image: Image.Image, at: tuple[int, int], mask: Image.Image | None = None) -> Deferred:
    def paint(band: Image.Image, row: int) -> None:
        band.paste(image, (at[0], at[1] - row), mask)
    return Deferred(at[1], at[1] + image.height, paint)


def halved_in_bands(canvas: Image.Image, deferred: list[Deferred], ss: int) -> Image.Image:
    """The canvas as a picture of ``1 / ss`` its size, with what was deferred painted on it in order."""
    width, height = canvas.size
    out = Image.new("RGB", (width // ss, height // ss))
    for row in range(0, height, BAND):
        end = min(height, row + BAND)
        band = canvas.crop((0, row, width, end)).convert("RGB")
        for item in deferred:
            if item.top < end and item.bottom > row:
                item.paint(band, row)
        out.paste(band.reduce(ss), (0, row // ss))
    return out
