"""Mare Nostrum: Empires' board over the real coast (data/maps/mare-nostrum-empires.toml's [drawing]): provinces
where their Roman provinces lay, names in their own area and never on another label, and the empires in the colours
the game's data gives them, each with a hatching of its own."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.render.area_geometry import inside_convex, projection
from bot.render.layout import build_layout, overlapping_labels
from bot.render.legend import picture_styles
from bot.render.palette import INDEPENDENT, OKABE_ITO, rgb_to_hex
from bot.render.text import printable
from engine.area_drawing import DrawingError, read_drawing
from engine.ruleset import Picture
from tests.bot.render import area_pictures
from tests.bot.render.test_coast_map import in_own_area

DATA = Path(__file__).resolve().parents[3] / "data"
GAME_COLOURS = {"Romans": "#b22222", "Greeks": "#1f5fbf", "Carthaginians": "#7a3e9d", "Egyptians": "#d4a017",
                "Babylonians": "#2e8b57"}


@pytest.fixture(scope="module")
def setup() -> Picture:
    return area_pictures.load("mne-setup.json")


@pytest.mark.parametrize("width", [900, 1200, 1600])
@pytest.mark.parametrize("which", ["mne-setup.json", "mne-late.json"])
def test_names_sit_in_their_own_area_and_never_on_another_label(which: str, width: int) -> None:
    setup = area_pictures.load(which)
    layout = build_layout(setup, width)
    assert overlapping_labels(layout) == []
    assert {a.name for a in layout.areas} == {s.name for s in setup.spaces}
    beside = {a.name for a in layout.areas if a.label_outside}
    for label in layout.labels:
        if label.kind in ("province", "sea", "held") and label.place not in beside:
            assert in_own_area(layout, label.place, label.box), (label.place, label.text, label.box)
        if label.kind in ("province", "sea", "held"):
            x0, y0, x1, y1 = label.box
            assert layout.grid[0] <= x0 and x1 <= layout.grid[2] and layout.grid[1] <= y0 and y1 <= layout.grid[3], \
                (label.place, label.box, layout.grid)
    names = {lb.place: lb.text for lb in layout.labels if lb.kind in ("province", "sea")}
    assert names == {s.name: printable(s.name) for s in setup.spaces}


@pytest.mark.parametrize("place, province", [
    ((9.1, 42.1), "Sardinia"),        # Corsica: Sardinia's, though Etruria's centre is nearer Cap Corse
    ((9.4, 42.9), "Sardinia"),        # Cap Corse itself
    ((10.9, 43.0), "Etruria"),        # Tuscany
    ((22.9, 37.85), "Peloponnesus"),  # Corinth
    ((23.7, 38.0), "Attica"),         # Athens
    ((26.6, 40.4), "Thracia"),        # the Gallipoli peninsula
    ((26.5, 39.9), "Troas"),          # the Troad
    ((31.2, 30.0), "Aegyptus"),       # Memphis
    ((32.7, 25.7), "Thebais"),        # Thebes
    ((44.4, 32.5), "Babylonia"),      # Babylon
])
def test_the_provinces_lie_where_their_land_is(setup: Picture, place: tuple[float, float], province: str) -> None:
    layout = build_layout(setup, 1600)
    assert setup.drawing is not None
    project, _h = projection(setup.drawing, layout.grid[0], layout.grid[1], layout.grid[2] - layout.grid[0])
    point = project(place)
    holders = [a.name for a in layout.areas if a.clip == "land" and inside_convex(point, a.polygon)]
    assert holders == [province]


def test_the_empires_have_the_games_colours_and_each_its_own_hatching(setup: Picture) -> None:
    styles = picture_styles(setup)
    empires = [name for name in styles if name != INDEPENDENT]
    assert {name: rgb_to_hex(styles[name].fill) for name in empires} == GAME_COLOURS
    patterns = [styles[name].pattern for name in empires] + [styles[INDEPENDENT].pattern]
    assert len(set(patterns)) == len(patterns)
    # The same colours on a map that keeps the default: the colour-blind-safe palette, red and green confused.
    assert setup.drawing is not None
    safe = dataclasses.replace(setup, drawing=dataclasses.replace(setup.drawing, colours="safe"))
    fills = {name: style.fill for name, style in picture_styles(safe).items() if name != INDEPENDENT}
    assert set(fills.values()) <= set(OKABE_ITO.values()) and len(set(fills.values())) == 5


def test_two_empires_of_one_colour_fall_back_to_the_palette(setup: Picture) -> None:
    same = tuple((name, "#b22222") if name == "Greeks" else (name, colour) for name, colour in setup.colours)
    styles = picture_styles(dataclasses.replace(setup, colours=same))
    fills = [s.fill for name, s in styles.items() if name != INDEPENDENT]
    assert set(fills) <= set(OKABE_ITO.values()) and len(set(fills)) == 5


def test_a_colours_choice_the_drawing_does_not_know_stops_the_map() -> None:
    areas = {"A": ("land", (1.0, 1.0))}
    table = {"land": "mediterranean-land.json", "view": [0.0, 0.0, 2.0, 2.0], "reach": 1.0, "colours": "bright"}
    with pytest.raises(DrawingError) as caught:
        read_drawing(table, areas, "m.toml")
    assert str(caught.value) == ("m.toml: [drawing]: 'colours' is 'bright': write \"safe\" (the colour-blind-safe "
                                 "palette, the default) or \"game\" (the colours the game's data gives each power)")
    assert read_drawing({**table, "colours": "game"}, areas, "m.toml").colours == "game"  # type: ignore[union-attr]
    del table["colours"]
    assert read_drawing(table, areas, "m.toml").colours == "safe"  # type: ignore[union-attr]
