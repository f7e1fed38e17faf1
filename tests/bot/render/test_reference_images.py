"""Reference images: the map and the charts of fixed states, compared with the PNGs kept in ``reference/``.

The states are kept beside the images (``reference/state-turn*.json``, the public state of the scripted
campaign of tests/bot/campaign_play.py after 2 and after 15 turns), so a change of the rules does not show
up here: only a change of the drawing does. The area maps keep their pictures instead (``reference/me-*.json``,
``reference/mne-*.json``, tests/bot/render/area_pictures.py): Mediterranean Empires' set-up and the end of its
scripted game, Mare Nostrum: Empires' set-up and the end of its scripted game, drawn over the coastline of the map file's drawing as it is now.

When the drawing changes on purpose, look at the ``*.actual.png`` a failure leaves next to the reference,
then regenerate:

    LEGATUS_REGENERATE=1 .venv/bin/python -m pytest tests/bot/render/test_reference_images.py   # images only
    .venv/bin/python bench/regenerate_reference_images.py                                       # states too
"""
from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render.charts import render_chart
from bot.render.map_png import render_png
from engine.mare_nostrum.picture import picture_of_view
from engine.rulesets import load_ruleset
from tests.bot.render import area_pictures

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference"
DATA = HERE.parents[2] / "data"
# Mean absolute difference per channel (0-255) allowed: room for another FreeType's antialiasing, far too
# little for a moved label, a lost icon or a changed colour.
TOLERANCE = 1.0


def _rules() -> Any:
    return load_ruleset("mare-nostrum", DATA).rules  # type: ignore[attr-defined]


def _state(name: str) -> dict[str, Any]:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def _map(state: str, width: int) -> Callable[[], bytes]:
    def render() -> bytes:
        rules = _rules()
        return render_png(picture_of_view(rules, _state(state)), width)
    return render


def _chart(state: str, kind: str, width: int) -> Callable[[], bytes]:
    def render() -> bytes:
        rules = _rules()
        return render_chart(picture_of_view(rules, _state(state)), kind, width)
    return render


def _area_map(picture: str, width: int) -> Callable[[], bytes]:
    def render() -> bytes:
        return render_png(area_pictures.load(picture), width)
    return render


REFERENCES: dict[str, Callable[[], bytes]] = {
    "map-turn2.png": _map("state-turn2.json", 1200),
    "map-turn15.png": _map("state-turn15.json", 1200),
    "chart-provinces.png": _chart("state-turn15.json", "provinces", 900),
    "chart-stability.png": _chart("state-turn15.json", "stability", 900),
    "me-setup.png": _area_map("me-setup.json", 1200),
    "me-late.png": _area_map("me-late.json", 1200),
    "mne-setup.png": _area_map("mne-setup.json", 1200),
    "mne-late.png": _area_map("mne-late.json", 1200),
}


def regenerate(names: list[str] | None = None) -> list[Path]:
    written = []
    for name in names or list(REFERENCES):
        path = REFERENCE / name
        # Stored at full compression: the test compares pixels, and the repository stays smaller.
        Image.open(io.BytesIO(REFERENCES[name]())).save(path, optimize=True)
        path.with_suffix(".actual.png").unlink(missing_ok=True)
        written.append(path)
    return written


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    means = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean
    return sum(means) / len(means)


@pytest.mark.parametrize("name", list(REFERENCES))
def test_the_image_matches_its_reference(name: str) -> None:
    path = REFERENCE / name
    if os.environ.get("LEGATUS_REGENERATE") == "1":
        regenerate([name])
        return
    actual_bytes = REFERENCES[name]()
    actual = Image.open(io.BytesIO(actual_bytes))
    expected = Image.open(path)
    diff = mean_difference(actual, expected) if actual.size == expected.size else float("inf")
    if diff > TOLERANCE:
        out = path.with_suffix(".actual.png")
        out.write_bytes(actual_bytes)
        pytest.fail(
            f"{name} differs from its reference (mean difference {diff:.2f}, allowed {TOLERANCE}; sizes "
            f"{actual.size} and {expected.size}). Look at {out}; if the change is wanted, regenerate with "
            "LEGATUS_REGENERATE=1 .venv/bin/python -m pytest tests/bot/render/test_reference_images.py"
        )
    path.with_suffix(".actual.png").unlink(missing_ok=True)


def test_every_reference_has_its_state_and_image() -> None:
    for name in REFERENCES:
        assert (REFERENCE / name).is_file(), f"missing {name}: run bench/regenerate_reference_images.py"
    for state in ("state-turn2.json", "state-turn15.json"):
        view = _state(state)
        assert {"turn", "year", "nations", "provinces", "fleets", "pirates", "battles", "history"} <= set(view)
    assert _state("state-turn2.json")["turn"] == 2


def test_the_comparison_sees_a_small_change() -> None:
    image = Image.open(REFERENCE / "map-turn2.png").convert("RGB")
    changed = image.copy()
    # One province repainted in another colour: what a wrong owner would look like.
    changed.paste((0, 114, 178), (300, 300, 380, 380))
    assert mean_difference(image, image) == 0
    assert mean_difference(image, changed) > TOLERANCE * 0.5
