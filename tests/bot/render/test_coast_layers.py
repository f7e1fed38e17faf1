"""The layers an area map's PNG paints from the map alone (bot/render/coast_layers.py), and the hatching laid over
them per render (bot/render/coast_png.py): what a render pastes is what painting it in place gives."""
from __future__ import annotations

import dataclasses

import pytest
from PIL import Image, ImageChops

from bot.render import coast_layers, coast_png, map_png
from bot.render.coast_layout import land_mask
from bot.render.coast_png import PERIOD, _hatched, _period_tile, palette_holds
from bot.render.layout import build_layout
from bot.render.map_png import SS, _tile, draw_shapes, render_png
from bot.render.palette import BACKGROUND, GRID_FILL, RGB
from tests.bot.render import area_pictures


def test_the_hatching_of_an_area_is_the_frame_s_hatching_where_the_area_is() -> None:
    # Two areas of one power side by side: each one's tile is the same strokes, so they run on across the border.
    step = 24
    period = _period_tile((200, 120, 40), (90, 50, 10), "antidiagonal", step, _tile.__wrapped__)
    assert period.size == (PERIOD * step, PERIOD * step)
    whole = _hatched(period, (0, 0), (700, 500))
    for at, size in (((37, 11), (300, 200)), ((337, 211), (250, 280)), ((96, 0), (97, 1))):
        part = _hatched(period, at, size)
        assert part.tobytes() == whole.crop((*at, at[0] + size[0], at[1] + size[1])).tobytes()


def test_a_period_ends_where_it_starts_for_every_pattern() -> None:
    for pattern in ("diagonal", "antidiagonal", "crosshatch", "horizontal", "vertical", "grid", "dots", "checks",
                    "waves"):
        period = _period_tile((200, 200, 200), (0, 0, 0), pattern, 24, _tile.__wrapped__)
        # The same strokes drawn over twice the width: its second half is its first.
        double = _tile.__wrapped__((200, 200, 200), (0, 0, 0), pattern, 6 * 96, 3 * 96, 0, 24, 0, (200, 200, 200))
        assert double.crop((96, 96, 192, 192)).tobytes() == period.tobytes() == \
            double.crop((288, 96, 384, 192)).tobytes(), pattern


def test_the_layers_hold_the_frame_s_ground_and_a_mask_of_land_for_each_land_area() -> None:
    layout = build_layout(area_pictures.load("me-setup.json"), 900)
    layers = coast_layers.paint_layers(layout, SS, draw_shapes)
    under = layers.under.convert("RGB")
    gx, gy, gx1, gy1 = layout.grid
    pad = coast_layers.frame_pad(SS)
    assert layers.corner == (gx * SS - pad, gy * SS - pad)
    assert under.size == ((gx1 - gx) * SS + 2 * pad, (gy1 - gy) * SS + 2 * pad)
    assert under.getpixel((0, 0)) == BACKGROUND  # the rounded corner of the frame's ground
    assert under.getpixel((under.width // 2, 1)) == GRID_FILL  # the pad above the frame
    # Each land area's mask covers only land, inside the frame, and all of them most of it (the rest: the land
    # beyond every reach, and the borders between areas, painted in the layer).
    land = land_mask([coast_layers.moved(r, gx, gy) for r in layout.land], (gx1 - gx, gy1 - gy), SS)
    covered = Image.new("L", land.size, 0)
    for (x, y), mask in layers.masks.values():
        at = (x - gx * SS, y - gy * SS)
        assert at[0] >= 0 and at[1] >= 0 and at[0] + mask.width <= land.width and at[1] + mask.height <= land.height
        assert ImageChops.subtract(mask, land.crop((*at, at[0] + mask.width, at[1] + mask.height))).getbbox() is None
        covered.paste(255, at, mask)
    assert 0.75 < covered.histogram()[255] / land.histogram()[255] < 1
    assert set(layers.masks) == {a.name for a in layout.areas if a.clip == "land"}


def test_a_map_whose_colours_would_not_fit_a_palette_is_painted_as_a_picture_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    late = area_pictures.load("me-late.json")  # attacked areas, fleets, names beside their areas
    on_palette = render_png(late, 900)
    painted_as = []
    real = map_png.palette_holds

    def full(image: Image.Image, colours: set[RGB]) -> bool:
        painted_as.append(real(image, colours))
        return False
    monkeypatch.setattr(map_png, "palette_holds", full)
    assert render_png(late, 900) == on_palette
    assert painted_as == [True]  # it had room: the picture was painted on the palette the first time
    # No room even for the powers' fills: the land areas are laid on a picture too.
    monkeypatch.setattr(coast_png, "palette_holds", full)
    assert render_png(late, 900) == on_palette
    assert painted_as == [True, True]  # asked once, for the powers' colours: after that the canvas is a picture


def test_a_palette_holds_at_most_256_colours() -> None:
    image = Image.new("P", (4, 4), 0)
    image.putpalette([v for i in range(250) for v in (i, i, i)])
    assert palette_holds(image, {(1, 1, 1), (7, 0, 0)})  # one it has, one new
    assert palette_holds(image, {(0, 0, k) for k in range(1, 7)})
    assert not palette_holds(image, {(0, 0, k) for k in range(1, 8)})


def test_the_layers_change_with_the_rules_links_the_colours_and_the_width() -> None:
    setup = area_pictures.load("me-setup.json")
    layout = build_layout(setup, 900)
    key = coast_layers.layers_key(layout, SS)
    # One land border closed by the rules (the cells are the same): it is drawn thick and brown, in the layers.
    land = {a.name for a in layout.areas if a.clip == "land"}
    pair = next(p for p in setup.links if set(p) <= land)
    closed = build_layout(dataclasses.replace(setup, links=tuple(p for p in setup.links if p != pair)), 900)
    assert closed.ground_key == layout.ground_key and closed.land_borders != layout.land_borders
    assert coast_layers.layers_key(closed, SS) != key
    assert coast_layers.layers_key(build_layout(setup, 901), SS) != key
    assert coast_layers.layers_key(layout, SS) == key


def test_a_render_works_out_its_layers_key_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The canvas and then the areas use the layers: asked once, so the key (a repr of every border's points) is too.
    layout = build_layout(area_pictures.load("me-setup.json"), 900)
    asked: list[object] = []
    real = coast_layers.layers_key

    def counted(of: object, ss: int) -> str:
        asked.append(of)
        return real(of, ss)  # type: ignore[arg-type]
    monkeypatch.setattr(coast_layers, "layers_key", counted)
    first = map_png.paint(layout).tobytes()
    assert asked == [layout]
    other = dataclasses.replace(layout)  # an equal layout, another object: its own key, the same layers
    assert map_png.paint(other).tobytes() == first
    assert len(asked) == 2 and asked[1] is other
