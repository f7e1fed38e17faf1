"""What an area map's layout works out from the map file and the width alone, kept on disk between processes.

A fresh ``legatus map`` would otherwise cut every area's cell out of the land and average its mask at many sizes
again (bot/render/coast_layout.py), most of its time. The file holds, for one map at one width, every area's cell,
its region of land or sea (a mask), and the averages of that mask found so far (as where they are full: all the
layout reads of them), and where each name went in its area for its text, note, style and sizes (the labels, or
none: it goes beside the area). It is named by a hash of everything those depend on: the drawing (view, reaches,
borders, the coast's points), the areas' names and centres, the width and frame, the code that computes them, and
Pillow's and FreeType's versions (names are measured in Pillow's bundled font). So a changed map file or new code is another name, never a stale hit; the file also carries the hash of its
own contents and is read only if both match. A file missing, unreadable, corrupt or in an old format is ignored and
the layout computes (and writes) it again; a folder that cannot be written only costs the speed.

Where: ``$LEGATUS_CACHE_DIR``, else ``$XDG_CACHE_HOME/legatus``, else ``~/.cache/legatus``; the files are in its
``maps`` folder (the ``FILES_KEPT`` most recently written), and any of them may be deleted at any time.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
import zlib
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import PIL
from PIL import Image, ImageFont

from bot.render.layout_parts import Label


def _inflater() -> tuple[Callable[[bytes], bytes], tuple[type[Exception], ...]]:
    """ISA-L's inflate where it is installed (the PNG's deflate, bot/render/png_file.py, brings it), else zlib's: the
    same bytes from the same deflate streams, the layers' 3.6 MB in 1.4 ms of CPU instead of 7.7."""
    try:  # imported by name: a speed-up only, which a platform without its wheel goes without
        isal = importlib.import_module("isal.isal_zlib")
    except ImportError:
        return zlib.decompress, (zlib.error,)
    return isal.decompress, (zlib.error, isal.error)


inflate, INFLATE_ERRORS = _inflater()
UNREADABLE: tuple[type[Exception], ...] = (ValueError, KeyError, TypeError, *INFLATE_ERRORS)  # a file not as written

FORMAT = b"legatus-map-cache 4\n"
FILES_KEPT = 32  # maps times widths: past this, the least recently written go (each file is a few hundred KiB)
Box = tuple[int, int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class Bits:
    """A mask as the file keeps it, a bit a pixel (``deflated``: and deflated on its own): most of a region's averages
    are never read by a render that finds its names' places in the file, so each is inflated and made an image only
    when read."""

    size: tuple[int, int]
    data: bytes
    deflated: bool = False

    def image(self) -> Image.Image:
        return _image(self.size, inflate(self.data) if self.deflated else self.data)


@dataclass
class StoredRegion:
    """An area's region as the layout computed it: where it lies, its pixels, its mask (0 or 255), and each average
    of its padded mask by radius, thresholded (255 where full), or None where no square of that radius fits."""

    box: Box
    room: int
    mask: Image.Image
    levels: dict[int, Image.Image | Bits | None] = field(default_factory=dict)
    names: dict[str, list[Label] | None] = field(default_factory=dict)  # by name_key of what placed the name


@dataclass
class StoredGroup:
    """The cells of one kind of area (land, or sea) and each area's region (None: its cell holds none of it)."""

    cells: list[tuple[tuple[Point, ...], tuple[str | None, ...]]]
    regions: list[StoredRegion | None]


Lines = tuple[tuple[Point, ...], ...]


@dataclass
class StoredFrame:
    """What one file holds: the coast's rings cut to the frame and the coast's lines (pixels; None: not stored), and
    the groups of cells by their key."""

    groups: dict[str, StoredGroup] = field(default_factory=dict)
    land: Lines | None = None
    coast: Lines | None = None


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    if environ.get("LEGATUS_CACHE_DIR"):
        return Path(environ["LEGATUS_CACHE_DIR"]) / "maps"
    base = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "legatus" / "maps"


def sources(*names: str) -> bytes:
    """The code of the modules ``names`` of bot/render, read by path (they import this module), for a cache file's
    name to change with the code that computes its contents."""
    return b"".join(Path(__file__).with_name(f"{name}.py").read_bytes() for name in names)


def _code_version() -> bytes:
    """The format, Pillow's and FreeType's versions and the code of the layout."""
    freetype = str(getattr(ImageFont.core, "freetype2_version", ""))
    digest = hashlib.sha256(FORMAT + PIL.__version__.encode() + freetype.encode())
    digest.update(sources("area_geometry", "area_layout", "coast_layout", "coast_names", "layout_parts", "text"))
    return digest.digest()


# Read once, as the process loads its code: a source replaced under a running bot must not name what this code computes.
_CODE_VERSION = _code_version()


def _rings_bytes(rings: Sequence[Sequence[Sequence[float]]]) -> bytes:
    """The rings' points as doubles after the rings' lengths: a fifth of the time their repr takes (6,749 points)."""
    try:
        lengths = array("q", [len(ring) for ring in rings])
        return lengths.tobytes() + array("d", [v for ring in rings for point in ring for v in point]).tobytes()
    except TypeError:  # not rings of points
        return repr(rings).encode()


def frame_key(drawing_fields: object, rings: Sequence[Sequence[Sequence[float]]], frame: object) -> str:
    """The name of one map's file at one frame: a hash of what its contents depend on."""
    digest = hashlib.sha256(_CODE_VERSION)
    digest.update(repr(drawing_fields).encode())
    digest.update(_rings_bytes(rings))
    digest.update(repr(frame).encode())
    return digest.hexdigest()


def group_key(key: object) -> str:
    return hashlib.sha256(repr(key).encode()).hexdigest()


name_key = group_key  # a name's placement in its region, by everything else it depends on


def _label_json(label: Label) -> list[object]:
    return [label.kind, label.place, list(label.lines), label.size, list(label.box),
            [list(box) for box in label.line_boxes], list(label.colour),
            None if label.plate is None else list(label.plate),
            None if label.plate_outline is None else list(label.plate_outline), label.bold]


def _ints(value: object, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"not {n} numbers: {value!r}")
    return tuple(int(v) for v in value)


def _rgb(value: object) -> tuple[int, int, int] | None:
    if value is None:
        return None
    r, g, b = _ints(value, 3)
    return r, g, b


def _box(value: object) -> Box:
    x0, y0, x1, y1 = _ints(value, 4)
    return x0, y0, x1, y1


def _label(data: object) -> Label:
    if not isinstance(data, list) or len(data) != 10:
        raise ValueError(f"not a label: {data!r}")
    kind, place, lines, size, box, line_boxes, colour, plate, outline, bold = data
    colour_rgb = _rgb(colour)
    if colour_rgb is None or not isinstance(lines, list) or not isinstance(line_boxes, list):
        raise ValueError(f"not a label: {data!r}")
    return Label(str(kind), str(place), tuple(str(line) for line in lines), int(size), _box(box),
                 tuple(_box(b) for b in line_boxes), colour_rgb, _rgb(plate), _rgb(outline), bool(bold))


def _bits(image: Image.Image) -> bytes:
    return image.convert("1").tobytes()


def _image(size: tuple[int, int], data: bytes) -> Image.Image:
    return Image.frombytes("1", size, data).convert("L")


def _floats(lines: Lines, raw: Callable[[bytes], list[int]]) -> list[object]:
    """Lines as their lengths and where their points' coordinates lie in the body (doubles: read back exactly)."""
    return [[len(line) for line in lines], raw(array("d", [v for line in lines for p in line for v in p]).tobytes())]


def _lines(value: object, raw: bytes) -> Lines:
    if not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], list):
        raise ValueError(f"not lines: {value!r}")
    start, size = _ints(value[1], 2)
    numbers = array("d")
    numbers.frombytes(raw[start:start + size])
    points = list(zip(numbers[0::2], numbers[1::2]))
    out, at = [], 0
    for n in value[0]:
        out.append(tuple(points[at:at + int(n)]))
        at += int(n)
    if at != len(points):
        raise ValueError("lines cut short")
    return tuple(out)


def save(folder: Path, key: str, groups: Mapping[str, StoredGroup], land: Lines | None = None,
         coast: Lines | None = None) -> None:
    stored: dict[str, object] = {}
    blobs: list[bytes] = []
    offset = 0

    def raw(data: bytes) -> list[int]:
        nonlocal offset
        blobs.append(data)
        offset += len(data)
        return [offset - len(data), len(data)]

    def blob(image: Image.Image | Bits) -> list[int]:
        if isinstance(image, Bits):
            return [*raw(image.data), *image.size]
        return [*raw(_bits(image)), image.width, image.height]

    def alone(image: Image.Image | Bits) -> list[int]:
        """An average deflated on its own (four fifths of the file's bits, most never read)."""
        if isinstance(image, Bits) and image.deflated:
            return [*raw(image.data), *image.size]
        data = image.data if isinstance(image, Bits) else _bits(image)
        return [*raw(zlib.compress(data, 1)), *image.size]

    for name, group in groups.items():
        regions: list[object] = []
        for region in group.regions:
            if region is None:
                regions.append(None)
                continue
            regions.append({"box": list(region.box), "room": region.room, "mask": blob(region.mask),
                            "levels": {str(r): None if level is None else alone(level)
                                       for r, level in region.levels.items()},
                            "names": {k: None if labels is None else [_label_json(lb) for lb in labels]
                                      for k, labels in region.names.items()}})
        stored[name] = {"cells": [[[list(p) for p in points], list(sides)] for points, sides in group.cells],
                        "regions": regions}
    head: dict[str, object] = {"key": key, "groups": stored}
    if land is not None and coast is not None:
        head["land"], head["coast"] = _floats(land, raw), _floats(coast, raw)
    _write(folder, key, _sealed(FORMAT, head, zlib.compress(b"".join(blobs), 1)), ".bin")


def _write(folder: Path, name: str, data: bytes, suffix: str) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: a reader never sees half a file, two writers leave one whole file.
        with tempfile.NamedTemporaryFile("wb", dir=folder, prefix=".", suffix=".tmp", delete=False) as out:
            out.write(data)
        os.replace(out.name, folder / f"{name}{suffix}")
        _prune(folder, suffix)
    except OSError:
        return  # a folder that cannot be written: the next process computes it again


def _prune(folder: Path, suffix: str = ".bin") -> None:
    """The folder kept to ``FILES_KEPT`` files of each kind: a bot asked for many widths does not fill the disk."""
    files = sorted(folder.glob(f"*{suffix}"), key=lambda f: f.stat().st_mtime_ns, reverse=True)
    for stale in files[FILES_KEPT:]:
        stale.unlink(missing_ok=True)


def _sealed(form: bytes, head: dict[str, object], body: bytes) -> bytes:
    """The file's bytes: its format, the hash of the rest, the header's length, the header (JSON), the body."""
    encoded = json.dumps(head, separators=(",", ":")).encode()
    check = hashlib.sha256(encoded + body).hexdigest().encode()
    return form + check + b"\n" + str(len(encoded)).encode() + b"\n" + encoded + body


def read_sealed(folder: Path, key: str, suffix: str, form: bytes) -> tuple[dict[str, object], bytes] | None:
    """The header and body of ``key``+``suffix`` in ``folder``, written in ``form`` for ``key``; None when there is no
    such file, or it is not exactly what was written (what its body holds, the caller checks)."""
    try:
        data = (folder / f"{key}{suffix}").read_bytes()
    except OSError:
        return None
    try:
        return _opened(data, form, key)
    except UNREADABLE:
        return None


def _opened(data: bytes, form: bytes, key: str) -> tuple[dict[str, object], bytes] | None:
    """The header and body of a file of ``form`` written for ``key``; None unless it is exactly what was written."""
    if not data.startswith(form):
        return None
    check, length, rest = data[len(form):].split(b"\n", 2)
    head, body = rest[:int(length)], rest[int(length):]
    if hashlib.sha256(head + body).hexdigest().encode() != check:
        return None
    header = json.loads(head)
    return (header, body) if isinstance(header, dict) and header.get("key") == key else None


LAYERS_FORMAT = b"legatus-map-layers 2\n"
Corner = tuple[int, int]


def save_layers(folder: Path, key: str, under: Image.Image, corner: Corner,
                masks: Mapping[str, tuple[Corner, Image.Image]]) -> None:
    """An area map's layers painted from the map alone (bot/render/coast_layers.py), in ``key``.layer: the palette
    image under the areas and each land area's mask, verified by the hash of the file like the layout's."""
    # A map has a dozen colours: two pixels a byte then, half the bytes to inflate.
    top = under.getextrema()[1]
    rawmode = "P;4" if isinstance(top, int) and top < 16 else "P"
    blobs = [under.tobytes("raw", rawmode)]
    places: dict[str, list[int]] = {}
    for name, ((x, y), mask) in masks.items():
        places[name] = [x, y, mask.width, mask.height]
        blobs.append(_bits(mask))
    head: dict[str, object] = {"key": key, "corner": list(corner), "size": list(under.size), "rawmode": rawmode,
                               "palette": under.getpalette() or [], "masks": places}
    _write(folder, key, _sealed(LAYERS_FORMAT, head, zlib.compress(b"".join(blobs), 1)), ".layer")


def load_layers(folder: Path, key: str
                ) -> tuple[Image.Image, Corner, dict[str, tuple[Corner, Image.Image]]] | None:
    """What ``save_layers`` wrote for ``key``; None when there is no such file or it is not exactly what was written."""
    opened = read_sealed(folder, key, ".layer", LAYERS_FORMAT)
    if opened is None:
        return None
    head, body = opened
    try:
        raw = inflate(body)
        w, h = _ints(head["size"], 2)
        palette, places, rawmode = head["palette"], head["masks"], head["rawmode"]
        if not isinstance(palette, list) or not isinstance(places, dict) or rawmode not in ("P", "P;4"):
            return None
        offset = (w + 1) // 2 * h if rawmode == "P;4" else w * h
        under = Image.frombytes("P", (w, h), raw[:offset], "raw", rawmode)
        under.putpalette([int(v) for v in palette])
        cx, cy = _ints(head["corner"], 2)
        masks: dict[str, tuple[Corner, Image.Image]] = {}
        for name, place in places.items():
            x, y, mw, mh = _ints(place, 4)
            size = (mw + 7) // 8 * mh
            masks[str(name)] = ((x, y), _image((mw, mh), raw[offset:offset + size]))
            offset += size
        if offset != len(raw):
            return None
        return under, (cx, cy), masks
    except UNREADABLE:
        return None


def load(folder: Path, key: str) -> StoredFrame:
    """What is stored for ``key``; empty when there is no such file or it is not exactly what was written."""
    opened = read_sealed(folder, key, ".bin", FORMAT)
    if opened is None:
        return StoredFrame()
    header, body = opened
    try:
        groups = header["groups"]
        if not isinstance(groups, dict):
            return StoredFrame()
        raw = inflate(body)

        def bits(ref: list[int], deflated: bool = False) -> Bits:
            start, size, w, h = ref
            return Bits((w, h), raw[start:start + size], deflated)

        out: dict[str, StoredGroup] = {}
        for name, group in groups.items():
            cells = [(tuple((float(x), float(y)) for x, y in points), tuple(sides)) for points, sides in group["cells"]]
            regions: list[StoredRegion | None] = []
            for region in group["regions"]:
                if region is None:
                    regions.append(None)
                    continue
                levels: dict[int, Image.Image | Bits | None] = {
                    int(r): None if ref is None else bits(ref, True) for r, ref in region["levels"].items()}
                names = {str(k): None if labels is None else [_label(lb) for lb in labels]
                         for k, labels in region["names"].items()}
                regions.append(StoredRegion(tuple(region["box"]), int(region["room"]), bits(region["mask"]).image(),
                                            levels, names))
            out[name] = StoredGroup(cells, regions)
        if "land" in header and "coast" in header:
            return StoredFrame(out, _lines(header["land"], raw), _lines(header["coast"], raw))
        return StoredFrame(out)
    except UNREADABLE:
        return StoredFrame()
