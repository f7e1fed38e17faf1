"""The disk cache of what an area map's layout works out from the map file and the width (bot/render/coast_cache.py):
a fresh process that reads it draws byte for byte what one that computed everything draws; a file that is not
exactly what was written, or belongs to another map, width or code, is never used."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.render import coast_cache, coast_layers, coast_layout, coast_names
from bot.render.map_png import render_png
from engine.rulesets import load_ruleset
from tests.bot.render import area_pictures
from tests.bot.render.test_coast_map import gm_edited


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LEGATUS_CACHE_DIR", str(tmp_path / "cache"))
    coast_layout._GROUNDS.clear()
    coast_layers._KEPT.clear()
    return tmp_path / "cache" / "maps"


def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process: nothing in memory, and no coast cut to the frame, cell, average, name's place or layer
    painted from the map may be computed (only read from the disk)."""
    coast_layout._GROUNDS.clear()
    coast_layers._KEPT.clear()

    def refused(*_args: object) -> object:
        raise AssertionError("computed again instead of read from the cache")
    monkeypatch.setattr(coast_layout, "cells", refused)
    monkeypatch.setattr(coast_layout, "clip_ring", refused)
    monkeypatch.setattr(coast_layout, "coast_lines", refused)
    monkeypatch.setattr(coast_names.ImageFilter, "BoxBlur", refused)
    monkeypatch.setattr(coast_layout, "name_inside", refused)
    monkeypatch.setattr(coast_layers, "paint_layers", refused)


def test_a_render_from_the_cache_is_the_computed_one_byte_for_byte(cache: Path, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    setup, late = area_pictures.load("me-setup.json"), area_pictures.load("me-late.json")
    cold_setup, cold_late = render_png(setup, 1200), render_png(late, 1200)
    assert len(list(cache.glob("*.bin"))) == 1  # one map at one width: one file, grown by the second picture
    assert len(list(cache.glob("*.layer"))) == 1  # and its layers, which the state does not change
    _fresh(monkeypatch)
    assert render_png(late, 1200) == cold_late
    assert render_png(setup, 1200) == cold_setup


def test_each_width_has_its_own_file(cache: Path) -> None:
    setup = area_pictures.load("me-setup.json")
    render_png(setup, 900)
    render_png(setup, 1000)
    assert len(list(cache.glob("*.bin"))) == 2


def test_a_damaged_file_is_ignored_and_written_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup = area_pictures.load("me-setup.json")
    cold = render_png(setup, 1000)
    [path] = cache.glob("*.bin")
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x40  # one bit of one average flipped: the file's own hash no longer matches
    path.write_bytes(bytes(data))
    assert coast_cache.load(cache, path.stem) == coast_cache.StoredFrame()
    coast_layout._GROUNDS.clear()
    assert render_png(setup, 1000) == cold
    assert coast_cache.load(cache, path.stem).groups != {}
    _fresh(monkeypatch)
    assert render_png(setup, 1000) == cold


@pytest.mark.parametrize("damage", [b"", b"legatus-map-cache 0\n", b"legatus-map-cache 1\nnot hex\n12\n{}"])
def test_a_file_in_another_format_or_cut_short_is_ignored(cache: Path, damage: bytes) -> None:
    cache.mkdir(parents=True)
    (cache / "k.bin").write_bytes(damage)
    assert coast_cache.load(cache, "k") == coast_cache.StoredFrame()


def test_a_file_under_another_maps_name_is_not_read(cache: Path) -> None:
    setup = area_pictures.load("me-setup.json")
    render_png(setup, 1000)
    [path] = cache.glob("*.bin")
    path.rename(cache / ("0" * 64 + ".bin"))
    assert coast_cache.load(cache, "0" * 64) == coast_cache.StoredFrame()  # the key written inside is the other one


def test_a_gm_edited_map_is_computed_not_read_from_the_original_s_file(cache: Path, tmp_path: Path) -> None:
    original = area_pictures.load("me-setup.json")
    game = load_ruleset("mediterranean-empires", gm_edited(tmp_path))
    edited = game.picture(game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}}))
    render_png(original, 1000)
    coast_layout._GROUNDS.clear()
    cold_edited = render_png(edited, 1000)  # a border drawn: another drawing, so another file
    assert len(list(cache.glob("*.bin"))) == 2
    coast_layout._GROUNDS.clear()
    assert render_png(edited, 1000) == cold_edited


def test_the_name_changes_with_the_drawing_the_frame_and_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    key = coast_cache.frame_key(("land.json", (0.0, 1.0, 2.0, 3.0)), ((0.0, 0.0),), (1000, 24, 80))
    assert coast_cache.frame_key(("land.json", (0.0, 1.0, 2.0, 3.5)), ((0.0, 0.0),), (1000, 24, 80)) != key
    assert coast_cache.frame_key(("land.json", (0.0, 1.0, 2.0, 3.0)), ((0.0, 0.1),), (1000, 24, 80)) != key
    assert coast_cache.frame_key(("land.json", (0.0, 1.0, 2.0, 3.0)), ((0.0, 0.0),), (1001, 24, 80)) != key
    monkeypatch.setattr(coast_cache, "FORMAT", b"legatus-map-cache 99\n")
    # The code is read once, as the process loads it (the test below): a process of other code has another version.
    assert coast_cache._code_version() != coast_cache._CODE_VERSION
    monkeypatch.setattr(coast_cache, "_CODE_VERSION", coast_cache._code_version())
    assert coast_cache.frame_key(("land.json", (0.0, 1.0, 2.0, 3.0)), ((0.0, 0.0),), (1000, 24, 80)) != key


def test_a_folder_that_cannot_be_written_costs_only_the_speed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("LEGATUS_CACHE_DIR", str(blocked))
    setup = area_pictures.load("me-setup.json")
    coast_layout._GROUNDS.clear()
    first = render_png(setup, 900)
    coast_layout._GROUNDS.clear()
    assert render_png(setup, 900) == first
    assert blocked.read_text(encoding="utf-8") == "not a folder"


def test_the_folder_follows_the_environment() -> None:
    assert coast_cache.cache_dir({"LEGATUS_CACHE_DIR": "/srv/c", "XDG_CACHE_HOME": "/x"}) == Path("/srv/c/maps")
    assert coast_cache.cache_dir({"XDG_CACHE_HOME": "/x", "HOME": "/h"}) == Path("/x/legatus/maps")
    assert coast_cache.cache_dir({"HOME": "/h"}) == Path("/h/.cache/legatus/maps")


def test_the_folder_keeps_only_the_most_recent_files(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coast_cache, "FILES_KEPT", 2)
    setup = area_pictures.load("me-setup.json")
    for width in (800, 850, 900):
        render_png(setup, width)
    assert len(list(cache.glob("*.bin"))) == 2
    coast_layout._GROUNDS.clear()
    _fresh(monkeypatch)
    render_png(setup, 900)  # the last two widths are still read from the disk
    render_png(setup, 850)


def test_a_damaged_layers_file_is_ignored_and_painted_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup = area_pictures.load("me-setup.json")
    cold = render_png(setup, 1000)
    [path] = cache.glob("*.layer")
    data = bytearray(path.read_bytes())
    data[-50] ^= 0x01  # one bit of one area's mask flipped: the file's own hash no longer matches
    path.write_bytes(bytes(data))
    assert coast_cache.load_layers(cache, path.stem) is None
    coast_layers._KEPT.clear()
    assert render_png(setup, 1000) == cold
    assert coast_cache.load_layers(cache, path.stem) is not None
    _fresh(monkeypatch)
    assert render_png(setup, 1000) == cold


def test_layers_under_another_name_or_cut_short_are_not_read(cache: Path) -> None:
    render_png(area_pictures.load("me-setup.json"), 1000)
    [path] = cache.glob("*.layer")
    data = path.read_bytes()
    (cache / ("0" * 64 + ".layer")).write_bytes(data)
    assert coast_cache.load_layers(cache, "0" * 64) is None  # the key written inside is the other one
    path.write_bytes(data[:len(data) // 2])
    assert coast_cache.load_layers(cache, path.stem) is None
    path.write_bytes(b"legatus-map-layers 0\n" + data[len(coast_cache.LAYERS_FORMAT):])
    assert coast_cache.load_layers(cache, path.stem) is None


def test_the_layers_of_a_gm_edited_map_are_its_own(cache: Path, tmp_path: Path) -> None:
    game = load_ruleset("mediterranean-empires", gm_edited(tmp_path))
    edited = game.picture(game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}}))
    render_png(area_pictures.load("me-setup.json"), 1000)
    cold_edited = render_png(edited, 1000)
    assert len(list(cache.glob("*.layer"))) == 2
    coast_layers._KEPT.clear()
    coast_layout._GROUNDS.clear()
    assert render_png(edited, 1000) == cold_edited


def test_a_source_changed_on_disk_under_a_running_process_names_no_new_file(cache: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # An upgrade in place under a running bot: the files are named by the code the process runs, not by what is on
    # disk now. Read on every render, the new source named the old code's paintings (which the upgraded process
    # would then read as its own), and a change between a render's two reads of the layers' name painted them twice.
    setup = area_pictures.load("me-setup.json")
    cold = render_png(setup, 1000)
    read_bytes = Path.read_bytes

    def upgraded(path: Path) -> bytes:
        data = read_bytes(path)
        return data + b"\n# upgraded\n" if path.suffix == ".py" else data
    monkeypatch.setattr(Path, "read_bytes", upgraded)
    coast_layout._GROUNDS.clear()
    coast_layers._KEPT.clear()
    assert render_png(setup, 1000) == cold
    assert (len(list(cache.glob("*.bin"))), len(list(cache.glob("*.layer")))) == (1, 1)


def test_a_file_whose_hash_matches_but_whose_body_does_not_inflate_is_ignored(cache: Path) -> None:
    # As a writer with another deflate would leave it: the hash holds, the stream does not.
    cache.mkdir(parents=True)
    (cache / "k.bin").write_bytes(coast_cache._sealed(coast_cache.FORMAT, {"key": "k", "groups": {}}, b"not deflate"))
    (cache / "k.layer").write_bytes(coast_cache._sealed(coast_cache.LAYERS_FORMAT, {"key": "k"}, b"not deflate"))
    assert coast_cache.load(cache, "k") == coast_cache.StoredFrame()
    assert coast_cache.load_layers(cache, "k") is None
