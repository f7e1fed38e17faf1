"""Area maps over the real coastline (Mediterranean Empires'): each area the land or sea of its cell, names inside
their own area and never on another label, owners' colours where the map says, borders open or closed as the map's
graph says, and a GM's edit of the map file (an area moved, a border drawn) drawn as written."""
from __future__ import annotations

import io
import math
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from bot.render.area_geometry import box_in_convex, projection
from bot.render.coast_layout import BORDER, CLOSED, KEY_TEXT, SEA_BORDER, SEA_CLOSED, SEA_TINTS, land_mask
from bot.render.layout import MapLayout, build_layout, intersects, overlapping_labels
from bot.render.map_png import render_png
from bot.render.map_svg import render_svg
from bot.render.palette import style_of
from bot.render.text import printable
from engine.rulesets import load_ruleset
from engine.ruleset import Picture
from tests.bot.render import area_pictures

DATA = Path(__file__).resolve().parents[3] / "data"
# The realms whose shapes do not meet though the rules make them neighbours: passes, and areas between their centres.
CROSSINGS = {("Duchy of Guyenne", "Biscay"), ("County of Toulouse", "Montpellier"), ("Provence County", "Milan"),
             ("Milan", "Ravenna"), ("Ravenna", "Papal States"), ("Papal States", "Kingdom of Naples"),
             ("Abruzzi", "Duchy of Apulia")}


@pytest.fixture(scope="module")
def setup() -> Picture:
    return area_pictures.load("me-setup.json")


@pytest.fixture(scope="module")
def late() -> Picture:
    return area_pictures.load("me-late.json")


def in_own_area(layout: MapLayout, name: str, box: tuple[int, int, int, int]) -> bool:
    area = next(a for a in layout.areas if a.name == name)
    ground = land_mask(layout.land, (layout.width, layout.height)).crop(box).getextrema()
    on_own = ground == (255, 255) if area.clip == "land" else ground == (0, 0)
    return on_own and box_in_convex(box, area.polygon)


@pytest.mark.parametrize("width", [900, 1200, 1600, 2400])
@pytest.mark.parametrize("which", ["setup", "late"])
def test_names_sit_in_their_own_area_and_never_on_another_label(width: int, which: str, request: pytest.FixtureRequest
                                                                ) -> None:
    picture: Picture = request.getfixturevalue(which)
    layout = build_layout(picture, width)
    assert overlapping_labels(layout) == []
    assert {a.name for a in layout.areas} == {s.name for s in picture.spaces}
    beside = {a.name for a in layout.areas if a.label_outside}
    for label in layout.labels:
        if label.kind in ("province", "sea", "held") and label.place not in beside:
            assert in_own_area(layout, label.place, label.box), (label.place, label.text, label.box)
    names = {lb.place: lb.text for lb in layout.labels if lb.kind in ("province", "sea")}
    assert names == {s.name: printable(s.name) for s in picture.spaces}, "every name whole"
    # A name beside its islet has a leader line that ends at the islet's centre.
    ends = {s.points[-1] for s in layout.overlays if s.kind == "line"}
    assert all(a.centre in ends for a in layout.areas if a.label_outside)
    if width == 1600:
        assert beside == {"Kingdom of Majorca", "Arborea", "Malta"}


def test_the_pixels_of_each_area_have_its_owners_colour(late: Picture) -> None:
    layout = build_layout(late, 1600)
    image = Image.open(io.BytesIO(render_png(late, 1600))).convert("RGB")
    assert image.size == (layout.width, layout.height)
    fill = {s.name: s.fill for s in late.spaces}
    checked = 0
    for area in layout.areas:
        if area.sample is None:
            assert area.name == "Malta"  # its name, beside it, leaves no room there at this size
            continue
        colours = image.crop(area.sample).getcolors(maxcolors=10_000)
        assert colours is not None
        dominant = max(colours)[1]
        expected = area.tint if area.kind == "sea" else style_of(layout.styles, fill[area.name]).fill
        assert dominant == expected, (area.name, dominant, expected)
        checked += 1
    assert checked == len(late.spaces) - 1
    assert {a.tint for a in layout.areas if a.kind == "sea"} <= set(SEA_TINTS)


def test_borders_are_open_or_closed_as_the_rules_say_and_linked_areas_apart_are_joined(setup: Picture) -> None:
    layout = build_layout(setup, 1600)
    links = {frozenset(pair) for pair in setup.links}
    kinds = {s.name: s.kind for s in setup.spaces}
    closed = set()
    touching = 0
    for area in layout.areas:
        assert len(area.edges) == len(area.neighbours) == len(area.polygon)
        for edge, other in zip(area.edges, area.neighbours):
            if other is None:  # the area's reach, or the frame: the edge of the board
                assert edge.outline == (SEA_BORDER if area.kind == "sea" else BORDER)
                continue
            touching += 1
            assert kinds[other] == kinds[area.name]
            opened = frozenset((area.name, other)) in links
            if area.kind == "sea":
                assert edge.outline == (SEA_BORDER if opened else SEA_CLOSED), (area.name, other)
            else:
                assert edge.outline == (BORDER if opened else CLOSED), (area.name, other)
                if not opened:
                    closed.add(frozenset((area.name, other)))
    assert touching > 150
    # Cells that touch where the rules have no border: the thick brown line says no land move crosses it (the
    # Strait of Messina, crossed only by fleet; the Pyrenees between Guyenne and Upper Aragon).
    assert {frozenset(("Calabria", "Val Demone")), frozenset(("Duchy of Guyenne", "Upper Aragon"))} <= closed
    assert not (closed & links)
    assert set(layout.crossings) == CROSSINGS
    # The key says what both lines mean (the game's own key has no such rows).
    assert [lb.text for lb in layout.labels_of("key")] == [KEY_TEXT["closed"], KEY_TEXT["crossing"]]
    assert [i.kind for i in layout.icons if i.place == "legend" and i.kind != "swatch"] == ["closed", "crossing"]
    assert all(frozenset(pair) in links for pair in layout.crossings)
    assert sum(1 for s in layout.overlays if s.kind == "line") > 2 * len(CROSSINGS)  # dashed, and the leaders


def test_the_svg_draws_every_area_cut_to_its_ground_and_the_attacked_ones_framed(late: Picture) -> None:
    root = ET.fromstring(render_svg(late, 1200))
    ns = "{http://www.w3.org/2000/svg}"
    groups = list(root.iter(f"{ns}g"))
    owners = {g.get("data-name"): g.get("data-owner") for g in groups if g.get("class") == "province"}
    assert owners == {s.name: s.fill or "" for s in late.spaces if s.kind == "land"}
    seas = {g.get("data-name") for g in groups if g.get("class") == "sea"}
    assert seas == {s.name for s in late.spaces if s.kind == "sea"}
    clips = {c.get("id") for c in root.iter(f"{ns}clipPath")}
    assert {"land", "sea", "frame"} <= clips
    areas = next(g for g in groups if g.get("class") == "areas")
    assert areas.get("clip-path") == "url(#land)"
    framed = {g.get("data-name") for g in groups if g.get("class") == "attacked"}
    assert framed == {s.name for s in late.spaces if s.highlight} and framed


def gm_edited(tmp_path: Path) -> Path:
    """A copy of the data folder whose map a GM edited: Corsica's centre moved, and the border between Sicily's two
    areas drawn along the meridian 14° E."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns("*.pyc"))
    path = data / "maps" / "mediterranean-empires.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index('[land."Corsica"]')
    text = text[:start] + text[start:].replace("at = [9.1, 42.1]", "at = [9.2, 41.8]", 1)
    text += ('\n[[drawing.border]]\nbetween = ["Val di Mazara", "Val Demone"]\nthrough = [[14.0, 36.0], [14.0, 39.0]]\n')
    path.write_text(text, encoding="utf-8")
    assert tomllib.loads(text)["land"]["Corsica"]["at"] == [9.2, 41.8]
    return data


def test_a_map_file_a_gm_edited_is_drawn_as_written(tmp_path: Path) -> None:
    game = load_ruleset("mediterranean-empires", gm_edited(tmp_path))
    picture = game.picture(game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}}))
    drawing = picture.drawing
    assert drawing is not None and len(drawing.borders) == 2
    layout = build_layout(picture, 1600)
    project, _h = projection(drawing, layout.grid[0], layout.grid[1], layout.grid[2] - layout.grid[0])
    areas = {a.name: a for a in layout.areas}
    assert areas["Corsica"].centre == project((9.2, 41.8))
    meridian = project((14.0, 37.0))[0]
    def border(area: str, layout: MapLayout = layout) -> list[tuple[float, float]]:
        a = next(a for a in layout.areas if a.name == area)
        return [p for e, other in zip(a.edges, a.neighbours) if other in ("Val di Mazara", "Val Demone") for p in e.points]

    assert border("Val di Mazara") and all(math.isclose(x, meridian, abs_tol=1e-6) for x, _y in border("Val di Mazara"))
    assert all(math.isclose(x, meridian, abs_tol=1e-6) for x, _y in border("Val Demone"))
    # Before the edit the border was halfway between the two centres (13.2 and 14.9 E), not on 14 E.
    before = build_layout(area_pictures.load("me-setup.json"), 1600)
    assert not any(math.isclose(x, meridian, abs_tol=0.5) for x, _y in border("Val di Mazara", before))
    assert overlapping_labels(layout) == []
    png = Image.open(io.BytesIO(render_png(picture, 1600)))
    assert png.size == (layout.width, layout.height)
    assert ET.fromstring(render_svg(picture, 1600)).tag.endswith("svg")


def test_labels_beside_their_area_cover_no_area_name() -> None:
    layout = build_layout(area_pictures.load("me-setup.json"), 1200)
    beside = {a.name for a in layout.areas if a.label_outside}
    own = [lb for lb in layout.labels if lb.kind in ("province", "sea") and lb.place not in beside]
    for label in (lb for lb in layout.labels if lb.place in beside and lb.kind in ("province", "held")):
        assert not any(intersects(label.box, other.box) for other in own), label.place
