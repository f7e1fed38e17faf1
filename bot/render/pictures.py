"""The pictures of a campaign at a moment: its map and its charts, as (file name, PNG bytes).

One place for what the bot attaches, whether a turn's results (scheduler job) or a /map or /chart request.
Everything is drawn from the ruleset's ``picture(state)``: no game is named here.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ruleset import Ruleset


def pictures(ruleset: Ruleset, state: Any, *, with_map: bool = True,
             charts: Sequence[str] | None = None) -> list[tuple[str, bytes]]:
    """The map (unless ``with_map`` is false) and the charts of ``charts`` (default: the first the game draws) that
    have steps to show."""
    from bot.render.charts import render_chart
    from bot.render.map_png import render_png

    picture = ruleset.picture(state)
    turn = ruleset.summary(state).turn
    files = [(f"map-turn-{turn}.png", render_png(picture))] if with_map else []
    drawn = {chart.kind: chart for chart in picture.charts}
    if charts is None:
        charts = [picture.charts[0].kind] if picture.charts else []
    for kind in charts:
        chart = drawn.get(kind)
        if chart is not None and chart.steps:
            files.append((f"{kind}-turn-{turn}.png", render_chart(picture, kind)))
    return files
