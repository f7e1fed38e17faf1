"""An area map whose centres no coastline covers (a Picture without a grid or a drawing): drawn by the one area-map
renderer as a diagram (bot/render/diagram.py), areas apart around their centres with the rules' links dashed across
the gaps, names that never overlap, each area in its owner's colour, and a legend naming every power."""
from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from bot.render.area_geometry import inside_convex, shrunk
from bot.render.coast_layout import CLOSED
from bot.render.layout import MapLayout, build_layout, inside, intersects, overlapping_labels
from bot.render.map_png import render_png
from bot.render.map_svg import render_svg
from bot.render.palette import INDEPENDENT, style_of
from engine.ruleset import HIGHLIGHT, Glyph, Picture, Space, Standing
from tests.bot.render.test_coast_map import in_own_area

POWERS = ("Aragon", "Venice", "Genoa")
NAMES = ("Castilla", "Aragon", "Catalunya", "Provence", "Lombardia", "Venezia", "Dalmatia", "Roma", "Napoli",
         "Sicilia", "Sardegna", "Tunis", "Corsica", "Ionian Sea", "Gulf of Lion", "Tyrrhenian Sea", "Adriatic Sea",
         "Balearic Sea")
SEAS = {"Ionian Sea", "Gulf of Lion", "Tyrrhenian Sea", "Adriatic Sea", "Balearic Sea"}


def spread(n: int, columns: int) -> list[tuple[float, float]]:
    """``n`` centres on a staggered grid, nudged a little apart from a plain lattice (fixed, not random)."""
    return [((i % columns) * 100 + (50 if (i // columns) % 2 else 0) + 18 * math.sin(i * 2.3),
             (i // columns) * 90 + 15 * math.cos(i * 1.7)) for i in range(n)]


def area_picture(names: tuple[str, ...] = NAMES, columns: int = 5) -> Picture:
    at = spread(len(names), columns)
    spaces = []
    for i, (name, centre) in enumerate(zip(names, at)):
        if name in SEAS:
            glyphs = (Glyph("fleet", "Venice", 2), Glyph("fleet", "Genoa", 1)) if i % 2 else (Glyph("pirates"),)
            spaces.append(Space(name, "sea", at=centre, glyphs=glyphs))
            continue
        owner = None if i % 4 == 3 else POWERS[i % 3]
        glyphs = (Glyph("capital", owner),) if i < 3 else ((Glyph("fortification", owner), Glyph("battle")) if i % 5 == 1 else ())
        spaces.append(Space(name, "land", at=centre, fill=owner, glyphs=glyphs, highlight=i % 6 == 2,
                            marks=("siege",) if i == 4 else ()))
    links = tuple((a.name, b.name) for i, a in enumerate(spaces) for b in spaces[i + 1:]
                  if math.dist(a.at, b.at) < 125)  # type: ignore[arg-type]
    counts = {p: sum(1 for s in spaces if s.fill == p) for p in POWERS}
    standings = tuple(Standing(p, f"player {i} · {counts[p]} areas", f"player {i}", counts[p]) for i, p in enumerate(POWERS))
    unowned = sum(1 for s in spaces if s.kind == "land" and s.fill is None)
    return Picture(
        "Mediterranean Empires", "Game turn 2 (1291-1300)", grid=None, spaces=tuple(spaces), links=links,
        powers=POWERS, colours=(("Aragon", "#d4a017"), ("Venice", "#b22222"), ("Genoa", "#1f4e9c")),
        info=(("phase", "Orders: Venice to play"),),
        standings=standings + (Standing(None, f"{unowned} areas"),),
        key=(("capital", "capital"), ("fleet", "fleet"), ("pirates", "pirates"), (HIGHLIGHT, "contested"),
             ("battle", "battle")),
    )


def owners(picture: Picture) -> dict[str, str | None]:
    return {s.name: s.fill for s in picture.spaces}


@pytest.mark.parametrize("width", [1600, 1000])
def test_no_two_labels_overlap_and_each_sits_in_its_own_area(width: int) -> None:
    layout = build_layout(area_picture(), width)
    assert layout.width == width and not layout.cells
    assert {a.name for a in layout.areas} == set(NAMES)
    assert overlapping_labels(layout) == []
    labels = list(layout.labels)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not intersects(a.box, b.box), (a.place, a.text, b.place, b.text)
    areas = {a.name: a for a in layout.areas}
    assert not any(a.label_outside for a in layout.areas)
    for label in labels:
        assert inside(label.box, (0, 0, layout.width, layout.height)), label
        if label.kind in ("province", "sea", "held", "badge") and label.place in areas:
            assert in_own_area(layout, label.place, label.box), (label.place, label.text)
    for icon in layout.icons:
        if icon.place in areas:
            assert in_own_area(layout, icon.place, icon.box), icon
    names = {lb.place: lb.text for lb in labels if lb.kind in ("province", "sea")}
    assert names == {n: n for n in NAMES}, "every name whole at this size"


def test_a_plain_patch_of_each_area_has_its_owners_colour() -> None:
    picture = area_picture()
    layout = build_layout(picture, 1600)
    image = Image.open(io.BytesIO(render_png(picture, 1600))).convert("RGB")
    assert image.size == (layout.width, layout.height)
    owner_of = owners(picture)
    for area in layout.areas:
        assert area.sample is not None, area.name
        colours = image.crop(area.sample).getcolors(maxcolors=10_000)
        dominant = max(colours)[1]
        expected = area.tint if area.kind == "sea" else style_of(layout.styles, owner_of[area.name]).fill
        assert dominant == expected, (area.name, dominant, expected)
        assert inside_convex(((area.sample[0] + area.sample[2]) / 2, (area.sample[1] + area.sample[3]) / 2),
                             area.polygon), area.name


def test_the_legend_lists_every_power_and_the_key_every_mark() -> None:
    picture = area_picture()
    layout = build_layout(picture, 1600)
    assert [e.seat for e in layout.legend] == [*POWERS, INDEPENDENT]
    assert [e.name.text for e in layout.legend] == [*POWERS, "Independent"]
    venice = sum(1 for s in picture.spaces if s.fill == "Venice")
    assert layout.legend[1].detail.text == f"player 1 · {venice} areas" and layout.legend[1].player == "player 1"
    assert layout.legend[1].provinces == venice
    assert [lb.text for lb in layout.labels_of("key")] == ["capital", "fleet", "pirates", "contested", "battle",
                                                           "neighbours whose shapes do not meet"]
    assert "attacked" in [i.kind for i in layout.icons if i.place == "legend"]
    assert layout.labels_of("title")[0].text == "Mediterranean Empires · Game turn 2 (1291-1300)"


def test_icons_marks_and_highlights_are_drawn_where_the_picture_says() -> None:
    picture = area_picture()
    layout = build_layout(picture, 1600)
    spaces = {s.name: s for s in picture.spaces}
    for name, space in spaces.items():
        drawn = sorted(i.kind for i in layout.icons_at(name))
        assert drawn == sorted(g.kind for g in space.glyphs if g.kind != "fleet" or g.count), name
    fleets = {(i.seat, i.count) for n, s in spaces.items() if s.kind == "sea" for i in layout.icons_at(n) if i.kind == "fleet"}
    assert fleets == {("Venice", 2), ("Genoa", 1)}
    assert "siege" in [lb.text for lb in layout.labels_of("held") if lb.place == NAMES[4]]
    assert {a.name for a in layout.areas if a.attacked} == {n for n, s in spaces.items() if s.highlight}
    # The areas stand apart: every link between two land areas is a dashed line across the gap, and only links are.
    kinds = {n: s.kind for n, s in spaces.items()}
    land_links = {frozenset(pair) for pair in picture.links if kinds[pair[0]] == kinds[pair[1]] == "land"}
    crossings = {frozenset(pair) for pair in layout.crossings}
    assert land_links <= crossings <= {frozenset(pair) for pair in picture.links} and len(land_links) > 5
    assert not [e for e in layout.land_borders if e.outline == CLOSED and e.width > 3]  # no closed border shown


def test_sixty_areas_stay_readable_at_1600_px() -> None:
    names = tuple(f"Province {chr(65 + i % 26)}{i // 26 or ''} of the Coast" if i % 3 == 0 else f"Area {i}" for i in range(60))
    layout = build_layout(area_picture(names, columns=10), 1600)
    assert overlapping_labels(layout) == []
    assert len(layout.areas) == 60
    assert min(lb.size for lb in layout.labels if lb.kind == "province") >= 10
    assert not any(a.label_outside for a in layout.areas)


def test_the_svg_draws_the_same_areas(tmp_path: object) -> None:
    picture = area_picture()
    root = ET.fromstring(render_svg(picture, 1200))
    ns = "{http://www.w3.org/2000/svg}"
    drawn = {g.get("data-name"): g.get("data-owner") for g in root.iter(f"{ns}g") if g.get("class") == "province"}
    assert drawn == {s.name: s.fill or "" for s in picture.spaces if s.kind == "land"}
    texts = {t.text for t in root.iter(f"{ns}text")}
    assert set(NAMES) <= texts


def test_a_shrunk_cell_keeps_its_centre_and_stands_its_gap_inside() -> None:
    square = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
    inner = shrunk(square, (3.0, 3.0), 1.0)
    assert sorted(inner) == [(1.0, 1.0), (1.0, 9.0), (9.0, 1.0), (9.0, 9.0)]
    assert shrunk(tuple(reversed(square)), (3.0, 3.0), 1.0) and inside_convex((3.0, 3.0), inner)


def test_a_status_card_of_land_areas_alone_has_no_sea() -> None:
    seats = ("North", "South", "East", "West")
    spaces = tuple(Space(s, at=(50.0, 15.0 + 25.0 * i), fill=s, marks=(f"{i} VP",)) for i, s in enumerate(seats))
    picture = Picture("Card", "turn 1", None, spaces, (), tuple((s, s) for s in seats), seats)
    layout = build_layout(picture, 1000)
    assert [a.name for a in layout.areas] == list(seats) and overlapping_labels(layout) == []
    assert layout.height <= 1000 * 1.25 + 400  # the view is at most 1.25 times as tall as it is wide
    assert [lb.text for lb in layout.labels_of("key")] == []  # no closed border, no crossing: nothing to explain
    image = Image.open(io.BytesIO(render_png(picture, 1000))).convert("RGB")
    x0, y0, x1, y1 = layout.grid
    corner = image.crop((x0 + 2, y0 + 2, x0 + 40, y0 + 40)).getcolors()
    assert corner is not None and len(corner) == 1  # plain ground, no waves where there is no sea
