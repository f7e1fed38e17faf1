"""Naval battles, decided by lottery numbers: between nations, against pirates, and before a landing."""
from __future__ import annotations

from engine.mare_nostrum.context import Ctx
from engine.mare_nostrum.slots import bind
from engine.mare_nostrum.state import Battle, Roll

PIRATES = "Pirates"


def fleets(ctx: Ctx, sea: str, side: str) -> int:
    if side == PIRATES:
        return 1 if sea in ctx.state.pirates else 0
    return ctx.state.fleets.get(sea, {}).get(side, 0)


def lose_fleets(ctx: Ctx, sea: str, side: str, count: int) -> None:
    if side == PIRATES:
        if sea in ctx.state.pirates:
            ctx.state.pirates.remove(sea)
        return
    counts = ctx.state.fleets.setdefault(sea, {})
    left = max(0, counts.get(side, 0) - count)
    if left:
        counts[side] = left
    else:
        counts.pop(side, None)


def hostile_sides(ctx: Ctx, sea: str, nation: str, defender: str | None) -> list[str]:
    """Every side with ships in `sea` that a landing by `nation` must sink first, in the order they fight.

    The seed: "If there is an enemy fleet in that sea quadrant a naval battle will take place and only if the attacker
    destroy the opponent's fleet the subsequent land attack will be possible". Every other nation is the attacker's
    enemy (the seed calls all of them "enemies"), and pirates attack every fleet, so any fleet that is not the
    attacker's stands in the way: the defender's first, then the other nations' in the seed's order, then pirates."""
    others = [n for n in ctx.rules.nations if n not in (nation, defender) and ctx.state.nations[n].alive]
    sides = ([defender] if defender else []) + others + [PIRATES]
    return [side for side in sides if fleets(ctx, sea, side) > 0]


def meaning(ctx: Ctx, battle: Battle) -> str:
    margin = ctx.rules.odds["naval_margin"]
    return (
        f"compared with the other side's number (plus bonuses); a difference over {margin} destroys the loser, "
        "otherwise a draw"
    )


def declare(ctx: Ctx, battle: Battle) -> None:
    """Bind the two numbers of a naval battle: the attacker's first, then the defender's."""
    assert battle.sea is not None
    defender = battle.naval_opponent or battle.defender or PIRATES
    first = bind(ctx, "naval_attacker", battle.attacker_nation, meaning(ctx, battle), ref=battle.id)
    bind(ctx, "naval_defender", None if defender == PIRATES else defender, meaning(ctx, battle), ref=battle.id,
         avoid=[first])


def _bonus(ctx: Ctx, side: str, own: int, other: int) -> tuple[int, list[str]]:
    odds = ctx.rules.odds
    bonus, why = 0, []
    if own == 2 and other == 1:
        bonus += odds["naval_two_against_one"]
        why.append(f"+{odds['naval_two_against_one']} two fleets against one")
    if side != PIRATES and "naval_technology" in ctx.state.nations[side].effects:
        bonus += odds["naval_technology"]
        why.append(f"+{odds['naval_technology']} Naval Technology")
    return bonus, why


def resolve_roll(ctx: Ctx, roll: Roll) -> None:
    battle = ctx.state.battle(roll.ref) if roll.ref is not None else None
    if battle is None:
        return
    # An amphibious attack may fight several naval battles in turn: only the latest pair of numbers decides this one.
    # A battle and its rolls belong to the open turn (a turn closes only once its battles are settled).
    mine = [r for r in ctx.state.open_rolls() if r.ref == battle.id
            and r.purpose in ("naval_attacker", "naval_defender")][-2:]
    if any(r.number is None for r in mine) or len(mine) < 2:
        roll.outcome = "waiting for the other side's number"
        return
    att_roll = next(r for r in mine if r.purpose == "naval_attacker")
    def_roll = next(r for r in mine if r.purpose == "naval_defender")
    assert att_roll.number is not None and def_roll.number is not None and battle.sea is not None
    attacker = battle.attacker_nation or PIRATES
    defender = battle.naval_opponent or battle.defender or PIRATES
    gone = _side_out(ctx, attacker, defender)
    if gone:
        # Knocked out (or crumbled) while the numbers were pending: its fleets went with it, so nobody fights and
        # nobody sinks; a landing this battle opened the way for is then aborted by _after_naval_phase.
        battle.status = "aborted"
        att_roll.outcome = def_roll.outcome = f"not fought: {gone}"
        ctx.say(f"Naval battle #{battle.id} in {battle.sea} is not fought: {gone}; no fleet is lost.")
        if battle.kind == "amphibious":
            _after_naval_phase(ctx, battle, None)
        return
    a_bonus, a_why = _bonus(ctx, attacker, battle.attacker_fleets, battle.defender_fleets)
    d_bonus, d_why = _bonus(ctx, defender, battle.defender_fleets, battle.attacker_fleets)
    a_score, d_score = att_roll.number + a_bonus, def_roll.number + d_bonus
    margin = ctx.rules.odds["naval_margin"]
    detail = (
        f"{attacker} {att_roll.number}{' ' + ' '.join(a_why) if a_why else ''} = {a_score} against "
        f"{defender} {def_roll.number}{' ' + ' '.join(d_why) if d_why else ''} = {d_score}"
    )
    if abs(a_score - d_score) <= margin:
        outcome = f"draw ({detail}): both fleets stay"
        battle.status = "draw"
        winner = None
    else:
        winner, loser = (attacker, defender) if a_score > d_score else (defender, attacker)
        both_pairs = battle.attacker_fleets == 2 and battle.defender_fleets == 2
        lost = 2 if both_pairs else 1
        lose_fleets(ctx, battle.sea, loser, lost)
        battle.winner = winner
        battle.status = "won" if winner == attacker else "lost"
        what = "the pirates are destroyed" if loser == PIRATES else f"the {loser} lose {lost} fleet{'s' if lost > 1 else ''}"
        outcome = f"the {winner} win ({detail}): {what}"
    att_roll.outcome = def_roll.outcome = outcome
    ctx.say(f"Naval battle #{battle.id} in {battle.sea}: {outcome}.")
    if battle.kind == "amphibious":
        _after_naval_phase(ctx, battle, winner)


def _side_out(ctx: Ctx, *sides: str) -> str | None:
    """Why a naval battle between ``sides`` can no longer be fought: a nation among them is out of the game."""
    for side in sides:
        ns = ctx.state.nations.get(side)
        if ns is not None and not ns.alive:
            return f"the {side} are out of the game ({ns.fate or 'out'})"
    return None


def _after_naval_phase(ctx: Ctx, battle: Battle, winner: str | None) -> None:
    assert battle.sea is not None and battle.attacker_nation is not None
    from engine.mare_nostrum.battles import announce, attacker_gone  # battles imports naval's neighbours; import late

    gone = attacker_gone(ctx, battle)
    if gone:
        battle.status = "aborted"
        ctx.say(f"No landing on {battle.province}: {gone.removeprefix('but ')}.")
        return
    opponent = battle.naval_opponent or battle.defender or PIRATES
    if fleets(ctx, battle.sea, opponent) > 0 or fleets(ctx, battle.sea, battle.attacker_nation) == 0:
        battle.status = "aborted"
        ctx.say(f"The {opponent} still hold {battle.sea}: the landing on {battle.province} is aborted.")
        return
    left = hostile_sides(ctx, battle.sea, battle.attacker_nation, battle.defender)
    if left:
        start_naval_phase(ctx, battle, left[0], "too")
        return
    battle.status = "to_fight"
    battle.winner = None
    ctx.say(f"No enemy fleet is left in {battle.sea}: the landing on {battle.province} goes ahead as battle #{battle.id}.")
    announce(ctx, battle)


def start_naval_phase(ctx: Ctx, battle: Battle, opponent: str, word: str) -> None:
    """The landing's next naval battle, against `opponent`'s fleets in the sea; its numbers are bound at once."""
    assert battle.sea is not None and battle.attacker_nation is not None
    battle.naval_opponent = opponent
    battle.attacker_fleets = fleets(ctx, battle.sea, battle.attacker_nation)
    battle.defender_fleets = fleets(ctx, battle.sea, opponent)
    battle.status = "waiting_roll"
    battle.winner = None
    ctx.state.naval_attacked.append(f"{battle.sea}|{opponent}")
    ctx.say(f"Amphibious attack #{battle.id} on {battle.province}: the {opponent} fleet in {battle.sea} must be destroyed {word}.")
    declare(ctx, battle)


def pirates_strike(ctx: Ctx, arrivals: list[str]) -> None:
    """Pirates already at sea attack every fleet in their quadrant; new pirates attack the fleet they found."""
    state = ctx.state
    attacked: set[tuple[str, str]] = set()
    for sea in list(state.pirates):
        for nation in list(ctx.rules.nations):
            if fleets(ctx, sea, nation) > 0 and state.nations[nation].alive:
                _pirate_battle(ctx, sea, nation)
                attacked.add((sea, nation))
    for arrival in arrivals:
        sea, nation = arrival.split("|")
        if sea not in state.pirates:
            state.pirates.append(sea)
        if (sea, nation) not in attacked and fleets(ctx, sea, nation) > 0:
            _pirate_battle(ctx, sea, nation)
            attacked.add((sea, nation))


def _pirate_battle(ctx: Ctx, sea: str, nation: str) -> None:
    state = ctx.state
    battle = Battle(
        id=state.new_id(), turn=state.turn, kind="pirates", province=None, sea=sea,
        attacker=PIRATES, attacker_nation=None, attacker_player=None, attacker_army="pirates",
        defender=nation, defender_army="fleet", attacker_fleets=1, defender_fleets=fleets(ctx, sea, nation),
        status="waiting_roll",
    )
    state.battles.append(battle)
    ctx.say(f"Battle #{battle.id}: pirates attack the {nation} fleet{'s' if battle.defender_fleets > 1 else ''} in {sea}.")
    declare(ctx, battle)
