"""Operations (10.0-10.3, 11.0-11.4): forces, OPs, movement, interception, avoiding combat, naval transport."""
from __future__ import annotations

from engine.mediterranean_empires import combat, hand, interception, options
from engine.mediterranean_empires.combat import MILITARY_ADVANTAGE, Battle
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.control import area_power, controller, settle_control, side_of_power
from engine.mediterranean_empires.politics import activate
from engine.mediterranean_empires.rules_version import SEED_READINGS
from engine.mediterranean_empires.state import Force, Unit

MOVE, EXIT_ENEMY, ATTACK, AMPHIBIOUS, COASTAL_RAID = 1, 2, 2, 1, 1
INTERCEPT_CHOICES = ("intercept", "intercept with Military Advantage", "do not intercept")
AVOID_CHOICES = ("avoid combat", "fight")


def cost(ctx: Ctx, ops: int) -> int:
    """The OP Cost Table, doubled for both players in a plague turn (12.0)."""
    return ops * 2 if ctx.state.plague else ops


def force(ctx: Ctx) -> Force:
    if ctx.state.force is None:
        raise Rejection("no force is active: activate one first ('activate the French in Provence County')")
    return ctx.state.force


def spend(ctx: Ctx, ops: int, what: str) -> None:
    f = force(ctx)
    if f.ops < ops:
        raise Rejection(f"{what} costs {ops} OP(s) and the force has {f.ops} left")
    f.ops -= ops


def ops_roll(ctx: Ctx, side: str, king: int, markers: int, label: str) -> int:
    """10.0: 2d6 + the King's military value + one or two Military Advantage markers, at most 15."""
    if markers not in (0, 1, 2):
        raise Rejection("a force's OP roll takes at most two Military Advantage markers")
    # Each marker is revealed before the dice (hand.claim); the bot's fold refuses the order at once when the hand
    # holds fewer than that, not after the first marker's reveal.
    hand.check_held(ctx, side, (MILITARY_ADVANTAGE,), markers)
    for _ in range(markers):
        combat.spend_marker(ctx, side, MILITARY_ADVANTAGE)
    dice = ctx.dice(f"{label}.ops", 2, 6)
    total = min(ctx.rules.max_ops, sum(dice) + king + markers)
    ctx.say(f"OP roll {dice[0]}+{dice[1]}" + (f", King +{king}" if king else "") +
            (f", {markers} marker(s)" if markers else "") + f": {total} OPs.")
    return total


def activate_force(ctx: Ctx, side: str, area: str, ids: list[int], *, with_king: bool = True, markers: int = 0,
                   label: str = "force") -> Force:
    st = ctx.state
    if st.force is not None:
        raise Rejection("a force is still active: finish it first ('end')")
    units = [st.units[i] for i in ids if i in st.units]
    if not units or len(units) != len(ids):
        raise Rejection(f"no such units of yours in {area}")
    powers = {u.power for u in units}
    if len(powers) > 1:
        raise Rejection(f"a force is made of one power's units (10.0); this one mixes {', '.join(sorted(powers))}")
    power = next(iter(powers))
    if side_of_power(st, power) != side:
        raise Rejection(f"{power}'s units are not yours to command")
    if st.status.get(power) == "vassal":
        raise Rejection(f"{power} is a vassal: its units stay in its home areas (7.2)")
    for u in units:
        if u.area != area:
            raise Rejection(f"unit {u.id} is in {u.area}, not {area}")
        if u.done:
            raise Rejection(f"the {u.kind.replace('_', ' ')} of {power} in {area} has completed its operations this turn")
    naval = units[0].kind == "fleet"
    if any((u.kind == "fleet") != naval for u in units):
        raise Rejection("a force is either fleets or land units; land units travel with fleets by embarking (11.2)")
    king = st.kings.get(power)
    king_here = king is not None and king.area == area and with_king
    ops = ops_roll(ctx, side, king.military if king_here and king else 0, markers, label)
    st.force = Force(side, power, ids, area, ops, naval, king=power if king_here else None,
                     based=naval and _based(ctx, side, area), label=label, start=area)
    return st.force


def _based(ctx: Ctx, side: str, sea: str) -> bool:
    """11.1: a sea next to a friendly, totally controlled land area whose city lies on that sea."""
    amap = ctx.rules.map
    return any(sea in amap.port_seas(land) and controller(ctx.state, land) == side for land in amap.seas[sea].coast)


def _step_label(ctx: Ctx) -> str:
    f = force(ctx)
    f.steps += 1
    return f"{f.label}.s{f.steps}"


def enemies(ctx: Ctx, side: str, area: str, naval: bool) -> list[Unit]:
    return [u for u in ctx.state.units_in(area)
            if side_of_power(ctx.state, u.power) == other(side) and (u.kind == "fleet") == naval]


def move(ctx: Ctx, to: str) -> None:
    """10.1 / 11.1: one area; leaving enemy land units costs 2 more; interception on leaving and on entering."""
    st, amap = ctx.state, ctx.rules.map
    f = force(ctx)
    here = f.area
    if f.naval:
        if to not in amap.seas:
            raise Rejection(f"a fleet moves only to sea areas; {to} is land")
        if to not in amap.seas[here].links:
            raise Rejection(f"{to} does not open into {here}; from {here} a fleet may reach {', '.join(amap.seas[here].links)}")
        price = cost(ctx, MOVE)
    else:
        if to not in amap.lands:
            raise Rejection(f"land units enter only land areas; {to} is a sea (embark on a fleet to cross it)")
        if to not in amap.lands[here].borders:
            raise Rejection(f"{to} does not border {here}; from {here} a force may reach {', '.join(amap.lands[here].borders)}")
        price = cost(ctx, MOVE + (EXIT_ENEMY if enemies(ctx, f.side, here, False) else 0))
    spend(ctx, price, f"moving to {to}")
    label = _step_label(ctx)
    if not _intercept(ctx, here, exiting=True, label=f"{label}.out"):
        return
    for uid in f.ids + f.cargo:
        st.units[uid].area = to
    if f.king:
        st.kings[f.king].area = to
    f.area = to
    ctx.say(f"{f.power} force moves to {to} ({f.ops} OPs left).")
    if not f.naval:
        _invade(ctx, to)
    if not _intercept(ctx, to, exiting=False, label=f"{label}.in"):
        return
    if f.naval and not f.based and _based(ctx, f.side, to):
        f.based = True
    if not f.naval:
        settle_control(st)


def _invade(ctx: Ctx, area: str) -> None:
    """10.1: entering a neutral power's land area is an invasion; the neutral joins the other side at once."""
    st = ctx.state
    f = force(ctx)
    powers = {u.power for u in st.units_in(area) if st.status.get(u.power) in ("neutral", "vassal")}
    holder = area_power(st, area)
    if holder and st.status.get(holder) in ("neutral", "vassal"):
        powers.add(holder)
    for power in sorted(powers):
        if st.status[power] == "vassal" and st.side_of.get(power) == f.side:
            continue  # one's own vassal is not invaded
        ctx.say(f"Player {f.side} invades {power}'s {area}.")
        activate(ctx, power, other(f.side))


def _intercept(ctx: Ctx, area: str, *, exiting: bool, label: str) -> bool:
    """10.2: the non-phasing player may intercept with its units there; 1d6 + modifiers, 4-6 succeeds and it fights a
    field battle against the moving force. Returns whether the force still exists."""
    st = ctx.state
    f = force(ctx)
    blockers = enemies(ctx, f.side, area, f.naval)
    if not blockers:
        return True
    opp = other(f.side)
    if st.rules_version >= SEED_READINGS:
        declared = interception.declare(ctx, f, area, blockers, exiting=exiting, label=label)
        if declared is None:
            return True
        blockers, markers = [st.units[i] for i in declared.ids], declared.modifier
    else:
        answer = ctx.oracle.ask(ctx.seat(opp), f"{label}.intercept",
                                f"Intercept the {f.power} force {'leaving' if exiting else 'entering'} {area} with "
                                f"your {len(blockers)} unit(s) there?", INTERCEPT_CHOICES, "do not intercept",
                                {"area": area, "units": len(f.ids)})
        if answer == "do not intercept":
            return True
        # The marker is revealed before the die (a claim the bot's fold refuses when it is not held).
        markers = 1 if answer == "intercept with Military Advantage" else 0
        if markers:
            combat.spend_marker(ctx, opp, MILITARY_ADVANTAGE)
    roll = ctx.die(f"{label}.intercept")
    mod = (1 if exiting else 0) - (1 if len({u.power for u in blockers}) > 1 else 0)
    mod -= 1 if all(st.units[i].kind == "raider" for i in f.ids) else 0
    mod += markers
    if roll + mod < 4:
        ctx.say(f"Player {opp} tries to intercept in {area}: {roll}{mod:+d}, it fails.")
        return True
    ctx.say(f"Player {opp} intercepts in {area} ({roll}{mod:+d}).")
    battle = Battle(area, "field", opp, f.side, [u.id for u in blockers], list(f.ids), f"{label}.battle")
    combat.resolve(ctx, battle)
    f.ids = combat.alive(st, f.ids)
    f.cargo = combat.alive(st, f.cargo)
    if not f.ids:
        for i in f.cargo:  # land units on board sink with their fleets
            del st.units[i]
        ctx.say(f"The {f.power} force is destroyed.")
        st.force = None
        return False
    return True


def attack(ctx: Ctx) -> None:
    """10.3: attack every enemy unit in the area (2 OPs): avoid combat, initiative, table, resolution."""
    st = ctx.state
    f = force(ctx)
    if f.naval and not f.based:
        raise Rejection("this fleet must first reach a sea next to a friendly city (11.1) before anything else")
    if f.naval and f.cargo:
        raise Rejection("fleets carrying land units cannot fight (11.3): land them first")
    area, side, opp = f.area, f.side, other(f.side)
    targets = enemies(ctx, side, area, f.naval)
    if not targets:
        raise Rejection(f"there are no enemy {'fleets' if f.naval else 'land units'} in {area} to attack")
    spend(ctx, cost(ctx, ATTACK), "an attack")
    label = _step_label(ctx)
    attackers = list(f.ids)
    all_raiders = all(st.units[i].kind == "raider" for i in attackers)
    answer = ctx.oracle.ask(ctx.seat(opp), f"{label}.avoid", f"Player {side} attacks your {len(targets)} unit(s) in "
                            f"{area} with {len(attackers)}: try to avoid combat?", AVOID_CHOICES, "fight",
                            {"area": area, "defenders": len(targets), "attackers": len(attackers)})
    if answer == "avoid combat":
        roll = ctx.die(f"{label}.avoid")
        total = roll - (1 if all_raiders else 0) + combat.king_with(st, opp, area)
        if total >= 6:
            ctx.say(f"Player {opp} avoids combat in {area} ({total}).")
            return
        if total == 5:
            raiders = [i for i in attackers if st.units[i].kind == "raider"]
            if not raiders:
                ctx.say(f"Player {opp} avoids combat in {area} ({total}).")
                return
            go = ctx.oracle.ask(ctx.seat(side), f"{label}.raiders_only", f"Player {opp} avoids combat except with "
                                "raiders: attack with your raiders alone?", ("attack with raiders", "stop"),
                                "attack with raiders", {"area": area})
            if go != "attack with raiders":
                ctx.say(f"Player {opp} avoids combat in {area} ({total}).")
                return
            attackers = raiders
        else:
            ctx.say(f"Player {opp} fails to avoid combat in {area} ({total}).")
    table = "field"
    if not f.naval:
        holder = combat.initiative(ctx, area, side, opp, label)
        table = combat.choose_table(ctx, holder, attackers, label, area)
    battle = Battle(area, table, side, opp, attackers, [u.id for u in targets], label)
    combat.resolve(ctx, battle)
    f.ids = combat.alive(st, f.ids)
    if not f.ids:
        st.force = None


def drop(ctx: Ctx, ids: list[int]) -> None:
    """10.1: a force may drop off units; they have completed their action."""
    f = force(ctx)
    for i in ids:
        if i not in f.ids:
            raise Rejection("only units of the active force can be dropped off")
        f.ids.remove(i)
        ctx.state.units[i].done = True
    if not f.ids:
        end(ctx)


def pick_up(ctx: Ctx, area: str, ids: list[int]) -> None:
    """10.1 (rules version 2): a land force picks up friendly units not yet activated where it stands, at no OP cost;
    not in its initial area once the OP roll is made (10.0). A force is of one power (10.0 1): the units must be."""
    st, f = ctx.state, force(ctx)
    if area != f.area:
        raise Rejection(f"a land force picks up units where it stands ({f.area}), not in {area}")
    if area == f.start:
        raise Rejection(f"no units join the force in {area}, its initial area, once its OP roll is made (10.0)")
    if not ids:
        raise Rejection(f"no ready land unit of {f.power} in {area} to pick up (a force is of one power, 10.0)")
    for i in ids:
        u = st.units.get(i)
        if u is None or u.area != area or u.kind == "fleet" or u.done or u.power != f.power or i in f.ids:
            raise Rejection(f"unit {i} is not a ready land unit of {f.power} in {area}")
        f.ids.append(i)
    ctx.say(f"The {f.power} force picks up {len(ids)} unit(s) in {area} ({f.ops} OPs left).")


def embark(ctx: Ctx, land: str, ids: list[int]) -> None:
    """11.2: a fleet picks up friendly land units (any power) from an adjacent land not under enemy total control;
    two per fleet, and any number of Kings."""
    st, f = ctx.state, force(ctx)
    if not f.naval:
        raise Rejection("only a fleet force embarks land units")
    if not f.based:
        raise Rejection("this fleet must first reach a sea next to a friendly city (11.1) before embarking")
    if not ctx.rules.map.touches(land, f.area):
        raise Rejection(f"{land} does not touch {f.area}")
    if controller(st, land) == other(f.side):
        raise Rejection(f"{land} is under enemy total control: no embarking there")
    if len(f.cargo) + len(ids) > 2 * len(f.ids):
        raise Rejection(f"{len(f.ids)} fleet(s) carry at most {2 * len(f.ids)} land units")
    for i in ids:
        u = st.units.get(i)
        if u is None or u.area != land or u.kind == "fleet" or u.done or side_of_power(st, u.power) != f.side:
            raise Rejection(f"unit {i} is not a ready land unit of yours in {land}")
        u.area = f.area
        f.cargo.append(i)
    ctx.say(f"The fleet embarks {len(ids)} unit(s) from {land}.")


def debark(ctx: Ctx, land: str, *, then: str = "done") -> None:
    """11.2: land the cargo in an adjacent land area. Into an enemy totally controlled area it is an amphibious
    landing: 1 OP, the fleet's action ends, and the landed units act at once."""
    st, f = ctx.state, force(ctx)
    if not f.cargo:
        raise Rejection("the fleet carries no land units")
    if not ctx.rules.map.touches(land, f.area):
        raise Rejection(f"{land} does not touch {f.area}")
    amphibious = controller(st, land) == other(f.side)
    if amphibious:
        spend(ctx, cost(ctx, AMPHIBIOUS), "an amphibious landing")
    cargo = list(f.cargo)
    for i in cargo:
        st.units[i].area = land
    f.cargo = []
    _invade_landing(ctx, land, f.side)
    ctx.say(f"{len(cargo)} unit(s) land in {land}" + (" (amphibious landing)." if amphibious else "."))
    if amphibious:
        side, label = f.side, f.label
        for i in f.ids:
            st.units[i].done = True
        st.force = None
        powers = {st.units[i].power for i in cargo}
        # The landed units act at once (11.2 3): one force per power, the first now; the rest are marked done.
        first = sorted(powers)[0]
        for i in cargo:
            if st.units[i].power != first:
                st.units[i].done = True
        activate_force(ctx, side, land, [i for i in cargo if st.units[i].power == first], label=f"{label}.landed")
    else:
        for i in cargo:
            st.units[i].done = True
    settle_control(st)


def _invade_landing(ctx: Ctx, land: str, side: str) -> None:
    st = ctx.state
    holder = area_power(st, land)
    powers = {u.power for u in st.units_in(land) if st.status.get(u.power) == "neutral"}
    if holder and st.status.get(holder) == "neutral":
        powers.add(holder)
    for power in sorted(powers):
        activate(ctx, power, other(side))


def coastal_raid(ctx: Ctx, land: str) -> None:
    """11.4 (with optional rule 14.1, which the seed calls 11.1): an Aragonese fleet carrying mercenaries spends 1 OP;
    a mercenary lands; enemy units there may intercept it; otherwise 4-6 earns 1 TP; it re-embarks."""
    st, f = ctx.state, force(ctx)
    if not options.on(st, options.MERCENARIES):
        raise Rejection("coastal raids come with optional rule 14.1 (mercenaries, 11.4), which this campaign does not use")
    if f.power != "Aragon" or not f.naval:
        raise Rejection("coastal raids are made by Aragonese fleets (11.4)")
    mercs = [i for i in f.cargo if st.units[i].kind == "mercenary"]
    if not mercs:
        raise Rejection("a coastal raid needs a mercenary unit on board (11.4)")
    if not ctx.rules.map.touches(land, f.area):
        raise Rejection(f"{land} does not touch {f.area}")
    if controller(st, land) != other(f.side):
        raise Rejection(f"coastal raids strike enemy-controlled areas; {land} is not one")
    spend(ctx, cost(ctx, COASTAL_RAID), "a coastal raid")
    label = _step_label(ctx)
    merc = mercs[0]
    st.units[merc].area = land
    blockers = enemies(ctx, f.side, land, False)
    if blockers:
        opp = other(f.side)
        answer = ctx.oracle.ask(ctx.seat(opp), f"{label}.intercept", f"Intercept the Aragonese raiders landing in {land}?",
                                INTERCEPT_CHOICES, "do not intercept", {"area": land, "units": 1})
        if answer != "do not intercept":
            roll = ctx.die(f"{label}.intercept")
            if roll >= 4:
                combat.resolve(ctx, Battle(land, "field", opp, f.side, [u.id for u in blockers], [merc], f"{label}.battle"))
    if merc in st.units:
        if ctx.die(f"{label}.raid") >= 4:
            from engine.mediterranean_empires.control import add_treasury

            gained = add_treasury(ctx.rules, st, f.side, 1)
            ctx.say(f"The coastal raid on {land} brings {gained} TP.")
        else:
            ctx.say(f"The coastal raid on {land} brings nothing.")
        st.units[merc].area = f.area
    else:
        f.cargo.remove(merc)


def end(ctx: Ctx) -> None:
    st, f = ctx.state, force(ctx)
    if f.cargo:
        raise Rejection("land the units on board first: they cannot stay on the fleet (11.2)")
    for i in f.ids:
        if i in st.units:
            st.units[i].done = True
    st.force = None
    settle_control(st)
