"""Where an area's name goes on an area map over the coast: inside its shape at the largest size that fits (a
``Clearance`` answers most tries from its averaged masks before a crop checks the place found), else beside it on a
plate clear of every other label. Used by bot/render/coast_layout.py; its averages are kept on disk with the
layout (bot/render/coast_cache.py)."""
from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageFilter

from bot.render import coast_cache
from bot.render.area_layout import stack
from bot.render.layout_parts import Box, Label, intersects, note_of
from bot.render.palette import SeatStyle
from bot.render.text import printable, splits
from engine.ruleset import Space

Fits = Callable[[Box], bool]

RADII = (0, 2, 4, 6, 9, 13, 18, 24, 32, 42, 56)


def _rounded(r: int) -> int:
    """The largest of ``RADII`` up to ``r``: each average is computed once and serves many sizes of text."""
    return RADII[max(0, bisect.bisect_right(RADII, r) - 1)]


class Clearance:
    """The area's mask averaged over squares of side 2r + 1: where the average is still full, the whole square
    around the point is inside the area. A block of text fits where the points along its middle, a square apart,
    are all full at half its height: a few pixel reads instead of a crop for each place tried (the crop still
    checks the place found)."""

    def __init__(self, region: Image.Image | None, at: Box | None) -> None:
        self.at = at
        self.padded: Image.Image | None = None
        self.size = (0, 0)  # the padded mask's, read for every point tried
        self.levels: dict[int, Any] = {}
        # Each average found, as the disk cache keeps it (bot/render/coast_cache.py); ``added``: found since (or a name).
        self.images: dict[int, Image.Image | coast_cache.Bits | None] = {}
        self.added = False
        if region is not None and at is not None:
            # A border of sea (or land) around it, so that the averages near the edge count the outside.
            self.padded = Image.new("L", (region.width + 2, region.height + 2), 0)
            self.padded.paste(region, (1, 1))
            self.levels[0] = self.padded.load()
            self.size = self.padded.size

    def worn(self, r: int) -> Any:
        """The pixels averaged over squares of side 2r + 1; None when no square of that size fits anywhere."""
        if r not in self.levels:
            if r in self.images:  # read from the disk, made an image only now
                image = self.images[r]
                if isinstance(image, coast_cache.Bits):
                    image = self.images[r] = image.image()
                self.levels[r] = None if image is None else image.load()
                return self.levels[r]
            assert self.padded is not None
            average = self.padded.filter(ImageFilter.BoxBlur(r))
            full = average.getextrema()[1] == 255
            self.levels[r] = average.load() if full else None
            self.images[r] = average if full else None
            self.added = True
        return self.levels[r]

    def inside(self, x: int, y: int) -> bool:
        if self.padded is None or self.at is None:
            return False
        x, y = x - self.at[0] + 1, y - self.at[1] + 1
        return 0 <= x < self.size[0] and 0 <= y < self.size[1] and self.levels[0][x, y] == 255

    def may_fit(self, box: Box) -> bool:
        if self.padded is None or self.at is None:
            return False
        x0, y0, x1, y1 = box
        r = (y1 - y0) // 2
        r = _rounded(r)  # a few radii only, each a little less strict than asked: the crop has the last word
        pixels = self.worn(r)
        if pixels is None:
            return False
        ox, oy = self.at[0] - 1, self.at[1] - 1
        y = (y0 + y1) // 2 - oy
        width, height = self.size
        if not (0 <= y < height):
            return False
        xs = list(range(x0 + r, x1 - r, 2 * r + 1)) + [x1 - r - 1]
        return all(0 <= x - ox < width and pixels[x - ox, y] == 255 for x in xs)


def name_inside(space: Space, style: SeatStyle | None, anchors: list[tuple[int, int]], fits: Fits, room: int,
                 largest: int, smallest: int, clearance: Clearance) -> list[Label] | None:
    words = printable(space.name).split() or [""]
    note = note_of(space)
    # The largest size that fits, found by halving: a name that fits at one size fits at every smaller one.
    low, high, found = smallest, largest, None
    while low <= high:
        size = (low + high) // 2
        block = _name_at(space, style, anchors, fits, room, size, words, note, clearance)
        if block is None:
            high = size - 1
        else:
            found, low = block, size + 1
    return found


def _name_at(space: Space, style: SeatStyle | None, anchors: list[tuple[int, int]], fits: Fits, room: int,
             size: int, words: list[str], note: str, clearance: Clearance) -> list[Label] | None:
    """The name at ``size`` on one, two or three lines, at the first place that holds it; None if none does."""
    for k in range(1, min(3, len(words)) + 1):
        lines = splits(words, k, size, False)
        probe = stack(space, style, 0, 0, False, lines, size, note)
        x0, y0 = min(lb.box[0] for lb in probe), min(lb.box[1] for lb in probe)
        x1, y1 = max(lb.box[2] for lb in probe), max(lb.box[3] for lb in probe)
        if (x1 - x0) * (y1 - y0) > room:
            continue
        half = (y1 - y0) // 2
        if clearance.worn((y1 - y0 + 2) // 2) is None:
            continue  # no room anywhere for a block this tall
        for ax, ay in anchors:
            box = (ax + x0 - 1, ay - half + y0 - 1, ax + x1 + 1, ay - half + y1 + 1)
            if clearance.may_fit(box) and fits(box):
                return stack(space, style, ax, ay - half, False, lines, size, note)
    return None


def name_beside(space: Space, style: SeatStyle | None, region: Box, taken: list[Box], frame: Box, size: int
                 ) -> list[Label]:
    """The name on a plate next to an area too small for it, clear of every other label; at worst over its centre."""
    words = printable(space.name).split() or [""]
    note = note_of(space)
    sea = space.kind == "sea"
    plate_style = style
    for k in range(1, min(2, len(words)) + 1):
        lines = splits(words, k, size, False)
        probe = stack(space, plate_style, 0, 0, False, lines, size, note)
        x0, y0 = min(lb.box[0] for lb in probe), min(lb.box[1] for lb in probe)
        x1, y1 = max(lb.box[2] for lb in probe), max(lb.box[3] for lb in probe)
        w, h = x1 - x0, y1 - y0
        rx0, ry0, rx1, ry1 = region
        mx, my = (rx0 + rx1) // 2, (ry0 + ry1) // 2
        for d in (3, 8, 14, 22, 32, 44):
            for cx, top in ((rx1 + d + w // 2, my - h // 2), (rx0 - d - w // 2 - 1, my - h // 2), (mx, ry1 + d),
                            (mx, ry0 - d - h), (rx1 + d + w // 2, ry1 + d), (rx0 - d - w // 2, ry1 + d),
                            (rx1 + d + w // 2, ry0 - d - h), (rx0 - d - w // 2, ry0 - d - h)):
                box = (cx + x0 - 2, top + y0 - 2, cx + x1 + 2, top + y1 + 2)
                if not (frame[0] <= box[0] and frame[1] <= box[1] and box[2] <= frame[2] and box[3] <= frame[3]):
                    continue
                if any(intersects(box, other) for other in taken):
                    continue
                return stack(space, plate_style, cx, top, False, lines, size, note)
    lines = (printable(space.name),)
    return stack(space, plate_style, (region[0] + region[2]) // 2, region[3] + 2, False, lines, size, "") if not sea \
        else stack(space, None, (region[0] + region[2]) // 2, region[3] + 2, False, lines, size, "")
