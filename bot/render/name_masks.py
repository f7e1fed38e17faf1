"""The masks of a map's names (its lines of text as the font renders them), kept on disk between processes.

An area map's PNG lays each line of its labels through the font's own mask (bot/render/bands.py). FreeType renders
a line in about 0.15 ms, and a map has a hundred lines or more (Mediterranean Empires' set-up: 116, 17 ms of a fresh
``legatus map`` process's CPU), the same ones at every draw until a name, a note or the header changes. The masks
of one map's lines are kept in one file of the map cache (bot/render/coast_cache.py: same folder, same sealing,
same pruning), named by a hash of the lines (text, size, stroke) in their order, of the code that renders them
(this module's and bands.py's) and of Pillow's, FreeType's and Raqm's versions (the bundled font is Pillow's): another set of lines or another renderer is
another name, never a stale hit. A file missing, damaged or not exactly what was written is ignored: the masks are
rendered again, as without the file, and written.
"""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import PIL
from PIL import Image, features

from bot.render import bands
from bot.render.coast_cache import UNREADABLE, _sealed, _write, cache_dir, inflate, read_sealed, sources
from bot.render.text import font

FORMAT = b"legatus-map-names 1\n"
SUFFIX = ".names"
# A line to render: the font's size (supersampled), the text, the stroke's width in pixels.
Line = tuple[int, str, int]
# What ``ImageFont.getmask2`` gives: the mask (Pillow's core image, mode L) and where it sits from the anchor.
Mask = tuple[Any, tuple[int, int]]


def _bytes(mask: Any) -> bytes:
    image = Image.new("L", mask.size)
    image.im.paste(mask, (0, 0, *mask.size))
    return image.tobytes()


def _code_version() -> bytes:
    """The format, this module's code and bands.py's (which renders a mask), Pillow's, FreeType's and Raqm's versions."""
    digest = hashlib.sha256(FORMAT + sources("name_masks", "bands"))
    for part in (PIL.__version__, features.version("freetype2"), features.version("raqm")):
        digest.update(str(part).encode() + b"\0")
    return digest.digest()


# Read once, as the process loads its code: a source replaced under a running bot must not name what this code renders.
_CODE_VERSION = _code_version()


def _key(lines: Sequence[Line]) -> str:
    digest = hashlib.sha256(_CODE_VERSION)
    for size, text, stroke in lines:
        digest.update(f"{size}\0{stroke}\0{len(text)}\0{text}\0".encode())
    return digest.hexdigest()[:40]


def _read(folder: Path, key: str, count: int) -> list[Mask] | None:
    opened = read_sealed(folder, key, SUFFIX, FORMAT)
    if opened is None:
        return None
    head, body = opened
    try:
        places = head["masks"]
        if not isinstance(places, list) or len(places) != count:
            return None
        raw = inflate(body)
        masks: list[Mask] = []
        offset = 0
        for place in places:
            dx, dy, w, h = (int(v) for v in place)
            if w < 0 or h < 0:
                return None
            image = Image.new("L", (w, h)) if w * h == 0 else Image.frombytes("L", (w, h), raw[offset:offset + w * h])
            masks.append((image.im, (dx, dy)))
            offset += w * h
        return masks if offset == len(raw) else None
    except UNREADABLE:
        return None


def masks_of(lines: Sequence[Line]) -> list[Mask]:
    """The mask of each line, in order: read from the map cache when these lines' file is there, else rendered
    (and the file written)."""
    folder = cache_dir()
    key = _key(lines)
    kept = _read(folder, key, len(lines))
    if kept is not None:
        return kept
    masks = [bands.font_mask(font(size), text, stroke) for size, text, stroke in lines]
    places = [[dx, dy, *mask.size] for mask, (dx, dy) in masks]
    body = zlib.compress(b"".join(_bytes(mask) for mask, _ in masks), 1)
    _write(folder, key, _sealed(FORMAT, {"key": key, "masks": places}, body), SUFFIX)
    return masks
