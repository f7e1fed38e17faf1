"""The pictures of a campaign at a moment: its map and its charts, as (file name, PNG bytes).

One place for what the bot attaches, whether a turn's results (scheduler job) or a /map or /chart request.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def pictures(rules: Any, view: Mapping[str, Any], *, with_map: bool = True,
             charts: Sequence[str] = ("provinces",)) -> list[tuple[str, bytes]]:
    from bot.render.charts import render_chart
    from bot.render.map_png import render_png

    turn = view["turn"]
    files = [(f"map-turn-{turn}.png", render_png(rules.map, rules.nations, view))] if with_map else []
    if view["history"]:
        for kind in charts:
            files.append((f"{kind}-turn-{turn}.png", render_chart(view, kind, nations_data=rules.nations, year_of=rules.year)))
    return files
