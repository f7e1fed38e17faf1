"""The board as a ``Picture`` for the area-map renderer: each province in the colour of its influence holder,
marks for legions, fortresses, war and conquest, seas with their triremes, and a legend of the empires with their
players, provinces and titles."""
from __future__ import annotations

from engine.mare_nostrum_empires import titles
from engine.mare_nostrum_empires.game import Game
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.view import headline
from engine.ruleset import HIGHLIGHT, Picture, Space, Standing


def _marks(game: Game, name: str) -> tuple[str, ...]:
    prov = game.board.provinces[name]
    marks = [f"{n} {e[:3]} leg." for e, n in sorted(prov.legions.items()) if n]
    if prov.fortress:
        marks.append("F")
    if prov.at_war:
        marks.append("war")
    if prov.conqueror:
        marks.append(f"held by {prov.conqueror}")
    return tuple(marks)


def picture(rules: RulesData, game: Game) -> Picture:
    board = game.board
    spaces: list[Space] = []
    for name in board.provinces:
        prov = board.provinces[name]
        city = rules.provinces[name].legendary or next((e.capital for e in rules.empires.values()
                                                        if e.capital_province == name), "")
        spaces.append(Space(name, "land", at=rules.map.lands[name].at, fill=prov.influence, marks=_marks(game, name),
                            highlight=prov.at_war or prov.conqueror is not None,
                            role="capital" if "capital" in rules.provinces[name].sites else "",
                            note=": ".join(x for x in (city, ", ".join(sorted(prov.built))) if x)))
    for name, sea in rules.map.seas.items():
        fleets = [f"{n} {e[:3]} tri." for e, n in sorted(board.triremes[name].items()) if n]
        spaces.append(Space(name, "sea", at=sea.at, marks=tuple(fleets)))
    shown = {s.name for s in spaces}
    links = tuple((a, b) for a, b in rules.map.links() if a in shown and b in shown)
    standings = []
    for empire in board.empires:
        held = titles.counts(board, empire)
        won = [rules.titles[t].name for t, e in board.leaders.items() if e == empire]
        standings.append(Standing(empire, f"{empire} ({game.players.get(empire) or 'no player'}) · "
                                          f"{held['influence']} provinces" + (f" · {', '.join(won)}" if won else ""),
                                  game.players.get(empire), held["influence"]))
    return Picture(rules.title, headline(rules, game), None, tuple(spaces), links,
                   tuple((s.power or "", s.text) for s in standings), tuple(rules.empires),
                   tuple((e.name, e.colour) for e in rules.empires.values()),
                   info=(("phase", headline(rules, game)),), standings=tuple(standings),
                   key=((HIGHLIGHT, "at war, or held by a conqueror"),), drawing=rules.map.drawing)
