"""History charts: every nation's line in its colour, with its own marker and dash, axes and a legend."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.render.charts import _dashed, chart_layout, render_chart
from bot.render.layout import inside
from bot.render.palette import seat_styles
from engine.mare_nostrum.picture import picture_of_view
from engine.ruleset import ChartSeries, Picture
from engine.rulesets import load_ruleset

HERE = Path(__file__).resolve().parent
RULES = load_ruleset("mare-nostrum", HERE.parents[2] / "data").rules  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def fifteen_turns() -> dict[str, Any]:
    # The public state after the scripted 15-turn campaign, as kept for the reference images.
    return json.loads((HERE / "reference" / "state-turn15.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", ["provinces", "stability"])
def test_a_line_per_nation_through_every_closed_turn(fifteen_turns: dict[str, Any], kind: str) -> None:
    layout = chart_layout(picture_of_view(RULES, fifteen_turns), kind, 1200)
    history = fifteen_turns["history"]
    assert [s.seat for s in layout.series] == list(RULES.nations)
    for series in layout.series:
        assert series.values == tuple((h["turn"], h[kind][series.seat]) for h in history)
        assert len(series.points) == len(history)
        for x, y in series.points:
            assert inside((int(x), int(y), int(x) + 1, int(y) + 1), layout.plot)
    for a, b in zip(layout.series, layout.series[1:]):
        assert (a.style.marker, a.style.dash, a.style.fill) != (b.style.marker, b.style.dash, b.style.fill)
    lo, hi = layout.y_range
    assert lo <= min(v for s in layout.series for _t, v in s.values)
    assert hi >= max(v for s in layout.series for _t, v in s.values)
    assert [t for t, _x, _label in layout.x_ticks][0] == 1 and layout.x_ticks[-1][0] == 15
    assert layout.subtitle == "After each closed turn, turns 1 to 15 (290 BC to 150 BC)"


def test_the_legend_names_each_nation_with_its_latest_value(fifteen_turns: dict[str, Any]) -> None:
    layout = chart_layout(picture_of_view(RULES, fifteen_turns), "provinces", 1200)
    last = fifteen_turns["history"][-1]["provinces"]
    assert [item.text for item in layout.legend] == [f"{n}  {last[n]}" for n in RULES.nations]
    boxes = [item.sample for item in layout.legend]
    assert all(a[3] <= b[1] for a, b in zip(boxes, boxes[1:])), "legend rows do not overlap"
    assert all(box[0] >= layout.plot[2] for box in boxes), "the legend stays right of the plot"


def test_every_nation_colour_is_drawn(fifteen_turns: dict[str, Any]) -> None:
    image = Image.open(io.BytesIO(render_chart(picture_of_view(RULES, fifteen_turns), "stability", 1200)))
    assert image.size == (1200, 672)
    counts = {colour: n for n, colour in image.convert("RGB").getcolors(maxcolors=1 << 20)}
    for nation, style in seat_styles(RULES.nations).items():
        if nation in RULES.nations:
            assert counts.get(style.fill, 0) > 100, nation


def bare(powers: tuple[str, ...], history: list[dict[str, Any]]) -> Picture:
    """A picture with charts and nothing else, no ruleset behind it: no colours asked for, no labels under x."""
    return Picture("Test", powers=powers, charts=tuple(
        ChartSeries(kind, f"{kind} per power", tuple((h["turn"], "", h[kind]) for h in history), top)
        for kind, top in (("provinces", None), ("stability", 7))))


def test_charts_work_without_history_or_ruleset() -> None:
    empty = bare(("Romans", "Gauls"), [])
    layout = chart_layout(empty, "provinces", 800)
    assert layout.series == () and layout.subtitle == "No turn has been closed yet"
    assert render_chart(empty, "stability", 800)[:4] == b"\x89PNG"
    one = bare(("Romans",), [{"turn": 1, "provinces": {"Romans": 6}, "stability": {"Romans": 5}}])
    single = chart_layout(one, "stability", 800)
    assert single.subtitle == "After each closed turn, turn 1"
    assert single.series[0].style.fill == seat_styles(["Romans"])["Romans"].fill
    with pytest.raises(ValueError, match="unknown chart 'treasury'"):
        chart_layout(one, "treasury")


def test_dashes_cut_a_line_into_pieces_of_the_pattern() -> None:
    assert _dashed([(0, 0), (100, 0)], (), 1.0) == [[(0, 0), (100, 0)]]
    pieces = _dashed([(0, 0), (50, 0), (100, 0)], (10.0, 5.0), 1.0)
    assert len(pieces) == 7
    assert pieces[0] == [(0, 0), (10.0, 0.0)] and pieces[1][0] == (15.0, 0.0)
    assert all(abs(p[-1][0] - p[0][0]) <= 10.0 + 1e-9 for p in pieces)
