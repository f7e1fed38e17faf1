"""The status picture: every civilization's tracks as a table for the grid renderer, one row per player in turn
order and one tile per column (the civilization and its player; VP and money; government; religion; population
with happiness and safety; buildings), each tile in the civilization's colour. The renderer needs no knowledge of
the game: it paints the ``Picture``."""
from __future__ import annotations

from engine.ruleset import HIGHLIGHT, Picture, Space, Standing
from engine.trading_mediterranean import game as gm
from engine.trading_mediterranean import purchasing
from engine.trading_mediterranean.rules_data import Rules

COLUMNS = ("civilization", "points", "government", "religion", "population", "buildings")


def _row(rules: Rules, g: gm.Game, seat: str, row: int, acting: bool) -> list[Space]:
    c = g.civs[seat]
    built = {"government": [b for b in c.buildings if rules.building(b).track == "government"],
             "religion": [b for b in c.buildings if rules.building(b).track == "religion"]}
    # column -> (tile name, its main line, what follows it)
    tiles = {
        "civilization": (seat, g.players.get(seat) or "no player",
                         (f"turn order {g.order.index(seat) + 1}",) if seat in g.order else ()),
        "points": (f"{seat}: points", f"{c.vp} VP · ${c.money}", (f"a VP costs ${purchasing.vp_price(rules, c)}",)),
        "government": (f"{seat}: government", f"{c.government.side} {c.government.level}",
                       (f"{len(built['government'])} building(s)",)),
        "religion": (f"{seat}: religion", f"{c.religion.side} {c.religion.level}",
                     (f"{len(built['religion'])} building(s)",)),
        "population": (f"{seat}: population", f"{c.population()} cubes",
                       (f"happiness {c.happiness}", f"safety {c.safety}", f"industry {c.industry}")),
        "buildings": (f"{seat}: buildings", f"{len(c.buildings)} standing", tuple(c.buildings)),
    }
    return [Space(tiles[col][0], cells=((i, row),), fill=seat, marks=tiles[col][2], note=tiles[col][1],
                  highlight=acting and col == "civilization")
            for i, col in enumerate(COLUMNS)]


def picture(rules: Rules, g: gm.Game, acting: list[str]) -> Picture:
    seats = g.order or g.seats()
    spaces = [s for row, seat in enumerate(seats) for s in _row(rules, g, seat, row, seat in acting)]
    standings = tuple(Standing(s, f"{s} ({g.players.get(s) or 'no player'}) · {g.civs[s].vp} VP",
                               g.players.get(s), g.civs[s].vp) for s in seats)
    return Picture(rules.title, f"turn {g.turn} of {rules.turns}, {g.phase}", (len(COLUMNS), len(seats)),
                   tuple(spaces), (), tuple((s.power or "", s.text) for s in standings), tuple(g.seats()),
                   info=(("phase", f"turn {g.turn} of {rules.turns}, {g.phase}"),), standings=standings,
                   key=((HIGHLIGHT, "to act now"),))
