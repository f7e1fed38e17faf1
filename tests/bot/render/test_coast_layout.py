"""What the coast layout keeps across renders of the same map (the land, the cells, the averages, where each name
fits) changes nothing that is drawn: a warm render is the cold one, byte for byte, whatever was drawn in between."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.render import coast_layout
from bot.render.layout import build_layout
from bot.render.map_png import render_png
from engine.ruleset import Picture
from tests.bot.render import area_pictures
from tests.bot.render.test_coast_map import gm_edited
from engine.rulesets import load_ruleset


def _cold_png(picture: Picture, width: int) -> bytes:
    coast_layout._GROUNDS.clear()
    return render_png(picture, width)


def test_a_warm_render_is_the_cold_one_byte_for_byte() -> None:
    setup, late = area_pictures.load("me-setup.json"), area_pictures.load("me-late.json")
    cold_setup, cold_late = _cold_png(setup, 1200), _cold_png(late, 1200)
    cold_layout = build_layout(late, 1200)
    render_png(setup, 900)  # another width in between: its own entry
    assert render_png(setup, 1200) == cold_setup
    assert render_png(late, 1200) == cold_late
    assert render_png(setup, 1200) == cold_setup
    assert build_layout(late, 1200) == cold_layout


def test_what_a_map_keeps_is_found_again_only_for_that_map_and_width() -> None:
    coast_layout._GROUNDS.clear()
    setup = area_pictures.load("me-setup.json")
    build_layout(setup, 1200)
    build_layout(setup, 1200)
    assert len(coast_layout._GROUNDS) == 1
    build_layout(setup, 1000)
    assert len(coast_layout._GROUNDS) == 2
    for width in (800, 850, 900, 950):
        build_layout(setup, width)
    assert len(coast_layout._GROUNDS) == coast_layout.GROUNDS_KEPT


def test_a_name_whose_note_changed_is_placed_for_its_new_note() -> None:
    setup = area_pictures.load("me-setup.json")
    noted = dataclasses.replace(setup, spaces=tuple(
        dataclasses.replace(s, note="held since the first spring of the war") if s.name == "Corsica" else s
        for s in setup.spaces))
    coast_layout._GROUNDS.clear()
    cold = build_layout(noted, 1200)
    coast_layout._GROUNDS.clear()
    build_layout(setup, 1200)
    warm = build_layout(noted, 1200)
    assert warm == cold
    assert [lb.lines for lb in warm.labels if lb.place == "Corsica"] != \
        [lb.lines for lb in build_layout(setup, 1200).labels if lb.place == "Corsica"]


def test_a_gm_edited_map_after_the_original_is_drawn_as_its_own(tmp_path: Path) -> None:
    game = load_ruleset("mediterranean-empires", gm_edited(tmp_path))
    edited = game.picture(game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}}))
    coast_layout._GROUNDS.clear()
    cold = render_png(edited, 1000)
    render_png(area_pictures.load("me-setup.json"), 1000)
    assert render_png(edited, 1000) == cold
