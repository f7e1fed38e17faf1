"""Land battles: fought in Field of Glory outside the bot, reported back, then sieges and conquest."""
from __future__ import annotations

from engine.events import Rejection
from engine.mare_nostrum.conquest import conquer
from engine.mare_nostrum.context import Ctx
from engine.mare_nostrum.slots import bind
from engine.mare_nostrum.state import OPEN_BATTLE, Battle, Roll




def commanders_note(ctx: Ctx, battle: Battle) -> str:
    """The events that limit Troop Commanders, which the players must set up in FoG."""
    notes = []
    attacker = battle.attacker_nation or battle.attacker
    defender = battle.defender or "independent forces"
    for side, other in ((attacker, defender), (defender, attacker)):
        if side in ctx.state.nations:
            effects = ctx.state.nations[side].effects
            if "one_commander" in effects:
                notes.append(f"the {side} fight with only 1 Troop Commander (Internal Conspiracy)")
            if "enemies_one_commander" in effects:
                notes.append(f"the {other} fight with only 1 Troop Commander (the {side}' Military Training)")
    return ("; " + "; ".join(notes)) if notes else ""


def announce(ctx: Ctx, battle: Battle) -> None:
    defender = battle.defender or "independent forces"
    ctx.say(
        f"Battle #{battle.id} in {battle.province}: the {battle.attacker} ({battle.attacker_army}, "
        f"{battle.attacker_player}) attack the {defender} ({battle.defender_army}, {ctx.player_of(battle.defender)})"
        f"{commanders_note(ctx, battle)}. A 500-point DAG battle in Field of Glory."
    )


def find_open_battle(ctx: Ctx, province: str) -> Battle:
    for battle in ctx.state.battles:
        if battle.province == province and battle.status in OPEN_BATTLE:
            return battle
    fought = [b for b in ctx.state.battles if b.province == province]
    if fought:
        b = fought[-1]
        raise Rejection(f"the battle for {province} is already settled ({b.status.replace('_', ' ')})")
    raise Rejection(f"there is no battle in {province} this turn")


def side_of(ctx: Ctx, battle: Battle, name: str) -> str | None:
    """'attacker' or 'defender' for a name the reporter gave (a nation, an invader force, or the word)."""
    low = name.strip().lower()
    if low in ("attacker", "attackers"):
        return "attacker"
    if low in ("defender", "defenders"):
        return "defender"
    attackers = {battle.attacker.lower()}
    if battle.attacker_nation:
        attackers.add(battle.attacker_nation.lower())
    if battle.kind == "invasion":
        inv = ctx.rules.invasions[battle.province or ""]
        attackers.add(inv.managed_by.lower())
    defenders = {battle.defender.lower()} if battle.defender else {"independent", "independents", (battle.province or "").lower()}
    if low in attackers:
        return "attacker"
    if low in defenders:
        return "defender"
    return None


def report(ctx: Ctx, province: str, winner: str, reporter: str) -> None:
    state = ctx.state
    if state.phase != "battles":
        if state.phase == "orders":
            raise Rejection(
                f"battles are fought once every nation has declared; the {state.acting()} are still to play"
            )
        raise Rejection(f"no battle can be reported in the '{state.phase}' phase")
    battle = find_open_battle(ctx, province)
    if battle.status == "waiting_roll":
        raise Rejection(f"battle #{battle.id} in {province} waits for its lottery numbers first")
    if battle.status == "siege":
        raise Rejection(f"battle #{battle.id} in {province} is won; the siege waits for its lottery number")
    allowed = {state.gm, battle.attacker_player, ctx.player_of(battle.defender)}
    if reporter not in allowed:
        raise Rejection(
            f"only the two players of battle #{battle.id} ({battle.attacker_player}, {ctx.player_of(battle.defender)}) "
            "or the GM can report it"
        )
    side = side_of(ctx, battle, winner)
    if side is None:
        defender = battle.defender or "independent"
        raise Rejection(
            f"'{winner}' did not fight in {province}: the winner is the {battle.attacker} (attacker) or {defender} (defender)"
        )
    own = _own_side(ctx, battle, reporter)
    if reporter == state.gm or own is None or side != own:
        # The GM's word, or a player who reports their own defeat, settles the battle at once.
        _settle(ctx, battle, side, reporter)
        return
    # A player who reports their own victory needs the other player's word, or the GM's.
    other = ctx.player_of(battle.defender) if own == "attacker" else battle.attacker_player
    if battle.claimed_by == reporter:
        raise Rejection(f"you already reported battle #{battle.id}; it waits for {other} to confirm, or for the GM")
    if battle.claimed_by is not None:
        battle.status = "disputed"
        ctx.say(
            f"Battle #{battle.id} in {province} is disputed: {battle.claimed_by} and {reporter} both report a victory. "
            f"The GM decides: /battle {province} winner <side>."
        )
        return
    battle.status = "claimed"
    battle.claimed_by = reporter
    battle.winner = (battle.attacker_nation or battle.attacker) if side == "attacker" else (battle.defender or "independent")
    ctx.say(
        f"Battle #{battle.id} in {province}: {reporter} reports a victory for the {battle.winner}; "
        f"{other} confirms with /battle {province} winner {battle.winner} (or the GM decides)."
    )


def _own_side(ctx: Ctx, battle: Battle, user: str) -> str | None:
    attacker, defender = battle.attacker_player, ctx.player_of(battle.defender)
    if attacker == defender:
        return None
    if user == attacker:
        return "attacker"
    if user == defender:
        return "defender"
    return None


def _settle(ctx: Ctx, battle: Battle, side: str, reporter: str) -> None:
    assert battle.province is not None
    province = battle.province
    battle.reported_by = reporter
    battle.claimed_by = None
    if side == "defender":
        battle.status = "lost"
        battle.winner = battle.defender or "independent"
        ctx.say(f"Battle #{battle.id}: {province} holds; the {battle.attacker} are beaten (reported by {reporter}).")
        return
    battle.winner = battle.attacker_nation or battle.attacker
    gone = attacker_gone(ctx, battle)
    if gone:
        battle.status = "aborted"
        ctx.say(f"Battle #{battle.id}: the {battle.attacker} win in {province} (reported by {reporter}), {gone}.")
        return
    ctx.say(f"Battle #{battle.id}: the {battle.attacker} win in {province} (reported by {reporter}).")
    if _fortified(ctx, battle):
        battle.status = "siege"
        low, high = ctx.rules.odds["fortification_holds"]
        bind(
            ctx, "siege", battle.attacker_nation,
            f"{low}-{high}: the fortification of {province} holds and the attackers retire; "
            f"1-{low - 1}: it falls and is destroyed",
            ref=battle.id,
        )
        return
    _take(ctx, battle, destroy_fortification=ctx.state.provinces[province].fortification)


def attacker_gone(ctx: Ctx, battle: Battle) -> str | None:
    """Why the attacking nation can take nothing any more, or None while it is still in the game.

    A nation knocked out (or crumbled) earlier in the resolution has no army left to hold what it won: without this
    check its pending battles would still give it provinces, and the map would depend on the order the battles are
    reported in. Invader forces are not nations and never drop out."""
    nation = battle.attacker_nation
    if nation is None or ctx.state.nations[nation].alive:
        return None
    keeper = f"the {battle.defender}" if battle.defender else "independent forces"
    fate = ctx.state.nations[nation].fate or "out"
    return f"but the {nation} are out of the game ({fate}): {battle.province} stays with {keeper}"


def _fortified(ctx: Ctx, battle: Battle) -> bool:
    assert battle.province is not None
    ps = ctx.state.provinces[battle.province]
    artworks = battle.defender is not None and ctx.state.nations[battle.defender].defensive_artworks == battle.province
    if not (ps.fortification or artworks):
        return False
    if battle.attacker_nation and "siege_train" in ctx.state.nations[battle.attacker_nation].effects:
        ctx.say(f"The {battle.attacker_nation}' Siege Train ignores the fortifications of {battle.province}.")
        return False
    return True


def _still_fortified(ctx: Ctx, battle: Battle) -> bool:
    """Whether what made the siege (a fortification, or Defensive Artworks) still stands when its number comes."""
    assert battle.province is not None
    artworks = battle.defender is not None and ctx.state.nations[battle.defender].defensive_artworks == battle.province
    return ctx.state.provinces[battle.province].fortification or artworks


def _take(ctx: Ctx, battle: Battle, destroy_fortification: bool) -> None:
    assert battle.province is not None
    battle.status = "won"
    ps = ctx.state.provinces[battle.province]
    if destroy_fortification and ps.fortification:
        ps.fortification = False
        ctx.say(f"The fortification of {battle.province} is destroyed.")
    if battle.kind == "invasion":
        conquer(ctx, battle.province, None, invaded=True, held_by=battle.attacker)
    else:
        conquer(ctx, battle.province, battle.attacker_nation, invaded=True)


def resolve_siege(ctx: Ctx, roll: Roll) -> None:
    assert roll.ref is not None and roll.number is not None
    battle = ctx.state.battle(roll.ref)
    low, high = ctx.rules.odds["fortification_holds"]
    where = f"Siege of {battle.province} ({roll.where()} = {roll.number})"
    # The fortification may have gone (an Earthquake, a GM ruling) while the number was pending: nothing holds then.
    standing = _still_fortified(ctx, battle)
    if standing and low <= roll.number <= high:
        battle.status = "held"
        roll.outcome = f"the fortification of {battle.province} holds"
        ctx.say(f"{where}: the fortification holds; the {battle.attacker} retire.")
        return
    why = "the defences fall" if standing else "no fortification is left to hold it"
    gone = attacker_gone(ctx, battle)
    if gone:
        battle.status = "aborted"
        roll.outcome = f"{battle.province} is not taken: the {battle.attacker_nation} are out of the game"
        ctx.say(f"{where}: {why}, {gone}.")
        return
    roll.outcome = f"{battle.province} falls" + ("" if standing else ": no fortification was left")
    ctx.say(f"{where}: {why}" + ("." if standing else f": {battle.province} falls."))
    _take(ctx, battle, destroy_fortification=standing)


def resolve_alliance(ctx: Ctx, roll: Roll) -> None:
    assert roll.ref is not None and roll.number is not None
    battle = ctx.state.battle(roll.ref)
    low, high = ctx.rules.odds["alliance"]
    if low <= roll.number <= high:
        roll.outcome = "alliance made"
        battle.status = "to_fight"
        ctx.say(f"Alliance roll {roll.number} ({roll.where()}): the {battle.attacker_army} join the {battle.attacker_nation}.")
        announce(ctx, battle)
    else:
        roll.outcome = "alliance refused"
        battle.status = "aborted"
        ctx.say(f"Alliance roll {roll.number} ({roll.where()}): the alliance is refused; no battle in {battle.province}.")


def resolve_peace(ctx: Ctx, roll: Roll) -> None:
    assert roll.number is not None and roll.nation is not None and roll.target is not None
    low, high = ctx.rules.odds["peace_treaty"]
    if low <= roll.number <= high:
        roll.outcome = f"peace: the {roll.target} may not attack the {roll.nation} this turn"
        ctx.state.nations[roll.nation].peace_with.append(roll.target)
    else:
        roll.outcome = "no treaty"
    ctx.say(f"Peace treaty of the {roll.nation} with the {roll.target} ({roll.where()} = {roll.number}): {roll.outcome}.")
