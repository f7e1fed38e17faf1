"""A turn from its draw to its close: order of play, random events, players' turns, the close."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum import naval
from engine.mare_nostrum.conquest import fall, final_reckoning, treasury
from engine.mare_nostrum.context import Ctx, pick
from engine.mare_nostrum.rules_data import EventData
from engine.mare_nostrum.state import OPEN_BATTLE, Battle, TurnRecord

# Effects that last the turn, by the event data's `effect` name.
LASTING = {
    "one_commander": "their battles this turn are fought with only 1 Troop Commander",
    "siege_train": "their victories this turn ignore enemy fortifications",
    "naval_technology": "+25 in their naval battles this turn",
    "enemies_one_commander": "their opponents fight with only 1 Troop Commander this turn",
}
CHOICES = {
    "earthquake": "they may destroy one enemy fortification (write: earthquake in <province>)",
    "great_blaze": "they may destroy one enemy temple (write: great blaze in <province>)",
    "defensive_artworks": "one of their provinces may count as fortified this turn (write: defensive artworks in <province>)",
}


def open_turn(ctx: Ctx, draw: str, requested: str) -> None:
    state = ctx.state
    if state.phase == "over":
        raise Rejection(f"the campaign is over: the {state.winner} won")
    if state.phase not in ("setup", "closed"):
        raise Rejection(f"turn {state.turn} is still open; close it first (/turn close)")
    if state.turn_draw and draw <= state.turn_draw:
        raise Rejection(
            f"turn {state.turn} used the draw of {state.turn_draw}; the next turn needs a later draw than that"
        )
    state.turn += 1
    state.turn_draw = draw
    state.requested = requested
    state.phase = "awaiting_draw"
    ctx.say(
        f"Turn {state.turn} ({ctx.rules.year(state.turn)}) is bound to the lottery draw of {draw}: "
        "the order of play and the events come from it."
    )
    if draw in state.draws:
        start_turn(ctx)


def wheel_numbers(ctx: Ctx, nation: str) -> list[int]:
    assert ctx.state.turn_draw is not None
    return ctx.state.draws[ctx.state.turn_draw][ctx.rules.nations[nation].wheel]


def start_turn(ctx: Ctx) -> None:
    state, rules = ctx.state, ctx.rules
    seed_order = list(rules.nations)
    alive = state.alive_nations()
    # Highest 1st number plays first; ties go to the next numbers of the wheel, then to the seed's order.
    state.order_of_play = sorted(
        alive, key=lambda n: (tuple(-x for x in wheel_numbers(ctx, n)), seed_order.index(n))
    )
    _reset_turn(ctx)
    lines = [f"Turn {state.turn}, {rules.year(state.turn)}: draw of {state.turn_draw}."]
    lines.append(
        "Order of play: "
        + ", ".join(f"{n} ({rules.nations[n].wheel} {wheel_numbers(ctx, n)[0]})" for n in state.order_of_play)
        + "."
    )
    ctx.say(" ".join(lines))
    modifiers: dict[str, int] = {}
    invasions: list[str] = []
    pirate_seas: list[str] = []
    for nation in state.order_of_play:
        numbers = wheel_numbers(ctx, nation)
        event = rules.event_for(numbers[1])
        modifiers[nation] = event.actions
        _apply_event(ctx, nation, event, numbers, invasions, pirate_seas)
    for nation in state.order_of_play:
        if state.nations[nation].stability <= 0:
            fall(ctx, nation)
    state.order_of_play = [n for n in state.order_of_play if state.nations[n].alive]
    if state.winner:
        return
    for nation in invasions:
        _invade(ctx, nation)
    naval.pirates_strike(ctx, pirate_seas)
    for nation in state.order_of_play:
        ns = state.nations[nation]
        tp = treasury(ctx, nation)
        actions = tp // rules.treasury_per_action
        if ns.stability <= rules.low_stability:
            actions -= 1
        # The seed: "a player will always have at least 1 action ... also if he hasn't got enough points":
        # "always" is the last word, so the floor comes after low stability and the event's minus.
        ns.actions = ns.actions_total = max(1, actions + modifiers[nation])
    state.phase = "orders"
    state.current = 0
    ctx.say(
        "Actions: "
        + ", ".join(f"{n} {state.nations[n].actions} (treasury {treasury(ctx, n)})" for n in state.order_of_play)
        + "."
    )
    advance(ctx)


def _reset_turn(ctx: Ctx) -> None:
    state = ctx.state
    state.attacked = []
    state.naval_attacked = []
    state.battles = []
    state.sealed = (0, *state.sealed[1:])  # the new turn's battle list starts with nothing sealed
    state.current = 0
    for ns in state.nations.values():
        ns.passed = False
        ns.event = ns.event_province = None
        ns.event_number = None
        ns.effects = []
        ns.choices = []
        ns.defensive_artworks = None
        ns.pending_builds = []
        ns.peace_with = []
        ns.actions = ns.actions_total = 0


def _apply_event(
    ctx: Ctx, nation: str, event: EventData, numbers: list[int], invasions: list[str], pirate_seas: list[str]
) -> None:
    state, rules = ctx.state, ctx.rules
    ns = state.nations[nation]
    ns.event, ns.event_number = event.name, numbers[1]
    parts = []
    if event.stability:
        ns.stability = min(rules.max_stability, ns.stability + event.stability)
        parts.append(f"stability {event.stability:+d} (now {ns.stability})")
    if event.actions:
        parts.append(f"{event.actions:+d} action")
    effect = event.effect
    third = numbers[2]
    if effect in LASTING:
        ns.effects.append(effect)
        parts.append(LASTING[effect])
    elif effect in CHOICES:
        ns.choices.append(effect)
        parts.append(CHOICES[effect])
    elif effect in ("destroy_own_fortification", "destroy_own_temple"):
        building = "fortification" if effect == "destroy_own_fortification" else "temple"
        sites = [p for p in state.owned(nation) if getattr(state.provinces[p], building)]
        if sites:
            site = sites[pick(third, len(sites))]
            setattr(state.provinces[site], building, False)
            parts.append(f"the {building} of {site} is destroyed")
        else:
            parts.append(f"no {building} to lose")
    elif effect == "sink_fleet":
        seas = [s for s in rules.map.seas if state.fleets.get(s, {}).get(nation, 0) > 0]
        if seas:
            sea = seas[pick(third, len(seas))]
            naval.lose_fleets(ctx, sea, nation, 1)
            parts.append(f"a fleet sinks in {sea}")
        else:
            parts.append("no fleet to sink")
    elif effect == "invasion":
        targets = [inv.province for inv in rules.invasions.values() if rules.map.provinces[inv.province].nation == nation]
        target = targets[pick(third, len(targets))] if targets else None
        ns.event_province = target
        if target is None or state.provinces[target].owner != nation:
            parts.append(f"{target or 'no province'} is no longer theirs: no effect")
        else:
            inv = rules.invasions[target]
            invasions.append(nation)
            parts.append(f"the {inv.invader} invade {target} (3rd number {third}), played by the {inv.managed_by}")
    elif effect == "pirates":
        seas = [s for s in rules.map.seas if state.fleets.get(s, {}).get(nation, 0) > 0]
        if seas:
            sea = seas[pick(third, len(seas))]
            pirate_seas.append(f"{sea}|{nation}")
            parts.append(f"pirates attack their fleet in {sea} and stay there")
        else:
            parts.append("no fleet for the pirates to attack")
    ctx.say(f"Event for the {nation} ({rules.nations[nation].wheel} 2nd number {numbers[1]}): {event.name}: {'; '.join(parts)}.")


def _invade(ctx: Ctx, nation: str) -> None:
    state, rules = ctx.state, ctx.rules
    target = state.nations[nation].event_province
    assert target is not None
    inv = rules.invasions[target]
    state.attacked.append(target)
    battle = Battle(
        id=state.new_id(), turn=state.turn, kind="invasion", province=target, sea=None,
        attacker=inv.invader, attacker_nation=None, attacker_player=ctx.player_of(inv.managed_by),
        attacker_army=inv.army, defender=nation, defender_army=rules.nations[nation].army,
    )
    state.battles.append(battle)
    ctx.say(
        f"Battle #{battle.id}: the {inv.invader} ({inv.army}, played by {battle.attacker_player}) attack {target}, "
        f"defended by the {nation} ({battle.defender_army}, {ctx.player_of(nation)})."
    )


def end_player_turn(ctx: Ctx, nation: str) -> None:
    state = ctx.state
    ns = state.nations[nation]
    done = []
    for kind, place in ns.pending_builds:
        if kind == "fleet":
            counts = state.fleets.setdefault(place, {})
            counts[nation] = counts.get(nation, 0) + 1
            done.append(f"a fleet in {place}")
        else:
            setattr(state.provinces[place], kind, True)
            done.append(f"{kind} in {place}")
    ns.pending_builds = []
    ns.passed = True
    ns.actions = 0
    ctx.say(f"The {nation} end their turn." + (f" Completed: {', '.join(done)}." if done else ""))
    advance(ctx)


def after_ruling(ctx: Ctx) -> None:
    """A GM ruling may leave the nation to play out of the game or without actions: the turn moves on as it would
    in play. A nation that is out completes nothing it had pending (its provinces and fleets are gone); one left
    without actions ends its turn as a pass does, its builds completed (docs/rules/mare-nostrum.md, "Actions")."""
    nation = ctx.state.acting()
    if nation is None:
        return
    ns = ctx.state.nations[nation]
    if not ns.alive:
        ns.pending_builds = []
        ctx.say(f"The {nation} are out of the game: their turn ends with nothing completed.")
        advance(ctx)
    elif ns.actions <= 0:
        end_player_turn(ctx, nation)


def advance(ctx: Ctx) -> None:
    """Move to the next nation that can act; a nation without actions passes on its own."""
    state = ctx.state
    while state.current < len(state.order_of_play):
        nation = state.order_of_play[state.current]
        ns = state.nations[nation]
        if ns.passed or not ns.alive:
            state.current += 1
            continue
        if ns.actions <= 0:
            ctx.say(f"The {nation} have no action this turn.")
            ns.passed = True
            state.current += 1
            continue
        ctx.say(f"The {nation} ({ctx.player_of(nation)}) are to play: {ns.actions} action(s).")
        return
    state.phase = "battles"
    pending = [b for b in state.battles if b.status in OPEN_BATTLE]
    if pending:
        ctx.say(
            "Every nation has declared. Battles to fight: "
            + "; ".join(f"#{b.id} {b.province or b.sea}" for b in pending)
            + ". Report each with /battle <province> winner <side>."
        )
    else:
        ctx.say("Every nation has declared, and no battle is pending: the GM can close the turn (/turn close).")


def close_turn(ctx: Ctx) -> None:
    state, rules = ctx.state, ctx.rules
    if state.phase == "over":
        raise Rejection(f"the campaign is over: the {state.winner} won")
    if state.phase != "battles":
        who = state.acting()
        raise Rejection(
            f"turn {state.turn} cannot close yet: "
            + (f"the {who} are still to play" if who else f"it is in the '{state.phase}' phase")
        )
    pending_battles = [b for b in state.battles if b.status in OPEN_BATTLE]
    if pending_battles:
        raise Rejection(
            "turn cannot close while battles are pending: "
            + ", ".join(f"#{b.id} {b.province or b.sea} ({b.status.replace('_', ' ')})" for b in pending_battles)
        )
    pending_rolls = [r for r in state.open_rolls() if r.number is None]  # the sealed ones were settled before
    if pending_rolls:
        raise Rejection(
            "turn cannot close while rolls wait for their draw: "
            + ", ".join(f"#{r.id} on {r.draw if r.label is None else r.label}" for r in pending_rolls)
        )
    state.history.append(
        TurnRecord(
            turn=state.turn,
            provinces={n: len(state.owned(n)) for n in state.nations},
            stability={n: state.nations[n].stability for n in state.nations},
        )
    )
    state.phase = "closed"
    state.seal()
    ctx.say(f"Turn {state.turn} ({rules.year(state.turn)}) is closed.")
    if state.turn >= rules.turns and not state.winner:
        final_reckoning(ctx)
