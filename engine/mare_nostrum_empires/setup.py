"""The board at the start: each empire's screen laid out on its 3 provinces, its hero, its titles.

The first round skips Production because set-up has done it, so a screen's goods and taxes must be exactly one
production of the buildings it sets up: a data file where they differ is refused."""
from __future__ import annotations

from engine.mare_nostrum_empires import production, titles
from engine.mare_nostrum_empires.rules_data import RulesData, RulesError
from engine.mare_nostrum_empires.state import Board, ProvinceState, Screen


def start(rules: RulesData, players: int) -> Board:
    empires = rules.in_play(players)
    provinces = {p: ProvinceState() for p in rules.provinces_in_play(players)}
    triremes: dict[str, dict[str, int]] = {s: {} for s in rules.map.seas}
    screens: dict[str, Screen] = {}
    for name in empires:
        empire = rules.empires[name]
        for prov, built in empire.provinces.items():
            provinces[prov] = ProvinceState(influence=name, built=set(built))
        for prov, count in empire.legions.items():
            provinces[prov].legions[name] = count
        for prov in empire.fortresses:
            provinces[prov].fortress = name
        for sea, count in empire.triremes.items():
            triremes[sea][name] = count
        screens[name] = Screen(goods=dict(empire.goods), taxes=empire.taxes, tiles=[empire.hero])
    leaders = {key: next(e for e in (*title.start, *empires) if e in empires) for key, title in rules.titles.items()}
    board = Board(1, empires, provinces, triremes, screens, leaders)
    for name in empires:
        made = production.collect(rules, board, name)
        screen = screens[name]
        if made.goods != screen.goods or made.taxes != screen.taxes or made.legendary:
            raise RulesError(f"empire '{name}': its screen holds {screen.goods} and {screen.taxes} taxes, but its "
                             f"buildings produce {made.goods} and {made.taxes} taxes: the first round skips "
                             f"Production because the screen is its yield, so they must agree")
    board.levels = titles.levels(rules, board)
    return board
