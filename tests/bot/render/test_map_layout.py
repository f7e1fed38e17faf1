"""The map's layout: every label fits its place and none overlaps another, icons stand where the state says."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.render.layout import (
    Label, MapLayout, build_layout, inside, intersects, overlapping_labels,
)
from bot.render.palette import INDEPENDENT
from engine import canonical
from engine.mapfile import parse_map
from engine.mare_nostrum.picture import grid_picture, picture_of_view
from engine.rulesets import load_ruleset

DATA = Path(__file__).resolve().parents[3] / "data"
RULESET = load_ruleset("mare-nostrum", DATA)
RULES = RULESET.rules  # type: ignore[attr-defined]
GAME_MAP = RULES.map
PLAYERS = {"Carthaginians": "hanno", "Gauls": "brennus", "Macedonians": "philip", "Ptolemaics": "ptolemy",
           "Romans": "scipio", "Seleucids": "antiochus"}


def initial_view() -> dict[str, Any]:
    state = RULESET.initial_state({"players": PLAYERS, "gm": "gm"})
    return json.loads(canonical.dumps(RULESET.public_view(state)))


def busy_view() -> dict[str, Any]:
    """The most crowded map the rules allow: every building everywhere, every nation's fleets in every sea."""
    view = initial_view()
    view.update(turn=7, year=RULES.year(7), phase="battles", draw="2023-01-21")
    for name, province in view["provinces"].items():
        province.update(fortification=True, suburbs=True, temple=True, attacked=True)
    view["provinces"]["Illyria"]["held_by"] = "Dardanians"
    view["provinces"]["Epirus"]["held_by"] = "Italiot Greeks of Tarentum"
    view["fleets"] = {sea: {n: RULES.max_fleets_per_sea for n in RULES.nations} for sea in GAME_MAP.seas}
    view["pirates"] = list(GAME_MAP.seas)
    view["battles"] = [
        {"id": i, "kind": "land", "province": p, "sea": None, "attacker": "Romans", "status": "to_fight"}
        for i, p in enumerate(GAME_MAP.provinces, 1)
    ] + [
        {"id": 100 + i, "kind": "naval", "province": None, "sea": s, "attacker": "Romans", "status": "waiting_roll"}
        for i, s in enumerate(GAME_MAP.seas)
    ]
    return view


def tile_of(layout: MapLayout, name: str) -> tuple[int, int, int, int]:
    return next(c.box for c in layout.cells if c.name == name)


@pytest.mark.parametrize("width", [1600, 1200, 900, 2400])
def test_no_two_labels_overlap_on_the_real_map(width: int) -> None:
    for view in (initial_view(), busy_view()):
        layout = build_layout(picture_of_view(RULES, view), width)
        assert layout.width == width
        clashes = overlapping_labels(layout)
        assert clashes == [], [(a.kind, a.place, a.text, b.kind, b.place, b.text) for a, b in clashes[:5]]
        labels = list(layout.labels)
        for i, a in enumerate(labels):  # the check above sorts and prunes; this one is the plain definition
            for b in labels[i + 1:]:
                assert not intersects(a.box, b.box), (a.place, a.text, b.place, b.text)


@pytest.mark.parametrize("width", [1600, 900])
def test_every_label_sits_inside_its_own_tile_and_clear_of_the_icons(width: int) -> None:
    layout = build_layout(picture_of_view(RULES, busy_view()), width)
    for label in layout.labels:
        assert inside(label.box, (0, 0, layout.width, layout.height)), label
        for line_box in label.line_boxes:
            assert inside(line_box, label.box), label
        if label.kind in ("province", "held", "sea", "badge") and label.place != "legend":
            assert inside(label.box, tile_of(layout, label.place)), (label.place, label.text)
    for icon in layout.icons:
        assert inside(icon.box, (0, 0, layout.width, layout.height)), icon
        if icon.place != "legend":
            assert inside(icon.box, tile_of(layout, icon.place)), icon
        for label in layout.labels:
            if label.kind == "badge" and label.place == icon.place and intersects(label.box, icon.box):
                assert inside(label.box, icon.box), (icon, label)  # a badge's text is written on its badge
            else:
                assert not intersects(label.box, icon.box), (icon, label.text)
    icons = list(layout.icons)
    for i, a in enumerate(icons):
        for b in icons[i + 1:]:
            assert not intersects(a.box, b.box), (a, b)


def test_names_fit_without_cutting_at_1600_px() -> None:
    layout = build_layout(picture_of_view(RULES, busy_view()), 1600)
    names = {lb.place: lb.text for lb in layout.labels if lb.kind in ("province", "sea")}
    assert names == {**{p: p for p in GAME_MAP.provinces}, **{s: s for s in GAME_MAP.seas}}
    # Long names wrap rather than shrink: most tiles share one size.
    sizes = [lb.size for lb in layout.labels if lb.kind == "province"]
    assert sizes.count(max(sizes)) >= len(sizes) * 0.8
    assert next(lb for lb in layout.labels if lb.place == "Gallia Cisalpina" and lb.kind == "province").lines == (
        "Gallia", "Cisalpina")


def test_icons_stand_where_the_buildings_capitals_and_battles_are() -> None:
    view = initial_view()
    view.update(turn=2, year=RULES.year(2), phase="battles", draw="2023-01-05")
    provinces = view["provinces"]
    provinces["Latium"].update(fortification=True, temple=True)
    provinces["Syria"]["suburbs"] = True
    provinces["Etruria"].update(owner="Gauls", attacked=True)
    provinces["Apulia"]["attacked"] = True
    view["battles"] = [
        {"id": 1, "kind": "land", "province": "Apulia", "sea": None, "attacker": "Samnites", "status": "to_fight"},
        {"id": 2, "kind": "land", "province": "Etruria", "sea": None, "attacker": "Gauls", "status": "won"},
        {"id": 3, "kind": "naval", "province": None, "sea": "Mare Tyrrhenum", "attacker": "Romans", "status": "waiting_roll"},
    ]
    view["fleets"] = {"Mare Tyrrhenum": {"Carthaginians": 2, "Romans": 1}}
    view["pirates"] = ["Mare Ionium"]
    layout = build_layout(picture_of_view(RULES, view), 1600)
    kinds = {name: sorted(i.kind for i in layout.icons_at(name)) for name in [*GAME_MAP.provinces, *GAME_MAP.seas]}
    assert kinds["Latium"] == ["capital", "fortification", "temple"]
    assert kinds["Syria"] == ["capital", "suburbs"]
    assert kinds["Apulia"] == ["battle"]
    assert kinds["Etruria"] == []  # attacked and settled: the red frame says so, no battle is left
    assert kinds["Mare Tyrrhenum"] == ["battle", "fleet", "fleet"]
    assert kinds["Mare Ionium"] == ["pirates"]
    capitals = {p.name for p in GAME_MAP.provinces.values() if p.is_capital}
    assert {n for n, k in kinds.items() if "capital" in k} == capitals
    untouched = set(GAME_MAP.provinces) - capitals - {"Latium", "Syria", "Apulia", "Etruria"}
    assert all(kinds[n] == [] for n in untouched)
    fleets = {(i.seat, i.count) for i in layout.icons_at("Mare Tyrrhenum") if i.kind == "fleet"}
    assert fleets == {("Carthaginians", 2), ("Romans", 1)}
    badges = sorted(lb.text for lb in layout.labels if lb.kind == "badge" and lb.place == "Mare Tyrrhenum")
    assert badges == ["CAR 2", "ROM 1"]
    cells = {c.name: c for c in layout.cells}
    assert {n for n, c in cells.items() if c.attacked} == {"Etruria", "Apulia"}
    assert cells["Etruria"].style == "Gauls" and cells["Etruria"].owner == "Gauls"
    assert cells["Illyria"].style == INDEPENDENT


def test_the_legend_lists_every_nation_with_its_player_and_provinces() -> None:
    view = initial_view()
    view["provinces"]["Etruria"]["owner"] = "Gauls"
    for nation in view["nations"]:
        view["nations"][nation]["provinces"] = [p for p, v in view["provinces"].items() if v["owner"] == nation]
    view["nations"]["Seleucids"]["player"] = None
    view["nations"]["Ptolemaics"]["alive"] = False
    layout = build_layout(picture_of_view(RULES, view), 1600)
    rows = {e.seat: (e.player, e.provinces, e.alive) for e in layout.legend}
    assert rows == {
        "Carthaginians": ("hanno", 6, True), "Gauls": ("brennus", 7, True), "Macedonians": ("philip", 6, True),
        "Ptolemaics": ("ptolemy", 6, False), "Romans": ("scipio", 5, True), "Seleucids": (None, 6, True),
        INDEPENDENT: (None, 2, True),
    }
    details = {e.seat: e.detail.text for e in layout.legend}
    assert details["Romans"] == "scipio · 5 provinces"
    assert details["Seleucids"] == "no player · 6 provinces"
    assert details["Ptolemaics"] == "ptolemy · 6 provinces · fallen"
    assert [e.name.text for e in layout.legend] == [*RULES.nations, "Independent"]
    keys = [lb.text for lb in layout.labels_of("key")]
    assert keys == ["capital", "fortification", "suburbs", "temple", "fleet: nation and ships", "pirates",
                    "attacked this turn", "battle to fight"]


def test_the_header_gives_the_turn_year_and_draw() -> None:
    view = initial_view()
    view.update(turn=3, year="270 BC", phase="orders", draw="2023-01-10", to_play="Romans")
    layout = build_layout(picture_of_view(RULES, view), 1600)
    assert layout.labels_of("title")[0].text == "Mare Nostrum · Turn 3, 270 BC"
    info = [lb.text for lb in layout.labels_of("info")]
    assert info == ["lottery draw of 2023-01-10", "Orders: the Romans to play"]
    before = build_layout(picture_of_view(RULES, initial_view()), 1600)
    assert before.labels_of("title")[0].text == "Mare Nostrum · before turn 1"
    over = copy.deepcopy(view)
    over.update(phase="over", winner="Romans")
    assert "The Romans won the campaign" in [lb.text for lb in build_layout(picture_of_view(RULES, over)).labels]


def test_each_tile_keeps_a_patch_of_plain_colour() -> None:
    layout = build_layout(picture_of_view(RULES, busy_view()), 1600)
    occupied = [lb.box for lb in layout.labels] + [i.box for i in layout.icons]
    for cell in layout.cells:
        if cell.kind != "province":
            continue
        assert cell.sample is not None, cell.name
        assert inside(cell.sample, cell.box)
        assert not any(intersects(cell.sample, box) for box in occupied), cell.name


TINY = """
map Tiny Sea, 300 BC

[grid]
ALB  BET  .
MAR  GAM  DEL

[provinces]
ALB | Albion   | Reds  | capital     | Alba
BET | Betica   | Reds  | border      |
GAM | Gamma    | Blues | capital     | Gammaland
DEL | Delos    | -     | independent | Dhilos

[seas]
MAR | Mare Parvum | Little Sea

[diagonals]
ALB GAM
"""


def test_a_game_masters_own_map_renders_too() -> None:
    from bot.render.map_png import render_png
    from bot.render.map_svg import render_svg

    tiny = parse_map(TINY, "tiny.map")
    nations = {"Reds": {"colour": "#d55e00"}, "Blues": {"colour": "#0072b2"}}
    view = {
        "turn": 1, "year": "300 BC", "phase": "orders", "draw": "2023-01-03", "to_play": "Reds",
        "nations": {"Reds": {"player": "ann", "provinces": ["Albion", "Betica"], "alive": True},
                    "Blues": {"player": "bob", "provinces": ["Gamma"], "alive": True}},
        "provinces": {"Albion": {"owner": "Reds", "capital": True}, "Betica": {"owner": "Reds"},
                      "Gamma": {"owner": "Blues", "capital": True, "temple": True}, "Delos": {"owner": None}},
        "fleets": {"Mare Parvum": {"Blues": 1}}, "pirates": [], "battles": [], "history": [],
    }
    picture = grid_picture(tiny, nations, view)
    layout = build_layout(picture, 800)
    assert overlapping_labels(layout) == []
    assert layout.labels_of("title")[0].text == "Tiny Sea · Turn 1, 300 BC"
    assert {c.name for c in layout.cells} == {"Albion", "Betica", "Gamma", "Delos", "Mare Parvum"}
    assert [e.seat for e in layout.legend] == ["Reds", "Blues", INDEPENDENT]
    assert render_png(picture, 800)[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Mare Parvum" in render_svg(picture, 800)


def test_a_label_reports_its_text() -> None:
    label = Label("province", "X", ("Gallia", "Cisalpina"), 12, (0, 0, 1, 1), ((0, 0, 1, 1),), (0, 0, 0))
    assert label.text == "Gallia Cisalpina"
