"""The [drawing] table of an area map: what it holds, and each mistake refused with what was wrong and what is right."""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.area_drawing import Border, Drawing, DrawingError, load_land, read_drawing
from engine.area_map import MapError, build_map, load_map

DATA = Path(__file__).resolve().parents[2] / "data"
MAP = DATA / "maps" / "mediterranean-empires.toml"
AREAS = {"Alpha": ("land", (1.0, 1.0)), "Beta": ("land", (3.0, 1.0)), "Gulf": ("sea", (2.0, 3.0))}
GOOD: dict[str, Any] = {"land": "mediterranean-land.json", "view": [0, 0, 4, 4], "reach": 1.5}


def drawing(**changes: Any) -> Drawing | None:
    return read_drawing({**GOOD, **changes}, AREAS, "tiny.toml")


def refused(**changes: Any) -> str:
    with pytest.raises(DrawingError) as caught:
        drawing(**changes)
    return str(caught.value)


def test_a_table_is_read_with_its_defaults() -> None:
    d = drawing(reaches={"Gulf": 2.5}, border=[{"between": ["Alpha", "Beta"], "through": [[2.2, 0], [2.2, 2]]}])
    assert d == Drawing("mediterranean-land.json", (0.0, 0.0, 4.0, 4.0), 1.5, 1.5, (("Gulf", 2.5),),
                        (Border("Alpha", "Beta", ((2.2, 0.0), (2.2, 2.0))),))
    assert (d.reach_of("Alpha", False), d.reach_of("Gulf", True), d.reach_of("Beta", True)) == (1.5, 2.5, 1.5)
    assert d.rings == ()  # no folder of coastlines given: nothing read
    assert read_drawing(None, AREAS) is None


def test_each_mistake_says_what_was_wrong_and_what_is_right() -> None:
    assert refused(colour="blue") == ("tiny.toml: [drawing]: unknown key 'colour'; the keys are land, view, reach, "
                                      "sea_reach, reaches, border, colours")
    assert refused(land="../secrets.json") == ('tiny.toml: [drawing]: \'land\' must name a coastline file of data/geo/, '
                                               'such as "mediterranean-land.json", not \'../secrets.json\'')
    assert refused(view=[0, 0, 4]) == "tiny.toml: [drawing]: 'view' must be [west, south, east, north], not [0, 0, 4]"
    assert refused(view=[4, 0, 0, 4]) == "tiny.toml: [drawing]: 'view' [4, 0, 0, 4] must have west < east and south < north"
    assert refused(view=[0, 0, 2, 4]) == ("tiny.toml: [drawing]: the centre of 'Beta' [3.0, 1.0] lies outside the view "
                                          "[0, 0, 2, 4]: widen the view or move the centre")
    assert refused(reach="far") == "tiny.toml: [drawing] reach must be a number, not 'far'"
    assert refused(reach=0) == "tiny.toml: [drawing]: the reach of land areas is 0.0: it must be more than 0"
    assert refused(reaches={"Gamma": 1}) == "tiny.toml: [drawing] reaches: 'Gamma' is not an area of the map"
    line = [[2.2, 0], [2.2, 2]]
    assert refused(border=[{"between": ["Alpha"], "through": line}]) == (
        "tiny.toml: [drawing] border 1: 'between' must name two areas, [\"A\", \"B\"], not ['Alpha']")
    assert refused(border=[{"between": ["Alpha", "Gulf"], "through": line}]) == (
        "tiny.toml: [drawing] border 1: a border separates two land areas or two sea areas; 'Alpha' is land and "
        "'Gulf' is sea")
    assert refused(border=[{"between": ["Alpha", "Beta"], "through": [[2, 0], [2, 0]]}]) == (
        "tiny.toml: [drawing] border 1: the two points of 'through' are the same point: a line needs two")
    # A line that leaves both centres on one side would give one of them nothing.
    assert refused(border=[{"between": ["Alpha", "Beta"], "through": [[3.5, 0], [3.5, 2]]}]) == (
        "tiny.toml: [drawing] border 1: the line through [3.5, 0.0] and [3.5, 2.0] must pass between the centres of "
        "'Alpha' [1.0, 1.0] and 'Beta' [3.0, 1.0]")


def test_the_coastline_is_read_from_the_geo_folder_and_a_missing_file_is_named(tmp_path: Path) -> None:
    d = read_drawing(GOOD, AREAS, "tiny.toml", DATA / "geo")
    assert d is not None and len(d.rings) == 112
    assert d.rings is load_land(DATA / "geo" / "mediterranean-land.json")  # read once per process
    with pytest.raises(DrawingError) as caught:
        read_drawing({**GOOD, "land": "atlantis.json"}, AREAS, "tiny.toml", tmp_path)
    assert str(caught.value) == (f"tiny.toml: [drawing]: the coastline file {tmp_path / 'atlantis.json'} does not "
                                 f"exist; 'land' names a file of {tmp_path}")


def test_the_coastline_file_says_where_it_comes_from() -> None:
    import json

    document = json.loads((DATA / "geo" / "mediterranean-land.json").read_text(encoding="utf-8"))
    assert "Natural Earth 1:10m land, version 4.1.0" in document["source"] and "world-atlas@2.0.2" in document["source"]
    assert document["licence"].startswith("Natural Earth: public domain")
    assert document["box"] == [-10.0, 28.0, 42.0, 48.0]


def test_mediterranean_empires_is_drawn_over_the_coastline_and_a_bad_table_stops_the_map() -> None:
    amap = load_map(MAP)
    assert amap.drawing is not None and amap.drawing.land == "mediterranean-land.json" and len(amap.drawing.rings) == 112
    raw = tomllib.loads(MAP.read_text(encoding="utf-8"))
    broken = copy.deepcopy(raw)
    broken["drawing"]["reaches"]["Atlantis"] = 2
    with pytest.raises(MapError) as caught:
        build_map(broken, "mediterranean-empires.toml")
    assert str(caught.value) == "mediterranean-empires.toml: [drawing] reaches: 'Atlantis' is not an area of the map"
    without = copy.deepcopy(raw)
    del without["drawing"]
    assert build_map(without).drawing is None


def test_a_map_file_without_a_drawing_is_drawn_over_the_first_coastline_that_covers_its_centres() -> None:
    raw = tomllib.loads(MAP.read_text(encoding="utf-8"))
    del raw["drawing"]
    derived = build_map(raw, "mediterranean-empires.toml", DATA / "geo").drawing
    centres = [a.at for a in load_map(MAP).lands.values()] + [s.at for s in load_map(MAP).seas.values()]
    west, south = min(x for x, _y in centres), min(y for _x, y in centres)
    east, north = max(x for x, _y in centres), max(y for _x, y in centres)
    assert derived == Drawing("mediterranean-land.json", (max(-10.0, west - 1.5), max(28.0, south - 1.5),
                                                          min(42.0, east + 1.5), min(48.0, north + 1.5)), 2.0, 3.4)
    assert len(derived.rings) == 112
    # Mare Nostrum: Empires reaches the Nile's valley and Mesopotamia: only the wide coastline covers it.
    empires = load_map(DATA / "maps" / "mare-nostrum-empires.toml").drawing
    assert empires is not None and empires.land == "mediterranean-wide-land.json" and len(empires.rings) == 127


def test_centres_no_coastline_covers_leave_the_map_without_a_drawing() -> None:
    raw = tomllib.loads(MAP.read_text(encoding="utf-8"))
    del raw["drawing"]
    raw["land"]["Corsica"]["at"] = [60.0, 42.0]  # east of every coastline file
    assert build_map(raw, "mediterranean-empires.toml", DATA / "geo").drawing is None


def test_the_wide_coastline_says_where_it_comes_from() -> None:
    import json

    document = json.loads((DATA / "geo" / "mediterranean-wide-land.json").read_text(encoding="utf-8"))
    assert "world-atlas@2.0.2" in document["source"] and document["box"] == [-10.0, 22.0, 50.0, 48.0]
    assert document["licence"].startswith("Natural Earth: public domain")
