"""What the world may see of a Mediterranean Empires game: the public state as JSON, a seat's own view (its markers,
standing orders, sealed bids), the summary the shell lists campaigns by, and the status card."""
from __future__ import annotations

from typing import Any

from engine.chance import book as chance
from engine.mediterranean_empires import control, options, setup_phase
from engine.mediterranean_empires.rules_data import RulesData
from engine.mediterranean_empires.state import State
from engine.ruleset import Summary


def public_view(rules: RulesData, state: State) -> dict[str, Any]:
    from engine.mediterranean_empires import hand  # here: a map or a summary needs no markers' draws

    st = state
    out = {
        "turn": st.turn, "years": options.years(rules, st), "phase": st.phase, "to_move": st.to_move,
        "treasury": {s: v.treasury for s, v in st.sides.items()},
        "markers_held": {s: len(v.hand) for s, v in st.sides.items()},
        "pool": hand.pool_size(st), "pope": st.pope, "plague": st.plague,
        "powers": {p: {"status": st.status[p], "side": st.side_of.get(p)} for p in rules.powers},
        "control": control.controllers(st, rules.map.lands),
        "units": [{"id": u.id, "power": u.power, "kind": u.kind, "area": u.area, "done": u.done,
                   **({"face_down": True} if u.face_down else {})} for u in st.units.values()],
        "kings": {p: {"diplomacy": k.diplomacy, "military": k.military, "area": k.area} for p, k in st.kings.items()},
        "force": None if (f := st.force) is None else {"power": f.power, "area": f.area, "ops": f.ops, "ids": list(f.ids),
                                                       "cargo": list(f.cargo)},
        "winner": st.winner, "vp": st.vp, "options": list(st.options),
    }
    if st.phase == setup_phase.PHASE:  # only then: the views of campaigns past their set-up stay as they were
        out["to_place"] = {side: setup_phase.left_to_place(rules, st, side) for side in st.sides}
    return out

def private_view(rules: RulesData, state: State, seat: str) -> dict[str, Any]:
    from engine.mediterranean_empires import hand

    side = rules.seats.get(seat)
    if side is None:
        return {}
    s = state.sides[side]
    view: dict[str, Any] = {"markers": sorted(hand.known(state, side)), "attempts_left": list(s.attempts_left),
                            "standing_orders": list(state.standing.get(seat, []))}
    if state.action is not None:
        bids = {k: v.get("answer", "sealed") for k, v in state.action.sealed.items() if v["seat"] == seat}
        if bids:
            view["sealed_bids"] = bids
    return view

def summary(rules: RulesData, state: State) -> Summary:
    over = state.phase == "over"
    # On the lottery the game stands at the newest draw it has recorded: its next rolls bind to later ones.
    book = state.book
    latest = max(book.draws) if book.source == chance.LOTTERY and book.draws else None
    return Summary(state.turn, f"Game turn {state.turn} ({options.years(rules, state)})", state.phase,
                   playing=not over, over=over, draw=latest,
                   winner=None if not over else ("draw" if state.winner == "draw" else rules.seat_of_side(state.winner or "B")),
                   # Game turns end by play (the end-of-turn phase moves to the next), not by a GM's close: the
                   # turn before the one being played is the last closed, and the last one too once the game is over.
                   closed_turn=state.turn if over else state.turn - 1)

def status(rules: RulesData, state: State) -> str:
    lines = [f"Game turn {state.turn} ({options.years(rules, state)}), {state.phase} phase; "
             f"Player {state.to_move} to act."]
    for side, s in state.sides.items():
        lines.append(f"Player {side}: {s.treasury} TP, {len(s.hand)} stratagem marker(s).")
    if state.phase == setup_phase.PHASE:
        lines += [f"Player {side} has to place: {setup_phase.left_to_place(rules, state, side)}." for side in state.sides]
    if state.options:
        lines.append("Options: " + ", ".join(rules.options[o].split(":")[0] for o in state.options) + ".")
    if state.action is not None:
        waiting = state.action.pending.describe()
        lines.append(f"Waiting for {waiting}" + ("" if waiting.endswith(("?", ".")) else "."))
    return "\n".join(lines)
