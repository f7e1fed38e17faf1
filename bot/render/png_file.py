"""A finished map as PNG bytes: the pixels unfiltered, deflated once.

Pillow's PNG encoder tries all five row filters on every row and keeps the one that looks smallest. A map is flat
colour, which deflate already compresses well unfiltered: without the filters the Mediterranean Empires map at
1600 px is a fifth smaller (358 KB against 456 KB at zlib level 1) and encoded in less than half the CPU time
(21 ms against 54 ms); and not calling ``Image.save`` spares a fresh process Pillow's import of its JPEG, GIF, BMP
and PPM plugins (``Image.preinit``), which a map never uses. The file is a plain PNG (IHDR, one IDAT, IEND) that
any reader decodes to exactly the image's pixels.

The fast levels (1 to 3, the map's is 1) are deflated by ISA-L (the ``isal`` package, Intel's storage library's
deflate, made for speed) where it is installed: the same map's rows in 3 ms instead of zlib's 20, for a file 3%
larger (381 KB against 369 KB; the pixels are the same). Any other level, or a machine without it, uses zlib; both
write standard deflate streams, which zlib and every PNG reader decode.

The pixels are read and deflated a band of rows at a time, not as one copy of the whole image and a second with the
rows' filter bytes: in a fresh process (``legatus map``) each of those two 6 MB buffers is new memory, paid for page
by page, and the encoding took 18 ms of which 14 were the copies; by bands of 32 rows it takes 9.
"""
from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import Protocol

from PIL import Image



class Deflate(Protocol):
    """A deflate stream: zlib's and ISA-L's compress objects."""

    def compress(self, data: bytes, /) -> bytes: ...

    def flush(self, mode: int = ..., /) -> bytes: ...


_fast_compressobj: Callable[[int], Deflate] | None
try:  # a dependency, but only a speed-up: a platform without its wheel still writes the same pixels, through zlib
    from isal.isal_zlib import compressobj as _fast_compressobj
except ImportError:
    _fast_compressobj = None

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# PNG colour types by Pillow mode: greyscale, truecolour, truecolour with alpha; all 8 bits a sample.
COLOUR_TYPES: dict[str, tuple[int, int]] = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
# ISA-L's levels are 0 to 3, all of them fast ones; its 0 is not zlib's 0 (stored, no compression), so only 1 to 3,
# which mean the same to both (speed before size), go to it.
ISAL_LEVELS = range(1, 4)
# Rows read from the image at a time: 150 KB at 1600 px, small enough to be memory already touched.
BAND = 32


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def compressor(compress_level: int) -> Deflate:
    """A deflate stream at ``compress_level`` (``compress`` and ``flush``): ISA-L's for the fast levels where it
    is installed, else zlib's."""
    if _fast_compressobj is not None and compress_level in ISAL_LEVELS:
        return _fast_compressobj(compress_level)
    return zlib.compressobj(compress_level)


def encode_png(image: Image.Image, compress_level: int = 1) -> bytes:
    """``image`` (mode L, RGB or RGBA) as PNG bytes, every row with filter type 0 (None)."""
    if image.mode not in COLOUR_TYPES:
        raise ValueError(f"cannot write a {image.mode!r} image as PNG here: convert it to L, RGB or RGBA first")
    if not 0 <= compress_level <= 9:
        raise ValueError(f"compress_level {compress_level} is not a zlib level: use 0 to 9")
    colour_type, channels = COLOUR_TYPES[image.mode]
    width, height = image.size
    stride = width * channels
    deflate = compressor(compress_level)
    idat = []
    for top in range(0, height, BAND):
        band = image.crop((0, top, width, min(height, top + BAND))).tobytes()
        idat.append(deflate.compress(b"".join(b"\x00" + band[at:at + stride] for at in range(0, len(band), stride))))
    idat.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(idat)) + _chunk(b"IEND", b"")
