"""The turn sequence (5.1): stratagem draws, politics, recruitment, the two Operations Phases, the end of turn."""
from __future__ import annotations

from engine.mediterranean_empires import combat, control, hand
from engine.mediterranean_empires.context import Ctx, Refused, other
from engine.mediterranean_empires.state import Unit

PLAGUE, POPE, CRUSADE, GOLD, TRADE, PIRACY = "Plague", "The Pope", "Crusade", "Gold", "Trade Concession", "Piracy"
# Markers that stay face up once played and go back to the pool in the End of Turn Phase (12.0).
END_OF_TURN_RETURN = (GOLD, TRADE, PIRACY, PLAGUE, CRUSADE)


def draw(ctx: Ctx, side: str) -> None:
    """9.0: one random pick from the pool, drawn under seal (hand.py); the Plague, the Pope and the Crusade are
    shown at once and act."""
    st = ctx.state
    if st.phase != "stratagems" or st.to_move != side:
        raise Refused(f"it is not your pick: Player {st.to_move} draws now")
    marker = combat.draw_marker(ctx, side, f"t{st.turn}.draw.{side}{st.drawn_this_phase.get(side, 0) + 1}", shows=True)
    st.drawn_this_phase[side] = st.drawn_this_phase.get(side, 0) + 1
    if marker == PLAGUE:
        st.played.append([side, PLAGUE])
        roll = ctx.die(f"t{st.turn}.plague")
        st.plague = roll <= 3
        ctx.say(f"Player {side} reveals the Plague: {roll}, " + ("plague strikes: every OP cost is doubled this turn."
                                                                   if st.plague else "the plague passes by."))
    elif marker == POPE:
        if control.controller(st, "Papal States") == side:
            st.pope = st.pope_holder = side
            ctx.say(f"Player {side} draws the Pope, who takes his seat in Rome for Player {side}.")
        else:
            hand.to_pool(st, POPE)
            ctx.say(f"Player {side} draws the Pope, but does not control Rome: the marker returns to the pool.")
    elif marker == CRUSADE:
        if st.pope is not None:
            st.played.append([side, CRUSADE])
            crusade(ctx, side)
        else:
            hand.to_pool(st, CRUSADE)
            ctx.say(f"Player {side} draws the Crusade, but the Pope is not in Rome: it returns to the pool.")
    _next_pick(ctx)


def crusade(ctx: Ctx, side: str) -> None:
    """12.0 Crusade: one fleet and two other units (not raiders) of friendly (not vassal) powers leave for the Holy
    Land; they come back in a later Recruitment Phase. The cheapest are sent (mercenaries first under 14.1)."""
    st = ctx.state
    mine = [u for u in st.units.values() if control.side_of_power(st, u.power) == side]
    fleets = sorted((u for u in mine if u.kind == "fleet"), key=lambda u: u.id)[:1]
    order = {"mercenary": 0, "levy": 1, "field_army": 2}
    others = sorted((u for u in mine if u.kind in order), key=lambda u: (order[u.kind], u.id))[:2]
    for u in fleets + others:
        st.sides[side].set_aside.append([u.power, u.kind])
        del st.units[u.id]
    if not fleets:
        st.sides[side].set_aside.append(["owed", "fleet"])
    ctx.say(f"The Pope calls a Crusade: Player {side} sends {len(fleets) + len(others)} unit(s) to the Holy Land.")


def _next_pick(ctx: Ctx) -> None:
    st, per = ctx.state, ctx.rules.markers_per_draw
    drawn = st.drawn_this_phase
    if hand.pool_size(st) <= 0 or all(drawn.get(s, 0) >= per for s in ("A", "B")):
        start_political(ctx)
        return
    nxt = other(st.to_move)
    st.to_move = nxt if drawn.get(nxt, 0) < per else st.to_move


def start_political(ctx: Ctx) -> None:
    st = ctx.state
    st.phase, st.political_round, st.to_move = "political", 1, "A"
    ctx.say(f"Game turn {st.turn}: the Political Phase opens (round 1 of {ctx.rules.political_rounds}).")


def political_done(ctx: Ctx, side: str) -> None:
    """After an attempt or a pass: B follows A; after B, the next round; after the last round, recruitment."""
    st = ctx.state
    if side == "A":
        st.to_move = "B"
        return
    st.political_round += 1
    st.to_move = "A"
    if st.political_round > ctx.rules.political_rounds:
        start_recruitment(ctx)


def start_recruitment(ctx: Ctx) -> None:
    """5.1: collect TPs (cities, vassals, Gold, Trade Concessions), new Kings, then the roll for who buys first."""
    st = ctx.state
    st.phase = "recruitment"
    for side in ("A", "B"):
        # Gold and Trade Concessions are played by their holders in this phase ('play Gold'): held under seal, they
        # cannot be cashed here without telling the other player what the hand holds (play.py).
        tp = control.income(ctx, side)
        gained = control.add_treasury(ctx.rules, st, side, tp)
        ctx.say(f"Player {side} collects {tp} TP" + (f" ({tp - gained} forfeit over the cap)" if gained < tp else "") +
                f": treasury {st.sides[side].treasury}.")
        st.sides[side].done = False
        st.sides[side].recruits_here = {}
        st.sides[side].recruited_allies = []
        st.sides[side].levy_half = False
    for power, king in st.kings.items():
        if king.area is None and king.died_turn is not None and king.died_turn < st.turn:
            new_king(ctx, power)
    a, b = ctx.die(f"t{st.turn}.recruit.A"), ctx.die(f"t{st.turn}.recruit.B")
    winner = "A" if a >= b else "B"
    choice = ctx.oracle.ask(ctx.seat(winner), f"t{st.turn}.recruit_order", f"You won the recruitment roll ({a} to {b}): "
                            "place first or second?", ("first", "second"), "first", mode="turn")
    st.to_move = winner if choice == "first" else other(winner)
    ctx.say(f"Recruitment: Player {st.to_move} places first.")


def new_king(ctx: Ctx, power: str) -> None:
    """8.1: a random King from the power's pool, placed with the power's own units in a totally controlled area."""
    st = ctx.state
    pool = st.king_pool.get(power) or []
    side = st.side_of[power]
    areas = sorted({u.area for u in st.units.values() if u.power == power and u.area in ctx.rules.map.lands
                    and control.controller(st, u.area) == side})
    if not pool or not areas:
        ctx.say(f"No new King of {power} this game turn.")
        return
    pick = ctx.dice(f"t{st.turn}.king.{power}", 1, len(pool))[0] - 1
    dip, mil = pool.pop(pick)
    old = st.kings[power]
    st.king_pool[power].append([old.diplomacy, old.military])
    # The player's choice of area; by default the one with most of the power's units (then map order).
    area = max(areas, key=lambda a: sum(1 for u in st.units_in(a) if u.power == power))
    st.kings[power] = type(old)(power, dip, mil, area)
    ctx.say(f"A new King of {power} (+{dip} +{mil}) is crowned in {area}.")


def recruit(ctx: Ctx, side: str, power: str, kind: str, area: str, count: int = 1) -> None:
    """6.2: pay, take from the pool, place in a friendly totally controlled area (fleets: a sea by a friendly city)."""
    st, rules = ctx.state, ctx.rules
    s = st.sides[side]
    if st.phase != "recruitment":
        raise Refused("units are recruited in the Joint Recruitment Phase only")
    if st.to_move != side:
        raise Refused(f"Player {st.to_move} places now; you follow")
    if control.side_of_power(st, power) != side:
        raise Refused(f"{power} is not your power nor your ally")
    major = st.status[power] == "major"
    if kind == "levy" and count > 2 or kind != "levy" and count != 1:
        raise Refused("one unit at a time, or two levies (5.1)")
    if not major:
        home = rules.powers[power].home
        if not any(control.controller(st, h) == side for h in home):
            raise Refused(f"{power}'s home area is not under your total control: you cannot recruit its units (6.2)")
        if power in s.recruited_allies:
            raise Refused(f"one unit per allied power per turn, and you have recruited {power}'s already")
    available = rules.powers[power].counters.get(kind, 0) - sum(
        1 for u in st.units.values() if u.power == power and u.kind == kind)
    if available < count:
        raise Refused(f"{power} has {available} {kind.replace('_', ' ')} counter(s) left in its pool")
    amap = rules.map
    if kind == "fleet":
        if area not in amap.seas or not any(area in amap.port_seas(l) and control.controller(st, l) == side
                                            for l in amap.seas[area].coast):
            raise Refused(f"a fleet is placed in a sea by a city you totally control; {area} is not one")
    else:
        if area not in amap.lands or control.controller(st, area) != side or control.partial(st, area):
            raise Refused(f"units are placed in an area under your total control; {area} is not")
        if not major and not amap.lands[area].city:
            raise Refused(f"allied units are placed in an area with a city; {area} has none")
    if s.recruits_here.get(area, 0) + count > rules.max_recruits_per_area:
        raise Refused(f"at most {rules.max_recruits_per_area} units recruited in one area")
    halves = rules.cost_halves[kind] * count
    price = (halves + 1) // 2
    if s.treasury < price:
        raise Refused(f"that costs {price} TP and your treasury holds {s.treasury}")
    s.treasury -= price
    for _ in range(count):
        st.units[st.next_unit] = Unit(st.next_unit, power, kind, area)
        st.next_unit += 1
    s.recruits_here[area] = s.recruits_here.get(area, 0) + count
    if not major:
        s.recruited_allies.append(power)
    ctx.say(f"Player {side} recruits {count} {kind.replace('_', ' ')}(s) of {power} in {area} for {price} TP.")
    _recruit_next(ctx, side)


def recruitment_done(ctx: Ctx, side: str) -> None:
    st = ctx.state
    if st.to_move != side:
        raise Refused(f"Player {st.to_move} places now")
    st.sides[side].done = True
    _recruit_next(ctx, side)


def _recruit_next(ctx: Ctx, side: str) -> None:
    st = ctx.state
    if st.sides["A"].done and st.sides["B"].done:
        start_operations(ctx, "A")
        return
    if not st.sides[other(side)].done:
        st.to_move = other(side)


def start_operations(ctx: Ctx, side: str) -> None:
    st = ctx.state
    st.phase, st.to_move, st.force = f"operations {side}", side, None
    ctx.say(f"Player {side}'s Operations Phase.")


def end_operations(ctx: Ctx, side: str) -> None:
    st = ctx.state
    if st.force is not None:
        from engine.mediterranean_empires.operations import end

        end(ctx)
    if side == "A":
        start_operations(ctx, "B")
        return
    st.phase, st.to_move = "end of turn", "A"
    for s in st.sides.values():
        s.done = False
    ctx.say("The End of Turn Phase: redistribute units, then say 'done'.")


def redistribute(ctx: Ctx, side: str, uid: int, to: str) -> None:
    """5.2: between areas (land or sea) under the side's total control, once per unit, no OPs."""
    st = ctx.state
    u = st.units.get(uid)
    if st.phase != "end of turn":
        raise Refused("redistribution happens in the End of Turn Phase")
    if st.sides[side].done:
        raise Refused("you have said 'done' for this End of Turn Phase: your redistribution is over")
    if u is None or control.side_of_power(st, u.power) != side:
        raise Refused("that unit is not yours")
    if (u.kind == "fleet") != (to in ctx.rules.map.seas):
        raise Refused("fleets go to sea areas, land units to land areas")
    if not (_total(ctx, side, u.area) and _total(ctx, side, to)):
        raise Refused(f"units move between areas in your total control only; {u.area} or {to} is not")
    if u.combats < 0:
        raise Refused("that unit has already been redistributed this phase")
    u.area, u.combats = to, -1  # -1 marks 'redistributed' until the turn ends
    ctx.say(f"Player {side} redistributes a {u.kind.replace('_', ' ')} of {u.power} to {to}.")


def _total(ctx: Ctx, side: str, area: str) -> bool:
    if area in ctx.rules.map.lands:
        return control.controller(ctx.state, area) == side
    # A sea is in a side's total control when only its fleets are there (at least one).
    here = {control.side_of_power(ctx.state, u.power) for u in ctx.state.units_in(area)}
    return here == {side}


def over_stacked(ctx: Ctx, side: str) -> list[str]:
    """5.2: at most 3 units (5 with a city) per area at the end of the phase; Kings do not count."""
    st, out = ctx.state, []
    for area in ctx.rules.map.areas:
        n = sum(1 for u in st.units_in(area) if control.side_of_power(st, u.power) == side)
        land = ctx.rules.map.lands.get(area)
        limit = ctx.rules.stack_with_city if land and land.city else ctx.rules.stack_without_city
        if n > limit:
            out.append(f"{area} ({n}, limit {limit})")
    return out


def end_of_turn_done(ctx: Ctx, side: str) -> None:
    st = ctx.state
    if st.phase != "end of turn":
        raise Refused("'done' ends your redistribution in the End of Turn Phase")
    if st.sides[side].done:
        raise Refused(f"you have already said 'done'; the turn ends when Player {other(side)} does")
    over = over_stacked(ctx, side)
    if over:
        raise Refused("too many units at the end of the turn (5.2): " + ", ".join(over) + "; redistribute first")
    st.sides[side].done = True
    # Both redistribute in the same window (5.2 read without the 1d6 order); the one not done yet is asked next.
    st.to_move = other(side)
    if st.sides["A"].done and st.sides["B"].done:
        close_turn(ctx)


def close_turn(ctx: Ctx) -> None:
    """5.1 End of Turn: Kings' deaths (5-6), the Pope's (6), markers back to the pool, next turn or victory."""
    st = ctx.state
    for power, king in sorted(st.kings.items()):
        if king.area is not None and ctx.die(f"t{st.turn}.death.{power}") >= 5:
            king.area, king.died_turn = None, st.turn
            ctx.say(f"The King of {power} dies of disease or old age.")
    if st.pope_holder is not None and ctx.die(f"t{st.turn}.pope") >= 6:
        ctx.say("The Pope dies.")
        if st.pope is not None:
            st.pope = None
            hand.to_pool(st, POPE)
    for side, marker in st.played:
        hand.to_pool(st, marker)
    st.played = []
    st.plague = False
    for u in st.units.values():
        u.done, u.combats = False, 0
    for s in st.sides.values():
        s.attempts_left = ["alliance", "vassalage", "rebellion"]
        s.pope_used, s.done = False, False
    for king in st.kings.values():
        king.diplomacy_used = False
    if st.turn >= ctx.rules.turns:
        st.vp = {s: control.victory_points(ctx.rules, st, s) for s in ("A", "B")}
        st.winner = control.winner(ctx.rules, st.vp["A"], st.vp["B"])
        st.phase = "over"
        ctx.say(f"The game ends: Player A {st.vp['A']} VP, Player B {st.vp['B']} VP: " +
                ("a draw." if st.winner == "draw" else f"Player {st.winner} wins."))
        return
    st.turn += 1
    st.phase, st.to_move, st.drawn_this_phase = "stratagems", "A", {}
    ctx.say(f"Game turn {st.turn} ({ctx.rules.year_span(st.turn)}) begins: draw stratagem markers.")
