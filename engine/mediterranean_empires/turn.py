"""The turn sequence (5.1): stratagem draws, politics, recruitment, the two Operations Phases, the end of turn."""
from __future__ import annotations

from engine.mediterranean_empires import combat, control, crusaders, hand, options, placement
from engine.mediterranean_empires.crusaders import OWED
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.rules_version import SEED_READINGS
from engine.mediterranean_empires.state import State, Unit

PLAGUE, POPE, CRUSADE, GOLD, TRADE, PIRACY = "Plague", "The Pope", "Crusade", "Gold", "Trade Concession", "Piracy"
ROME = "Papal States"  # the area of Rome, where the Pope sits
# Markers that stay face up once played and go back to the pool in the End of Turn Phase (12.0).
END_OF_TURN_RETURN = (GOLD, TRADE, PIRACY, PLAGUE, CRUSADE)


def draw(ctx: Ctx, side: str) -> None:
    """9.0: one random pick from the pool, drawn under seal (hand.py); the Plague, the Pope and the Crusade are
    shown at once and act."""
    st = ctx.state
    if st.phase != "stratagems" or st.to_move != side:
        raise Rejection(f"it is not your pick: Player {st.to_move} draws now")
    marker = combat.draw_marker(ctx, side, f"t{st.turn}.draw.{side}{st.drawn_this_phase.get(side, 0) + 1}", shows=True)
    st.drawn_this_phase[side] = st.drawn_this_phase.get(side, 0) + 1
    if marker == PLAGUE:
        st.played.append([side, PLAGUE])
        roll = ctx.die(f"t{st.turn}.plague")
        st.plague = roll <= 3
        ctx.say(f"Player {side} reveals the Plague: {roll}, " + ("plague strikes: every OP cost is doubled this turn."
                                                                   if st.plague else "the plague passes by."))
    elif marker == POPE:
        if control.controller(st, ROME) == side:
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
    Land, chosen by the player (default: the first fleet, then mercenaries, levies, field armies); they come back in
    a later Recruitment Phase (``crusaders.due``). Without a fleet on the map, the first unit bought in this game
    turn's Recruitment Phase must be a fleet, and it sails to join them."""
    st = ctx.state
    fleet = _send_crusader(ctx, side, ("fleet",), "which fleet do you send to the Holy Land?", "crusade.fleet")
    sent = fleet
    for n in (1, 2):
        sent += _send_crusader(ctx, side, tuple(CRUSADER_ORDER), f"which unit (not raiders) do you send to the Holy "
                               f"Land ({n} of 2)?", f"crusade.unit{n}")
    if not fleet:
        st.sides[side].set_aside.append([OWED, "fleet", st.turn])
    ctx.say(f"The Pope calls a Crusade: Player {side} sends {sent} unit(s) to the Holy Land.")


CRUSADER_ORDER = {"mercenary": 0, "levy": 1, "field_army": 2}  # the default picks, cheapest first (14.1: mercenaries)


def crusader_word(unit: Unit) -> str:
    return f"{combat.unit_word(unit)} in {unit.area}"


def _send_crusader(ctx: Ctx, side: str, kinds: tuple[str, ...], question: str, label: str) -> int:
    """One unit of ``kinds`` set aside for the Crusade, the player's pick. Returns 1, or 0 if there is none."""
    st = ctx.state
    mine = sorted((u for u in st.units.values() if control.side_of_power(st, u.power) == side and u.kind in kinds),
                  key=lambda u: (CRUSADER_ORDER.get(u.kind, 0), u.id))
    if not mine:
        return 0
    words = list(dict.fromkeys(crusader_word(u) for u in mine))
    pick = mine[0]
    if len(words) > 1:
        answer = ctx.oracle.ask(ctx.seat(side), f"{label}.crusader", f"The Crusade: {question}", tuple(words), words[0],
                                {"default": words[0]})
        pick = next((u for u in mine if crusader_word(u).lower() == str(answer).lower()), mine[0])
    st.sides[side].set_aside.append([pick.power, pick.kind, st.turn])
    del st.units[pick.id]
    ctx.say(f"Player {side} sends a {crusader_word(pick)} to the Holy Land.")
    return 1


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
        st.sides[side].gained = gained
    for power, king in st.kings.items():
        if king.area is None and king.died_turn is not None and king.died_turn < st.turn:
            new_king(ctx, power)
    for side in ("A", "B"):
        crusaders.announce(ctx, side)
    a, b = ctx.die(f"t{st.turn}.recruit.A"), ctx.die(f"t{st.turn}.recruit.B")
    winner = "A" if a >= b else "B"
    high, low = (a, b) if winner == "A" else (b, a)
    choice = ctx.oracle.ask(ctx.seat(winner), f"t{st.turn}.recruit_order", f"You won the recruitment roll ({high} to {low}): "
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
    # The player's choice of area (rules version 2 asks him); by default the one with most of the power's units
    # (then map order).
    area = max(areas, key=lambda a: sum(1 for u in st.units_in(a) if u.power == power))
    if st.rules_version >= SEED_READINGS and len(areas) > 1:
        area = ctx.oracle.ask(ctx.seat(str(side)), f"t{st.turn}.{power}.king_area",
                              f"Where is the new King of {power} (+{dip} +{mil}) placed?",
                              (area, *[a for a in areas if a != area]), area, mode="turn")
    st.kings[power] = type(old)(power, dip, mil, area)
    ctx.say(f"A new King of {power} (+{dip} +{mil}) is crowned in {area}.")


def recruit(ctx: Ctx, side: str, power: str, kind: str, area: str, count: int = 1) -> None:
    """6.2: pay, take from the pool, place in a friendly totally controlled area (fleets: a sea by a friendly city)."""
    st, rules = ctx.state, ctx.rules
    s = st.sides[side]
    if st.phase != "recruitment":
        raise Rejection("units are recruited in the Joint Recruitment Phase only")
    if st.to_move != side:
        raise Rejection(f"Player {st.to_move} places now; you follow")
    if control.side_of_power(st, power) != side:
        raise Rejection(f"{power} is not your power nor your ally")
    major = st.status[power] == "major"
    if kind == "levy" and count > 2 or kind != "levy" and count != 1:
        raise Rejection("one unit at a time, or two levies (5.1)")
    if not major:
        home = rules.powers[power].home
        if not any(control.controller(st, h) == side for h in home):
            raise Rejection(f"{power}'s home area is not under your total control: you cannot recruit its units (6.2)")
        if power in s.recruited_allies:
            raise Rejection(f"one unit per allied power per turn, and you have recruited {power}'s already")
    owed = crusaders.owed_fleet(ctx, side)
    if owed is not None and kind != "fleet":
        raise Rejection("the Crusade took no fleet of yours: the first unit you buy this phase must be a fleet (12.0), "
                      "and it sails to the Holy Land")
    available = rules.powers[power].counters.get(kind, 0) - sum(
        1 for u in st.units.values() if u.power == power and u.kind == kind) - crusaders.set_aside_count(ctx, power, kind)
    if available < count:
        raise Rejection(f"{power} has {available} {kind.replace('_', ' ')} counter(s) left in its pool")
    wrong = placement.refusal(ctx, side, power, kind, area)
    if wrong:
        raise Rejection(wrong)
    if s.recruits_here.get(area, 0) + count > rules.max_recruits_per_area:
        raise Rejection(f"at most {rules.max_recruits_per_area} units recruited in one area")
    halves = rules.cost_halves[kind] * count
    price = (halves + 1) // 2
    if s.treasury < price:
        raise Rejection(f"that costs {price} TP and your treasury holds {s.treasury}")
    s.treasury -= price
    if owed is not None:
        # The fleet the Crusade asked for: bought, and sent to the Holy Land with the others (it comes back with them).
        s.set_aside.remove(owed)
        s.set_aside.append([power, kind, st.turn])
        s.recruits_here[area] = s.recruits_here.get(area, 0) + count
        ctx.say(f"Player {side} recruits a fleet of {power} for {price} TP: it sails for the Crusade.")
        _recruit_next(ctx, side)
        return
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
        raise Rejection(f"Player {st.to_move} places now")
    crusaders.bring_back_rest(ctx, side)
    st.sides[side].set_aside = [e for e in st.sides[side].set_aside if e[0] != OWED]
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
    # 5.2: 1d6 each, Player A wins ties; the winner redistributes first or second, then the players alternate.
    a, b = ctx.die(f"t{st.turn}.redistribute.A"), ctx.die(f"t{st.turn}.redistribute.B")
    winner = "A" if a >= b else "B"
    high, low = (a, b) if winner == "A" else (b, a)
    choice = ctx.oracle.ask(ctx.seat(winner), f"t{st.turn}.redistribute_order", f"You won the redistribution roll "
                            f"({high} to {low}): redistribute first or second?", ("first", "second"), "first", mode="turn")
    st.to_move = winner if choice == "first" else other(winner)
    ctx.say(f"The End of Turn Phase: Player {st.to_move} redistributes first (one unit, or two levies, at a time), "
            "then the players alternate until each says 'done'.")


def redistribute(ctx: Ctx, side: str, uid: int, to: str) -> None:
    """5.2: between areas (land or sea) under the side's total control, once per unit, no OPs."""
    st = ctx.state
    u = st.units.get(uid)
    if st.phase != "end of turn":
        raise Rejection("redistribution happens in the End of Turn Phase")
    if st.sides[side].done:
        raise Rejection("you have said 'done' for this End of Turn Phase: your redistribution is over")
    if st.to_move != side:
        raise Rejection(f"Player {st.to_move} redistributes now; you follow")
    if u is None or control.side_of_power(st, u.power) != side:
        raise Rejection("that unit is not yours")
    if (u.kind == "fleet") != (to in ctx.rules.map.seas):
        raise Rejection("fleets go to sea areas, land units to land areas")
    if not (_total(ctx, side, u.area) and _total(ctx, side, to)):
        raise Rejection(f"units move between areas in your total control only; {u.area} or {to} is not")
    if u.redistributed:
        raise Rejection("that unit has already been redistributed this phase")
    u.area, u.redistributed = to, True
    ctx.say(f"Player {side} redistributes a {u.kind.replace('_', ' ')} of {u.power} to {to}.")


def redistributed(ctx: Ctx, side: str) -> None:
    """After one unit (or two levies) is redistributed, the other player's move, unless it has said 'done'."""
    if not ctx.state.sides[other(side)].done:
        ctx.state.to_move = other(side)


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
        raise Rejection("'done' ends your redistribution in the End of Turn Phase")
    if st.sides[side].done:
        raise Rejection(f"you have already said 'done'; the turn ends when Player {other(side)} does")
    over = over_stacked(ctx, side)
    if over:
        raise Rejection("too many units at the end of the turn (5.2): " + ", ".join(over) + "; redistribute first")
    if st.to_move != side:
        raise Rejection(f"Player {st.to_move} redistributes now; say 'done' when your move comes")
    st.sides[side].done = True
    st.to_move = other(side)  # the other player goes on alone until it says 'done' too
    if st.sides["A"].done and st.sides["B"].done:
        close_turn(ctx)


def close_turn(ctx: Ctx) -> None:
    """5.1 End of Turn: Kings' deaths (5-6), the Pope's (6), markers back to the pool, next turn or victory."""
    st = ctx.state
    if options.on(st, options.MERCENARIES):
        mutiny(ctx)
    for power, king in sorted(st.kings.items()):
        if king.area is not None and ctx.die(f"t{st.turn}.death.{power}") >= 5:
            king.area, king.died_turn = None, st.turn
            ctx.say(f"The King of {power} dies of disease or old age.")
    poisoned = poison(ctx) if options.on(st, options.POISON) else 0
    if st.pope_holder is not None and ctx.die(f"t{st.turn}.pope") + poisoned >= 6:
        ctx.say("The Pope dies.")
        if st.pope is not None:
            st.pope = None
            hand.to_pool(st, POPE)
    for side, marker in st.played:
        hand.to_pool(st, marker)
    st.played = []
    st.plague = False
    for u in st.units.values():
        u.done, u.combats, u.redistributed = False, 0, False
    for s in st.sides.values():
        s.attempts_left = ["alliance", "vassalage", "rebellion"]
        s.pope_used, s.done = False, False
    for king in st.kings.values():
        king.diplomacy_used = False
    if st.turn >= options.last_turn(ctx.rules, st) and options.scenario(ctx.rules, st) is not None:
        vespers_victory(ctx)
        return
    if st.turn >= ctx.rules.turns:
        st.vp = {s: control.victory_points(ctx.rules, st, s) for s in ("A", "B")}
        st.winner = control.winner(ctx.rules, st.vp["A"], st.vp["B"])
        st.phase = "over"
        ctx.say(f"The game ends: Player A {st.vp['A']} VP, Player B {st.vp['B']} VP: " +
                ("a draw." if st.winner == "draw" else f"Player {st.winner} wins."))
        return
    st.turn += 1
    st.phase, st.to_move, st.drawn_this_phase = "stratagems", "A", {}
    ctx.say(f"Game turn {st.turn} ({options.years(ctx.rules, st)}) begins: draw stratagem markers.")


def mutiny(ctx: Ctx) -> None:
    """14.1: 1d6 for each mercenary unit that fought no combat this game turn; 1-4, it mutinies: removed from the
    map, and the side it served loses 1 TP."""
    st = ctx.state
    for u in sorted((u for u in st.units.values() if u.kind == "mercenary" and u.combats == 0), key=lambda u: u.id):
        roll = ctx.die(f"t{st.turn}.mutiny.{u.id}")
        if roll > 4:
            ctx.say(f"The idle mercenaries of {u.power} in {u.area} stay loyal ({roll}).")
            continue
        side = control.side_of_power(st, u.power)
        del st.units[u.id]
        lost = -control.add_treasury(ctx.rules, st, side, -1) if side else 0
        ctx.say(f"The idle mercenaries of {u.power} in {u.area} mutiny ({roll}): they run amok and leave the map"
                + (f"; Player {side} loses {lost} TP." if side else "."))


def poison(ctx: Ctx) -> int:
    """14.2: with the other side's Pope in Rome, a player may spend 1 TP (one at most) for +1 on the death roll."""
    st = ctx.state
    if st.pope is None or st.pope_holder is None:
        return 0
    poisoner = other(st.pope)
    if st.sides[poisoner].treasury < 1:
        return 0
    answer = ctx.oracle.ask(ctx.seat(poisoner), f"t{st.turn}.poison", f"The Pope of Player {st.pope} sits in Rome: "
                            "spend 1 TP to poison him (+1 on the roll for his death, 14.2)?", ("poison the Pope", "no"),
                            "no", {})
    if answer != "poison the Pope":
        return 0
    st.sides[poisoner].treasury -= 1
    ctx.say(f"Player {poisoner} spends 1 TP on poison (+1 on the roll for the Pope's death).")
    return 1


def vespers_victory(ctx: Ctx) -> None:
    """13.0: Aragon wins if it totally controls Sicily (both areas) and Malta, and Player A totally controls none of
    Upper Aragon, Rosselló, the Catalan counties and Urgell; any other result is a French/Angevin victory."""
    st = ctx.state
    sc = options.scenario(ctx.rules, st)
    assert sc is not None
    missing = [a for a in sc.hold if control.controller(st, a) != "B"]
    taken = [a for a in sc.keep if control.controller(st, a) == "A"]
    st.winner = "B" if not missing and not taken else "A"
    st.vp = {}
    st.phase = "over"
    why = ("Aragon holds " + ", ".join(sc.hold) + " and has lost none of " + ", ".join(sc.keep)) if st.winner == "B" \
        else "; ".join(x for x in ((f"Aragon does not hold {', '.join(missing)}" if missing else ""),
                                   (f"Player A has taken {', '.join(taken)}" if taken else "")) if x)
    ctx.say(f"The War of the Sicilian Vespers ends: {why}. Player {st.winner} wins.")


def pope_leaves(st: State) -> str | None:
    """The Pope leaves Rome once his player no longer has total control of the Papal States (12.0, "The Pope":
    "remains in Rome until either the player does not have total control of Rome, or the Pope dies ... at any
    time"); the marker returns to the pool. The last holder still rolls for his death (8.2)."""
    if st.pope is None or control.controller(st, ROME) == st.pope:
        return None
    side, st.pope = st.pope, None
    hand.to_pool(st, POPE)
    return (f"Player {side} no longer has total control of Rome ({ROME}): the Pope leaves, and his marker returns "
            "to the pool.")
