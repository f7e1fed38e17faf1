"""What the world may see of a campaign: the state as JSON, and a short status board."""
from __future__ import annotations

from typing import Any

from engine.mare_nostrum.conquest import treasury
from engine.mare_nostrum.context import Ctx
from engine.mare_nostrum.rules_data import RulesData
from engine.mare_nostrum.state import OPEN_BATTLE, State


def nations_view(rules: RulesData, state: State) -> dict[str, dict[str, Any]]:
    """The nations as the public view shows them (a part of it that does not grow with the campaign)."""
    ctx = Ctx(rules, state, event=None)  # type: ignore[arg-type]  # read only
    return {
        name: {
            "player": ns.player,
            "stability": ns.stability,
            "treasury": treasury(ctx, name),
            "actions": ns.actions,
            "actions_total": ns.actions_total,
            "alive": ns.alive,
            "fate": ns.fate,
            "passed": ns.passed,
            "provinces": state.owned(name),
            "effects": list(ns.effects),
            "choices": list(ns.choices),
            "peace_with": list(ns.peace_with),
            "army": rules.nations[name].army,
            "wheel": rules.nations[name].wheel,
        }
        for name, ns in state.nations.items()
    }


def events_view(state: State) -> dict[str, dict[str, Any]]:
    """This turn's random event of each nation."""
    events = {}
    for name, ns in state.nations.items():
        if ns.event is None:
            continue
        entry: dict[str, Any] = {"number": ns.event_number, "name": ns.event}
        if ns.event_province:
            entry["province"] = ns.event_province
        events[name] = entry
    return events


def battles_view(state: State) -> list[dict[str, Any]]:
    """This turn's battles (the list starts afresh each turn)."""
    return [
        {
            "id": b.id, "kind": b.kind, "province": b.province, "sea": b.sea, "attacker": b.attacker,
            "attacker_player": b.attacker_player, "attacker_army": b.attacker_army, "defender": b.defender,
            "defender_army": b.defender_army, "status": b.status, "winner": b.winner,
        }
        for b in state.battles
    ]


def public_view(rules: RulesData, state: State) -> dict[str, Any]:
    nations = nations_view(rules, state)
    provinces = {
        name: {
            "owner": ps.owner,
            "home_of": rules.map.provinces[name].nation,
            "role": rules.map.provinces[name].role,
            "capital": rules.map.provinces[name].is_capital,
            "fortification": ps.fortification,
            "suburbs": ps.suburbs,
            "temple": ps.temple,
            "held_by": ps.held_by,
            "attacked": name in state.attacked,
        }
        for name, ps in state.provinces.items()
    }
    fleets = {sea: dict(sorted(c.items())) for sea, c in state.fleets.items() if any(c.values())}
    events = events_view(state)
    rolls = [
        {
            "id": r.id, "turn": r.turn, "purpose": r.purpose, "nation": r.nation, "draw": r.draw, "wheel": r.wheel,
            "position": r.position, "number": r.number, "outcome": r.outcome if r.number is not None else "pending",
            "meaning": r.meaning, **({"label": r.label} if r.label is not None else {}),
        }
        for r in state.rolls
    ]
    gm_rolls = [
        {
            "id": g.id, "turn": g.turn, "dice": g.dice, "label": g.label, "by": g.by, "rolls": [list(ids) for ids in g.slots],
            "values": list(g.values), "total": g.total,
        }
        for g in state.gm_rolls
    ]
    battles = battles_view(state)
    return {
        "ruleset": state.ruleset,
        "turn": state.turn,
        "year": rules.year(state.turn) if state.turn else None,
        "phase": state.phase,
        "draw": state.turn_draw,
        "order_of_play": list(state.order_of_play),
        "to_play": state.acting(),
        "nations": nations,
        "provinces": provinces,
        "fleets": fleets,
        "pirates": sorted(state.pirates, key=rules.map.sea_order),
        "naval_attacked": sorted(state.naval_attacked),
        "events": events,
        "battles": battles,
        "rolls": rolls,
        "gm_rolls": gm_rolls,
        "history": [{"turn": h.turn, "provinces": h.provinces, "stability": h.stability} for h in state.history],
        "winner": state.winner,
        "locked": state.locked,
        "randomness": state.randomness,
        **({"commitment": state.commitment, "seed": state.seed} if state.commitment is not None else {}),
        # Shown only where it is not the old rule, so an old campaign's public view stays byte for byte the same.
        **({"commit_reveal_rule": state.commit_reveal_rule} if state.commit_reveal_rule != 1 else {}),
    }


def status_board(rules: RulesData, state: State) -> str:
    view = public_view(rules, state)
    if state.turn == 0:
        return "The campaign has not started: the GM opens turn 1 with /turn open <date>."
    lines = [f"Turn {state.turn} ({view['year']}), draw {state.turn_draw}, phase: {state.phase.replace('_', ' ')}."]
    if state.winner:
        lines.append(f"Winner: the {state.winner}.")
    if state.commitment is not None:
        lines.append(f"Rolls: commit-reveal, commitment {state.commitment}" + (
            ", each number checkable from its drand round as soon as it is recorded." if state.commit_reveal_rule != 1
            else ", seed revealed." if state.seed else ", seed not revealed yet."))
    if state.locked is not None:
        lines.append(f"Orders are locked by the GM: {state.locked}.")
    for name in state.order_of_play or list(state.nations):
        n = view["nations"][name]
        if not n["alive"]:
            continue  # listed once below, as out (a nation out mid-turn stays in the turn's order of play)
        mark = "▶" if name == view["to_play"] else ("✓" if n["passed"] else "·")
        event = view["events"].get(name, {}).get("name", "-")
        lines.append(
            f"{mark} {name} ({n['player'] or 'no player'}): {len(n['provinces'])} provinces, stability {n['stability']}, "
            f"treasury {n['treasury']}, actions {n['actions']}/{n['actions_total']}, event {event}"
        )
    dead = [name for name, n in view["nations"].items() if not n["alive"]]
    for name in dead:
        lines.append(f"✗ {name}: {view['nations'][name]['fate']}")
    pending = [b for b in view["battles"] if b["status"] in OPEN_BATTLE]
    if pending:
        lines.append(
            "Pending battles: "
            + "; ".join(f"#{b['id']} {b['province'] or b['sea']} ({b['attacker']} vs {b['defender'] or 'independent'}, {b['status'].replace('_', ' ')})" for b in pending)
        )
    waiting = [r for r in view["rolls"] if r["outcome"] == "pending"]
    if waiting:
        lines.append("Rolls waiting for their draw: " + "; ".join(
            f"#{r['id']} {r['purpose']} on " + (f"label {r['label']}" if "label" in r else f"{r['draw']} {r['wheel']} {r['position']}")
            for r in waiting
        ))
    return "\n".join(lines)
