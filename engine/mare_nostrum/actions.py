"""Players' orders: each checked against the rules and the state, then carried out.

Every check raises a Rejection whose message names the reason and, where it can, what would be right.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.events import Rejection
from engine.mare_nostrum import naval
from engine.mare_nostrum.battles import announce
from engine.mare_nostrum.context import Ctx
from engine.mare_nostrum.orders import (
    Alliance, Amphibious, Attack, Build, EventChoice, GrainDistribution, NavalBattle, Order, Pass, PeaceTreaty,
    RaiseFleet,
)
from engine.mare_nostrum.slots import bind
from engine.mare_nostrum.state import Battle
from engine.mare_nostrum.turn import end_player_turn


def carry_out(ctx: Ctx, nation: str, order: Order) -> None:
    state = ctx.state
    if state.phase == "over":
        raise Rejection(f"the campaign is over: the {state.winner} won")
    ns = state.nations.get(nation)
    if ns is None:
        raise Rejection(f"there is no nation called '{nation}' in this campaign")
    if not ns.alive:
        raise Rejection(f"the {nation} are out of the game ({ns.fate})")
    if state.locked is not None and ctx.event.actor != state.gm:
        raise Rejection(f"orders are locked by the GM ({state.locked}); they reopen with /gm unlock")
    if isinstance(order, EventChoice):
        _event_choice(ctx, nation, order)
        return
    if state.phase != "orders":
        raise Rejection(_not_orders_phase(ctx))
    acting = state.acting()
    if acting != nation:
        if ns.passed:
            raise Rejection(f"the {nation} have already ended their turn; the {acting} are playing now")
        raise Rejection(f"it is not your turn: the {acting} ({ctx.player_of(acting)}) are playing now")
    if isinstance(order, Pass):
        end_player_turn(ctx, nation)
        return
    if ns.actions <= 0:
        raise Rejection(f"the {nation} have no actions left this turn")
    handler = HANDLERS[type(order)]
    handler(ctx, nation, order)
    ns.actions -= 1
    if ns.actions == 0:
        ctx.say(f"That was the last action of the {nation}.")
        end_player_turn(ctx, nation)
    else:
        ctx.say(f"The {nation} have {ns.actions} action(s) left.")


def _not_orders_phase(ctx: Ctx) -> str:
    phase = ctx.state.phase
    if phase == "setup":
        return "the campaign has not started: the GM opens the first turn (/turn open <date>)"
    if phase == "awaiting_draw":
        return f"turn {ctx.state.turn} waits for the lottery draw of {ctx.state.turn_draw}; orders open after it"
    if phase == "battles":
        return f"every nation has declared for turn {ctx.state.turn}; orders are closed until the next turn"
    return f"turn {ctx.state.turn} is closed; orders open with the next turn"


# --- shared checks -------------------------------------------------------------------------------------------------

def _own(ctx: Ctx, nation: str, province: str, use: str) -> None:
    owner = ctx.state.provinces[province].owner
    if owner == nation:
        return
    whose = f"the {owner}" if owner else "independent"
    mine = ", ".join(ctx.state.owned(nation)) or "none"
    raise Rejection(f"{province} is not yours ({'it belongs to ' + whose if owner else 'it is independent'}): you can {use} only in your provinces ({mine})")


def _not_assailed(ctx: Ctx, province: str, use: str) -> None:
    if province in ctx.state.attacked:
        raise Rejection(f"{province} is under attack this turn and cannot be used {use}")


def _target(ctx: Ctx, nation: str, province: str) -> str | None:
    """Checks common to every attack on a province; returns the defender (None: independent)."""
    state = ctx.state
    owner = state.provinces[province].owner
    if owner == nation:
        raise Rejection(f"{province} is already yours")
    if province in state.attacked:
        by = next((b.attacker for b in state.battles if b.province == province), "another player")
        raise Rejection(f"{province} was already attacked this turn (by the {by}); a province can be attacked once a turn")
    if owner is not None:
        _peace(ctx, nation, owner)
        prov = ctx.rules.map.provinces[province]
        if prov.is_capital and prov.nation == owner:
            home = [p.name for p in ctx.rules.map.provinces.values() if p.nation == owner and p.is_home and not p.is_capital]
            lost = [p for p in home if state.provinces[p].owner != owner]
            if len(lost) < 2:
                raise Rejection(
                    f"{province} is the capital of the {owner}: it can be attacked only once 2 of their other home "
                    f"provinces ({', '.join(home)}) are held by enemies; {len(lost)} is"
                )
    return owner


def _attackable(ctx: Ctx, nation: str, province: str) -> bool:
    """Whether ``nation`` could attack ``province`` now, by the checks every attack makes: a hint offers no more."""
    try:
        _target(ctx, nation, province)
    except Rejection:
        return False
    return True


def _peace(ctx: Ctx, nation: str, enemy: str) -> None:
    state = ctx.state
    if nation in state.nations[enemy].peace_with:
        raise Rejection(f"the {enemy} imposed a peace treaty on you this turn: you may not attack them")
    pending = [
        r for r in state.open_rolls()
        if r.purpose == "peace_treaty" and r.nation == enemy and r.target == nation and r.number is None
    ]
    if pending:
        r = pending[0]
        raise Rejection(
            f"the {enemy} offered you a peace treaty that is decided by {r.source()}; "
            "you may not attack them until it is known"
        )


def _new_battle(ctx: Ctx, nation: str, kind: str, province: str | None, defender: str | None, **extra: object) -> Battle:
    state, rules = ctx.state, ctx.rules
    defender_army = rules.nations[defender].army if defender else _independent_army(ctx, province)
    battle = Battle(
        id=state.new_id(), turn=state.turn, kind=kind, province=province, sea=extra.pop("sea", None),  # type: ignore[arg-type]  # Battle's fields
        attacker=nation, attacker_nation=nation, attacker_player=ctx.player_of(nation),
        attacker_army=str(extra.pop("army", rules.nations[nation].army)),
        defender=defender, defender_army=defender_army, **extra,  # type: ignore[arg-type]  # extra: only Battle's own fields
    )
    state.battles.append(battle)
    return battle


def _independent_army(ctx: Ctx, province: str | None) -> str:
    if province is None:
        return "pirates"
    held_by = ctx.state.provinces[province].held_by
    inv = ctx.rules.invader_named(held_by) if held_by else None
    return inv.army if inv else ctx.rules.independent_army(ctx.state.turn)


# --- the orders -------------------------------------------------------------------------------------------------------

def _build(ctx: Ctx, nation: str, order: Build) -> None:
    province, kind = order.province, order.building
    _own(ctx, nation, province, "build")
    _not_assailed(ctx, province, "for building")
    ps = ctx.state.provinces[province]
    pending = [p for k, p in ctx.state.nations[nation].pending_builds if k == kind]
    if getattr(ps, kind) or province in pending:
        raise Rejection(f"{province} already has {'a ' if kind != 'suburbs' else ''}{kind}")
    if kind == "temple" and not ps.suburbs:
        if province in [p for k, p in ctx.state.nations[nation].pending_builds if k == "suburbs"]:
            raise Rejection(f"a temple needs suburbs, and the suburbs of {province} are completed only when your turn ends: build the temple next turn")
        raise Rejection(f"a temple needs suburbs: build suburbs in {province} first")
    ctx.state.nations[nation].pending_builds.append([kind, province])
    ctx.say(f"The {nation} build {kind} in {province} (completed when their turn ends).")


def _raise_fleet(ctx: Ctx, nation: str, order: RaiseFleet) -> None:
    sea = order.sea
    shores = ctx.rules.map.shores.get(sea, frozenset())
    coast = [p for p in ctx.rules.map.provinces if p in shores and ctx.state.provinces[p].owner == nation]
    if not coast:
        seas = sorted({s for p in ctx.state.owned(nation) for s in ctx.rules.map.coasts.get(p, ())}, key=ctx.rules.map.sea_order)
        raise Rejection(f"you have no province on {sea}: you can raise fleets in {', '.join(seas) or 'no sea'}")
    if all(p in ctx.state.attacked for p in coast):
        raise Rejection(f"your provinces on {sea} ({', '.join(coast)}) are under attack this turn: no fleet can be raised there")
    have = naval.fleets(ctx, sea, nation)
    pending = sum(1 for k, p in ctx.state.nations[nation].pending_builds if k == "fleet" and p == sea)
    limit = ctx.rules.max_fleets_per_sea
    if have + pending >= limit:
        raise Rejection(f"you may have at most {limit} fleets in {sea}, and you have {have}{f' (+{pending} being raised)' if pending else ''}")
    ctx.state.nations[nation].pending_builds.append(["fleet", sea])
    ctx.say(f"The {nation} raise a fleet in {sea} (ready when their turn ends).")


def _peace_treaty(ctx: Ctx, nation: str, order: PeaceTreaty) -> None:
    state = ctx.state
    target = order.nation
    if target == nation:
        raise Rejection("a peace treaty is made with another nation")
    if target not in state.nations or not state.nations[target].alive:
        raise Rejection(f"the {target} are not in the game")
    later = state.order_of_play[state.current + 1:]
    if target not in later:
        choices = ", ".join(n for n in later if state.nations[n].alive) or "none"
        raise Rejection(f"a peace treaty can be imposed only on a nation that plays after you this turn ({choices})")
    if target in state.nations[nation].peace_with:
        raise Rejection(f"the {target} are already bound by your peace treaty this turn")
    low, high = ctx.rules.odds["peace_treaty"]
    ctx.say(f"The {nation} offer a peace treaty to the {target}.")
    bind(
        ctx, "peace_treaty", nation, f"{low}-{high}: the {target} may not attack the {nation} this turn; 1-{low - 1}: no treaty",
        target=target,
    )


def _alliance(ctx: Ctx, nation: str, order: Alliance) -> None:
    rules = ctx.rules
    inv = rules.invasions.get(order.province)
    if inv is None:
        options = ", ".join(f"the {i.invader} against {i.province}" for i in rules.invasions.values())
        raise Rejection(f"no invader force threatens {order.province}; alliances can be made with {options}")
    if inv.invader != order.invader:
        raise Rejection(f"the {order.invader} do not threaten {order.province}: there you can ally with the {inv.invader}")
    owner = ctx.state.provinces[order.province].owner
    if owner is None or owner == nation:
        raise Rejection(f"an alliance with the {inv.invader} attacks an enemy province, and {order.province} is {'yours' if owner == nation else 'independent'}")
    _target(ctx, nation, order.province)
    ctx.state.attacked.append(order.province)
    battle = _new_battle(ctx, nation, "alliance", order.province, owner, army=f"{inv.army} (the {inv.invader}, allied)", status="waiting_roll")
    low, high = rules.odds["alliance"]
    ctx.say(f"The {nation} seek an alliance with the {inv.invader} against {order.province} (battle #{battle.id} if it succeeds).")
    bind(ctx, "alliance", nation, f"{low}-{high}: the {inv.invader} join and attack {order.province}; 1-{low - 1}: refused", ref=battle.id)


def _grain(ctx: Ctx, nation: str, order: GrainDistribution) -> None:
    ns = ctx.state.nations[nation]
    before = ns.stability
    ns.stability = min(ctx.rules.max_stability, ns.stability + 2)
    ctx.say(f"The {nation} distribute grain: stability {before} -> {ns.stability}.")


def _attack(ctx: Ctx, nation: str, order: Attack) -> None:
    gm = ctx.rules.map
    if order.base == order.province:
        raise Rejection("a province cannot attack itself: attack <target> from <your province>")
    _own(ctx, nation, order.base, "attack from")
    _not_assailed(ctx, order.base, "as a base")
    if ctx.state.provinces[order.province].owner == nation:
        raise Rejection(f"{order.province} is already yours")
    if not gm.adjacent(order.base, order.province):
        options = [p for p in gm.land.get(order.base, ()) if _attackable(ctx, nation, p)]
        options.sort(key=gm.province_order)
        bases = [p for p in ctx.state.owned(nation) if gm.adjacent(p, order.province)]
        hint = f"; from {order.base} you can attack {', '.join(options)}" if options else f"; {order.base} borders no enemy province"
        hint2 = f"; {order.province} can be attacked from {', '.join(bases)}" if bases else ""
        raise Rejection(f"{order.province} is not adjacent to {order.base}{hint}{hint2}")
    defender = _target(ctx, nation, order.province)
    ctx.state.attacked.append(order.province)
    battle = _new_battle(ctx, nation, "land", order.province, defender, base=order.base)
    announce(ctx, battle)


def _naval_battle(ctx: Ctx, nation: str, order: NavalBattle) -> None:
    sea, enemy = order.sea, order.enemy
    mine = naval.fleets(ctx, sea, nation)
    if mine == 0:
        raise Rejection(f"you have no fleet in {sea}{' yet: fleets raised this turn are ready when your turn ends' if any(k == 'fleet' and p == sea for k, p in ctx.state.nations[nation].pending_builds) else ''}")
    if enemy == nation:
        raise Rejection("a naval battle is fought against another nation's fleet")
    theirs = naval.fleets(ctx, sea, enemy)
    if theirs == 0:
        present = [n for n, c in ctx.state.fleets.get(sea, {}).items() if c and n != nation]
        if sea in ctx.state.pirates:
            present.append(naval.PIRATES)
        raise Rejection(f"the {enemy} have no fleet in {sea}; enemy fleets there: {', '.join(present) or 'none'}")
    key = f"{sea}|{enemy}"
    if key in ctx.state.naval_attacked:
        raise Rejection(f"the {enemy} fleet in {sea} was already attacked this turn")
    if enemy != naval.PIRATES:
        _peace(ctx, nation, enemy)
    ctx.state.naval_attacked.append(key)
    battle = _new_battle(
        ctx, nation, "naval", None, None if enemy == naval.PIRATES else enemy, sea=sea,
        army="fleet", attacker_fleets=mine, defender_fleets=theirs, status="waiting_roll",
    )
    battle.defender_army = "fleet" if enemy != naval.PIRATES else "pirates"
    ctx.say(f"Naval battle #{battle.id} in {sea}: {mine} {nation} fleet(s) against {theirs} {enemy} fleet(s).")
    naval.declare(ctx, battle)


def _amphibious(ctx: Ctx, nation: str, order: Amphibious) -> None:
    gm = ctx.rules.map
    sea, province, base = order.sea, order.province, order.base
    _own(ctx, nation, base, "attack from")
    _not_assailed(ctx, base, "as a base")
    if not gm.faces(base, sea):
        raise Rejection(f"{base} does not face {sea}; it faces {', '.join(sorted(gm.coasts.get(base, ()), key=gm.sea_order)) or 'no sea'}")
    if not gm.faces(province, sea):
        raise Rejection(f"{province} does not face {sea}; it faces {', '.join(sorted(gm.coasts.get(province, ()), key=gm.sea_order)) or 'no sea'}")
    mine = naval.fleets(ctx, sea, nation)
    if mine == 0:
        raise Rejection(f"an amphibious attack needs one of your fleets in {sea}, and you have none there")
    defender = _target(ctx, nation, province)
    ctx.state.attacked.append(province)
    battle = _new_battle(ctx, nation, "amphibious", province, defender, sea=sea, base=base)
    enemies = naval.hostile_sides(ctx, sea, nation, defender)
    if enemies:
        naval.start_naval_phase(ctx, battle, enemies[0], "first")
    else:
        announce(ctx, battle)


def _event_choice(ctx: Ctx, nation: str, order: EventChoice) -> None:
    state = ctx.state
    ns = state.nations[nation]
    if state.phase not in ("orders", "battles"):
        raise Rejection(_not_orders_phase(ctx))
    label = order.event.replace("_", " ").title()
    if order.event not in ns.choices:
        raise Rejection(f"the {nation} have no {label} to use this turn (their event is {ns.event or 'none'})")
    ps = state.provinces[order.province]
    if order.event == "defensive_artworks":
        _own(ctx, nation, order.province, "raise defensive artworks")
        if any(b.province == order.province and b.status not in ("to_fight", "waiting_roll") for b in state.battles):
            raise Rejection(f"the battle for {order.province} is already fought")
        ns.defensive_artworks = order.province
        ctx.say(f"Defensive Artworks: {order.province} counts as fortified for the {nation} this turn.")
    else:
        building = "fortification" if order.event == "earthquake" else "temple"
        if ps.owner == nation:
            raise Rejection(f"{label} destroys an enemy {building}, and {order.province} is yours")
        if not getattr(ps, building):
            raise Rejection(f"{order.province} has no {building} to destroy")
        setattr(ps, building, False)
        ctx.say(f"{label}: the {building} of {order.province} is destroyed.")
    ns.choices.remove(order.event)


# Each order class to its handler, which takes that class (hence ``...``: a dict cannot say so of each entry).
HANDLERS: dict[type[Order], Callable[..., None]] = {
    Build: _build,
    RaiseFleet: _raise_fleet,
    PeaceTreaty: _peace_treaty,
    Alliance: _alliance,
    GrainDistribution: _grain,
    Attack: _attack,
    NavalBattle: _naval_battle,
    Amphibious: _amphibious,
}
