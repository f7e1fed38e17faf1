"""The masks of a map's names kept in the map cache (bot/render/name_masks.py): read back byte for byte as the font
renders them, a file per set of lines, and a damaged or missing file only costs the rendering."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.render import bands
from bot.render.map_png import render_png
from bot.render.name_masks import SUFFIX, masks_of
from bot.render.text import font
from tests.bot.render import area_pictures

# A bold header's stroke, plain names, a line of one space (a mask with no rows) and one of nothing.
LINES = [(76, "Mediterranean Empires", 2), (38, "Roma", 0), (30, "Sea of Crete", 0), (40, "Gênes", 1),
         (28, " ", 0), (28, "", 0)]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LEGATUS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "maps"


def _as_rendered(masks: list[Any]) -> list[tuple[tuple[int, int], tuple[int, int], bytes]]:
    return [(mask.size, offset, bytes(mask)) for mask, offset in masks]


def _unrenderable(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("rendered, not read from the file")
    monkeypatch.setattr(bands, "font_mask", refuse)


FRESH = [(bands.font_mask(font(size), text, stroke)) for size, text, stroke in LINES]


def test_the_masks_are_the_fonts_and_read_back_from_one_file(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _as_rendered(FRESH)
    assert expected[0][0][0] > 600 and expected[4][0] == (6, 0) and expected[5][0] == (0, 0)
    assert _as_rendered(masks_of(LINES)) == expected
    files = sorted(cache.glob(f"*{SUFFIX}"))
    assert len(files) == 1
    _unrenderable(monkeypatch)
    assert _as_rendered(masks_of(LINES)) == expected


def test_other_lines_are_another_file(cache: Path) -> None:
    masks_of(LINES)
    masks_of([*LINES[:1], (76, "Mediterranean Empires", 3), *LINES[2:]])  # another stroke
    masks_of(list(reversed(LINES)))  # the same lines in another order
    masks_of([*LINES, (30, "Roma", 0)])
    assert len(list(cache.glob(f"*{SUFFIX}"))) == 4


@pytest.mark.parametrize("damage", ["truncated", "a byte changed", "empty", "not ours"])
def test_a_damaged_file_is_rendered_again_and_written(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                                      damage: str) -> None:
    masks_of(LINES)
    (path,) = cache.glob(f"*{SUFFIX}")
    data = path.read_bytes()
    path.write_bytes({"truncated": data[:len(data) // 2], "a byte changed": data[:-5] + bytes([data[-5] ^ 1]) + data[-4:],
                      "empty": b"", "not ours": b"legatus-map-layers 2\n" + data[20:]}[damage])
    assert _as_rendered(masks_of(LINES)) == _as_rendered(FRESH)
    assert path.read_bytes() == data
    _unrenderable(monkeypatch)
    assert _as_rendered(masks_of(LINES)) == _as_rendered(FRESH)


def test_a_folder_that_cannot_be_written_only_costs_the_rendering(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("LEGATUS_CACHE_DIR", str(blocked))
    assert _as_rendered(masks_of(LINES)) == _as_rendered(FRESH)


def test_a_map_drawn_with_its_names_read_from_the_file_is_the_same_picture(cache: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    picture = area_pictures.load("me-late.json")
    first = render_png(picture, 900)
    assert len(list(cache.glob(f"*{SUFFIX}"))) == 1
    _unrenderable(monkeypatch)
    assert render_png(picture, 900) == first
