"""Mediterranean Empires' map as a ``Picture``: the areas in their holders' colours, and a legend that says which
colour is which player's (France for Player A, Aragon for Player B), who plays them, what they hold, and who is to
act. Before, both legend rows read "Independent" in grey with no player nor turn."""
from __future__ import annotations

from engine.mediterranean_empires import control, options
from engine.mediterranean_empires.rules_data import RulesData
from engine.mediterranean_empires.state import State
from engine.names import counted
from engine.ruleset import Picture, Space, Standing

# The colour each side's areas are painted in, and its camp's words.
SIDE_POWER = {"A": "France", "B": "Aragon"}
CAMP = {"A": "France, Anjou and allies", "B": "Aragon and allies"}


def fill(state: State, area: str, side: str | None) -> str | None:
    holder = state.owner.get(area)
    if holder in SIDE_POWER:
        return SIDE_POWER[holder] if side else None
    return holder


def picture(rules: RulesData, title: str, state: State) -> Picture:
    m = rules.map
    spaces = []
    for name, land in m.lands.items():
        side = control.controller(state, name)
        here = state.units_in(name)
        spaces.append(Space(name, "land", at=land.at, fill=fill(state, name, side),
                            marks=(counted(len(here), "unit"),) if here else (), highlight=control.partial(state, name)))
    for name, sea in m.seas.items():
        fleets = state.units_in(name)
        spaces.append(Space(name, "sea", at=sea.at, marks=(counted(len(fleets), "fleet"),) if fleets else ()))
    standings = _standings(rules, state, spaces)
    return Picture(title, f"Game turn {state.turn} ({options.years(rules, state)})", None, tuple(spaces),
                   tuple(m.links()), tuple((s.power or "Independent", s.text) for s in standings),
                   tuple(rules.powers), info=_info(rules, state), standings=standings, drawing=m.drawing)


def _standings(rules: RulesData, state: State, spaces: list[Space]) -> tuple[Standing, ...]:
    rows = []
    for seat, side in rules.seats.items():
        power = SIDE_POWER[side]
        player = state.players.get(seat) or None
        count = sum(1 for s in spaces if s.fill == power)
        rows.append(Standing(power, f"{seat} ({player or 'no player'}) · {CAMP[side]} · {counted(count, 'area')}",
                             player, count))
    others = sum(1 for s in spaces if s.kind == "land" and s.fill not in SIDE_POWER.values())
    rows.append(Standing(None, "other colours: the independent powers, named on their areas · "
                               + counted(others, "area"), None, others))
    return tuple(rows)


def _info(rules: RulesData, state: State) -> tuple[tuple[str, str], ...]:
    if state.phase == "over":
        winner = state.winner
        text = "the game ended in a draw" if winner == "draw" else \
            f"{rules.seat_of_side(winner or 'B')} won the game" if winner else "the game is over"
    else:
        seat = rules.seat_of_side(state.to_move)
        player = state.players.get(seat)
        text = f"{state.phase} phase: {seat}{f' ({player})' if player else ''} to act"
    return (("phase", text[:1].upper() + text[1:]),)
