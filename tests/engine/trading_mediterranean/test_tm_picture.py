"""The status picture: one row per civilization in turn order, a tile per column (the civilization and its player,
points, government, religion, population, buildings) in its colour; drawn by the shell's grid renderer without any
change to it, as a PNG and an SVG."""
from __future__ import annotations

import io
from functools import cache

from PIL import Image

from bot.render.map_png import render_png
from bot.render.map_svg import render_svg
from engine.ruleset import Picture
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean.picture import COLUMNS
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import RULES, Table

SIX = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan", "Eve": "eve", "Fay": "fay"}


@cache
def turn_4() -> tuple[gm.Game, Picture]:
    t = Table(SIX, "pic", rules_version=2)
    play(t, SIX, until=lambda g: g.turn == 4)
    return t.state, RULES.picture(t.state)


def test_one_row_per_civilization_with_its_tracks() -> None:
    g, picture = turn_4()
    assert picture.grid == (len(COLUMNS), 6) and len(picture.spaces) == 6 * len(COLUMNS)
    rows = {row: [s for s in picture.spaces if s.cells[0][1] == row] for row in range(6)}
    assert [r[0].name for r in rows.values()] == g.order == ["Fay", "Dan", "Ann", "Bob", "Cat", "Eve"]
    assert all({s.fill for s in r} == {r[0].name} for r in rows.values())  # a row in its civilization's colour
    fay = {s.name: s for s in rows[0]}
    assert (fay["Fay"].note, fay["Fay"].marks) == ("fay", ("turn order 1",))
    assert (fay["Fay: points"].note, fay["Fay: points"].marks) == ("9 VP · $1", ("a VP costs $4",))
    assert (fay["Fay: government"].note, fay["Fay: government"].marks) == ("democracy 3", ("2 building(s)",))
    assert (fay["Fay: religion"].note, fay["Fay: religion"].marks) == ("venus 0", ("1 building(s)",))
    assert (fay["Fay: population"].note, fay["Fay: population"].marks) == (
        "10 cubes", ("happiness -5", "safety -2", "industry 0"))
    assert (fay["Fay: buildings"].note, fay["Fay: buildings"].marks) == (
        "3 standing", ("Assembly", "Shrine", "Agora"))
    assert [s.text for s in picture.standings] == [
        "Fay (fay) · 9 VP", "Dan (dan) · 10 VP", "Ann (ann) · 7 VP", "Bob (bob) · 7 VP", "Cat (cat) · 11 VP",
        "Eve (eve) · 9 VP"]
    assert g.phase == gm.CIVIC and all(rows[r][0].highlight for r in rows)  # every seat is to act in the window


def test_the_grid_renderer_draws_it_as_png_and_svg() -> None:
    _, picture = turn_4()
    image = Image.open(io.BytesIO(render_png(picture)))
    image.load()
    assert (image.format, image.size) == ("PNG", (1600, 1445))
    svg = render_svg(picture)
    assert all(f">{seat}<" in svg for seat in SIX) and "Fay: government" in svg and "Trading in the Mediterranean" in svg
