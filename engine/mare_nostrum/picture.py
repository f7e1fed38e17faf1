"""The Mare Nostrum map as a neutral picture (engine/ruleset.py ``Picture``): what any renderer needs, in shapes.

Built from the public view, so a picture never shows what the world may not see, and a stored public state
(a reference image's, a past turn's) is drawn the same way as a live one.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.geography import GameMap
from engine.mare_nostrum.rules_data import RulesData
from engine.mare_nostrum.state import State
from engine.mare_nostrum.view import public_view
from engine.names import counted
from engine.ruleset import HIGHLIGHT, ChartSeries, Glyph, Picture, Space, Standing

# A battle still to be settled unless its status says it was: the battles module adds open states of its own
# (a claimed or disputed report), so the settled ones are listed.
SETTLED = frozenset({"won", "lost", "held", "aborted", "draw"})
PHASES = {
    "setup": "the campaign has not started",
    "awaiting_draw": "waiting for the turn's draw",
    "battles": "battles to report",
    "closed": "turn closed",
}
KEY: tuple[tuple[str, str], ...] = (
    ("capital", "capital"),
    ("fortification", "fortification"),
    ("suburbs", "suburbs"),
    ("temple", "temple"),
    ("fleet", "fleet: nation and ships"),
    ("pirates", "pirates"),
    (HIGHLIGHT, "attacked this turn"),
    ("battle", "battle to fight"),
)
CHARTS = {"provinces": "Provinces per nation", "stability": "Stability per nation"}


def picture(rules: RulesData, state: State) -> Picture:
    return picture_of_view(rules, public_view(rules, state))


def picture_of_view(rules: RulesData, view: Mapping[str, Any]) -> Picture:
    """The picture of a public view (``public_view``, or one stored as JSON)."""
    return grid_picture(rules.map, rules.nations, view, rules.year, rules.max_stability)


def map_title(game_map: GameMap) -> str:
    # A map's title often carries its start year ("Mare Nostrum, 290 BC"): the header shows the current one.
    return game_map.name.split(",")[0].strip() or game_map.name


def grid_picture(game_map: GameMap, nations: Mapping[str, Any], view: Mapping[str, Any],
                 year_of: Callable[[int], str] | None = None, max_stability: int = 7) -> Picture:
    """The picture of ``view`` on any Mare Nostrum grid map (the game's, or a GM's own ``.map``)."""
    powers = tuple(nations) or tuple(view.get("nations", {}))
    colours = tuple((n, str(c)) for n in powers if (c := _colour(nations.get(n))) is not None) if nations else ()
    provinces = view.get("provinces", {})
    pending = {b.get("province") or b.get("sea") for b in view.get("battles", []) if b.get("status") not in SETTLED}
    spaces: list[Space] = []
    for prov in game_map.provinces.values():
        pv = provinces.get(prov.name, {})
        owner = pv.get("owner", prov.nation) if pv else prov.nation
        glyphs = [Glyph(k, owner) for k, on in (
            ("capital", prov.is_capital), ("fortification", pv.get("fortification")), ("suburbs", pv.get("suburbs")),
            ("temple", pv.get("temple")), ("battle", prov.name in pending)) if on]
        held = pv.get("held_by")
        spaces.append(Space(prov.name, "land", cells=(prov.cell,), fill=owner, highlight=bool(pv.get("attacked")),
                            glyphs=tuple(glyphs), role=prov.role, note=f"held by the {held}" if held else ""))
    fleets = view.get("fleets", {})
    pirates = set(view.get("pirates", []))
    for sea in game_map.seas.values():
        glyphs = [Glyph("fleet", nation, int(count)) for nation, count in fleets.get(sea.name, {}).items() if count]
        if sea.name in pirates:
            glyphs.append(Glyph("pirates"))
        if sea.name in pending:
            glyphs.append(Glyph("battle"))
        spaces.append(Space(sea.name, "sea", cells=sea.cells, glyphs=tuple(glyphs)))
    links = tuple(sorted({(min(a, b), max(a, b)) for a, bs in game_map.land.items() for b in bs}))
    standings = _standings(view, powers)
    return Picture(
        title=map_title(game_map), subtitle=_turn_text(view), grid=(game_map.columns, game_map.rows),
        spaces=tuple(spaces), links=links, legend=tuple((s.power or "Independent", s.text) for s in standings),
        powers=powers, colours=colours, info=_info(view), standings=standings, key=KEY,
        charts=_charts(view, year_of, max_stability),
    )


def _colour(data: Any) -> str | None:
    if data is None:
        return None
    value = data.get("colour") or data.get("color") if isinstance(data, Mapping) else getattr(data, "colour", None)
    return str(value) if value else None


def _turn_text(view: Mapping[str, Any]) -> str:
    turn = int(view.get("turn") or 0)
    year = view.get("year")
    if not turn:
        return "before turn 1"
    return f"Turn {turn}, {year}" if year else f"Turn {turn}"


def _info(view: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    phase = str(view.get("phase") or "setup")
    winner = view.get("winner")
    if winner:
        text = f"the {winner} won the campaign"
    elif phase == "orders":
        to_play = view.get("to_play")
        text = f"orders: the {to_play} to play" if to_play else "orders"
    elif phase == "over":
        text = "the campaign is over"
    else:
        text = PHASES.get(phase, phase.replace("_", " "))
    draw = view.get("draw")
    lines = (("draw", f"lottery draw of {draw}" if draw else ""), ("phase", text[:1].upper() + text[1:]))
    return tuple((name, line) for name, line in lines if line)


def _standings(view: Mapping[str, Any], powers: tuple[str, ...]) -> tuple[Standing, ...]:
    nations = view.get("nations", {})
    provinces = view.get("provinces", {})
    rows = []
    for name in powers:
        nv = nations.get(name, {})
        count = len(nv.get("provinces", [])) if nv else sum(1 for p in provinces.values() if p.get("owner") == name)
        alive = bool(nv.get("alive", True)) if nv else True
        player = nv.get("player") if nv else None
        text = f"{player or 'no player'} · {counted(count, 'province')}"
        if not alive:
            text += " · fallen"
        rows.append(Standing(name, text, player, count, alive))
    independent = sum(1 for p in provinces.values() if p.get("owner") is None or p.get("owner") not in powers)
    rows.append(Standing(None, counted(independent, "province"), None, independent, True))
    return tuple(rows)


def _charts(view: Mapping[str, Any], year_of: Callable[[int], str] | None, max_stability: int) -> tuple[ChartSeries, ...]:
    out = []
    for kind, title in CHARTS.items():
        steps = tuple(
            (int(h["turn"]), year_of(int(h["turn"])) if year_of else "", {n: int(v) for n, v in h.get(kind, {}).items()})
            for h in view.get("history", [])
        )
        out.append(ChartSeries(kind, title, steps, top=max_stability if kind == "stability" else None))
    return tuple(out)
