"""Text on a map: the bundled font, measuring a line, and fitting a name into a box (wrapping before shrinking).

Pure measuring with Pillow's bundled font, so the measures are the same on every machine; nothing is drawn here.
"""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from PIL import ImageFont

@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    # Pillow's bundled Aileron (Pillow >= 10.1): no system font, same metrics everywhere.
    return ImageFont.load_default(size=size)  # type: ignore[return-value]  # with a size, a FreeTypeFont


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


def splits(words: Sequence[str], k: int, size: int, bold: bool) -> tuple[str, ...]:
    """The words in ``k`` lines, cut where the widest line is narrowest."""
    if k <= 1 or len(words) <= 1:
        return (" ".join(words),)
    best: tuple[str, ...] | None = None
    best_width = math.inf
    for i in range(1, len(words) - k + 2):
        head = " ".join(words[:i])
        rest = splits(words[i:], k - 1, size, bold)
        width = max(text_width(head, size, bold), *(text_width(r, size, bold) for r in rest))
        if width < best_width:
            best, best_width = (head, *rest), width
    assert best is not None
    return best


def cut(text: str, max_w: int, size: int, bold: bool) -> str:
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
            lines = splits(words, k, size, bold)
            if max(text_width(line, size, bold) for line in lines) <= max_w:
                return size, lines
    k = max(1, min(max_lines, len(words), max_h // line_height(smallest)))
    lines = splits(words, k, smallest, bold)
    return smallest, tuple(cut(line, max_w, smallest, bold) for line in lines)


