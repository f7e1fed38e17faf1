"""The Joint Political Phase (7.0): alliances, vassalage and rebellions, thwarting, the Diplomacy Table."""
from __future__ import annotations

from dataclasses import dataclass

from engine.mediterranean_empires import hand, options
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.control import controller, partial
from engine.mediterranean_empires.rules_version import SEED_THWART
from engine.mediterranean_empires.state import State, Unit

KINDS = ("alliance", "vassalage", "rebellion")
MAJORS = ("France", "Anjou", "Aragon")
DIPLOMACY = "Diplomacy"
THWART_CHOICES = ("let it pass", "thwart", "thwart with everything")
CONCESSION = 3  # 14.3: +3 on the attempt


@dataclass(frozen=True)
class Modifiers:
    king: str | None = None  # the power whose King lends his diplomacy rating
    pope: bool = False
    tp: bool = False


def table_result(ctx: Ctx, kind: str, modified: int) -> bool:
    """The Diplomacy Table: success from 5 for rebellion and alliance, from 4 for vassalage (7+ reads as 7)."""
    return modified >= ctx.rules.diplomacy[kind]


def check_attempt(ctx: Ctx, side: str, kind: str, power: str) -> None:
    st = ctx.state
    if power in MAJORS:
        raise Rejection(f"politics cannot change the status of France, Anjou or Aragon (7.0); {power} is one of them")
    if kind not in st.sides[side].attempts_left:
        raise Rejection(f"you have no {kind} attempt left this game turn (one of each per turn, and a pass forfeits one)")
    status, owner = st.status[power], st.side_of.get(power)
    if kind == "alliance":
        if status == "ally" and owner == side:
            raise Rejection(f"{power} is already your ally")
    elif kind == "vassalage":
        if status != "neutral":
            raise Rejection(f"vassalage is attempted against a neutral power only; {power} is {describe(st, power)}")
    else:
        rules = ctx.rules.powers[power]
        if rules.status != "neutral":
            raise Rejection(f"a rebellion needs a power that started the game neutral; {power} did not (7.3)")
        held = [a for a in rules.home if controller(st, a) == other(side)]
        if not held:
            raise Rejection(f"a rebellion needs {power}'s home area under your opponent's total control (7.3)")
        if any(u.power == power and u.kind != "fleet" for u in st.units.values()):
            raise Rejection(f"a rebellion needs every ground unit of {power} off the map (7.3)")


def describe(st: State, power: str) -> str:
    status, side = st.status[power], st.side_of.get(power)
    if status == "neutral":
        return "neutral"
    return f"{'an ally' if status == 'ally' else 'a vassal' if status == 'vassal' else 'a major power'} of Player {side}"


def modifier(ctx: Ctx, side: str, mods: Modifiers) -> int:
    """7.0 step 3: a King's diplomacy rating and the Pope, each once per game turn; one TP for +1."""
    st, total = ctx.state, 0
    if mods.king:
        king = st.kings.get(mods.king)
        if king is None or king.area is None or st.side_of.get(mods.king) != side:
            raise Rejection(f"there is no King of {mods.king} of yours on the map")
        if king.diplomacy_used:
            raise Rejection(f"the King of {mods.king} has already lent his diplomacy this game turn")
        king.diplomacy_used = True
        total += king.diplomacy
    if mods.pope:
        if st.pope != side:
            raise Rejection("you do not have the Pope in Rome")
        if st.sides[side].pope_used:
            raise Rejection("the Pope has already helped you this game turn")
        st.sides[side].pope_used = True
        total += 1
    if mods.tp:
        if st.sides[side].treasury < 1:
            raise Rejection("you have no treasury point to spend")
        st.sides[side].treasury -= 1
        total += 1
    return total


def best_modifiers(ctx: Ctx, side: str) -> Modifiers:
    """'thwart with everything': the best unused King, the Pope if free, and one TP if any."""
    st = ctx.state
    kings = [k for p, k in st.kings.items() if st.side_of.get(p) == side and k.area and not k.diplomacy_used]
    king = max(kings, key=lambda k: k.diplomacy).power if kings else None
    return Modifiers(king, st.pope == side and not st.sides[side].pope_used, st.sides[side].treasury >= 1)


def check_concession(ctx: Ctx, side: str, kind: str, power: str, area: str) -> None:
    """14.3: an area under the side's total control, offered to a neutral for its alliance; it must border the
    power's own lands (both of the seed's examples, Navarre and Murcia for Castile, do)."""
    st, amap = ctx.state, ctx.rules.map
    if not options.on(st, options.CONCESSIONS):
        raise Rejection("territorial concessions are optional rule 14.3, which this campaign does not use")
    if kind != "alliance" or st.status[power] != "neutral":
        raise Rejection(f"a territory is ceded for the alliance of a neutral power (14.3); {power} is {describe(st, power)}"
                      if kind == "alliance" else "a territory is ceded for an alliance attempt only (14.3)")
    if area not in amap.lands or controller(st, area) != side or partial(st, area):
        raise Rejection(f"you can cede only an area under your total control; {area} is not")
    held = {a for a in amap.lands if st.owner.get(a) == power} | set(ctx.rules.powers[power].home)
    if area in held or not any(area in amap.lands[a].borders for a in held):
        raise Rejection(f"{area} does not border {power}'s lands ({', '.join(sorted(held))}): it is no concession to it")


def attempt(ctx: Ctx, side: str, kind: str, power: str, mods: Modifiers, cede: str | None = None) -> bool:
    """One political attempt, thwart and all. Returns whether it succeeded. ``cede``: an area offered (14.3), +3 on
    the Diplomacy Table roll, handed to the power if the alliance is made."""
    check_attempt(ctx, side, kind, power)
    if cede is not None:
        check_concession(ctx, side, kind, power, cede)
    st = ctx.state
    # The Diplomacy marker is revealed (hand.claim): the bot's fold refuses the attempt if none is held.
    hand.spend(ctx, side, (DIPLOMACY,))
    st.sides[side].attempts_left.remove(kind)
    opp = other(side)
    ctx.say(f"Player {side} attempts {kind} with {power}.")
    # Asked whenever the opponent may hold a Diplomacy marker (public knowledge only); a thwart reveals one.
    seed_thwart = st.rules_version >= SEED_THWART
    if hand.might_hold(st, opp, (DIPLOMACY,)):
        answer = ctx.oracle.ask(ctx.seat(opp), "thwart", f"Thwart Player {side}'s {kind} attempt with {power}?",
                                ("let it pass", "thwart") if seed_thwart else THWART_CHOICES, "let it pass",
                                {"kind": kind, "power": power})
        if answer != "let it pass" and seed_thwart:
            hand.spend(ctx, opp, (DIPLOMACY,))
            left = thwart(ctx, side, mods)
            if left is None:
                return False
            mods = left
        elif answer != "let it pass":
            hand.spend(ctx, opp, (DIPLOMACY,))
            opp_mods = best_modifiers(ctx, opp) if answer == "thwart with everything" else Modifiers()
            opp_roll = ctx.die(f"thwart.{opp}") + modifier(ctx, opp, opp_mods)
            att_roll = ctx.die(f"thwart.{side}") + modifier(ctx, side, mods)
            if opp_roll > att_roll:
                ctx.say(f"Player {opp} thwarts it ({opp_roll} against {att_roll}).")
                return False
            ctx.say(f"Player {opp} fails to thwart it ({opp_roll} against {att_roll}).")
            mods = Modifiers()  # the modifiers were spent on the thwart roll
    roll = ctx.die(f"{kind}.{side}")
    total = roll + modifier(ctx, side, mods) + (CONCESSION if cede else 0)
    if not table_result(ctx, kind, total):
        ctx.say(f"The {kind} attempt fails ({roll}, modified {total})" + (f"; {cede} stays Player {side}'s." if cede else "."))
        return False
    ctx.say(f"The {kind} attempt succeeds ({roll}, modified {total}).")
    {"alliance": _alliance, "vassalage": _vassalage, "rebellion": _rebellion}[kind](ctx, side, power)
    if cede:
        st.owner[cede] = power
        ctx.say(f"Player {side} cedes {cede} to {power} (14.3).")
    return True


def thwart(ctx: Ctx, side: str, mods: Modifiers) -> Modifiers | None:
    """7.0's thwart, as the seed orders it (campaigns of rules version 2): both roll 1d6; then the opponent, then the
    attempting player, declare the modifiers they use (a King's diplomacy, the Pope, one TP: any of them). None: the
    thwart succeeds. Else what is left of the attempt's own modifiers for the Diplomacy Table roll: a King or the
    Pope used on the thwart has lent his help for the game turn, and one TP only is spent per attempt."""
    opp = other(side)
    opp_die, att_die = ctx.die(f"thwart.{opp}"), ctx.die(f"thwart.{side}")
    ctx.say(f"Thwart rolls: Player {opp} {opp_die}, Player {side} {att_die}.")
    opp_mods = declare(ctx, opp, f"Your thwart roll is {opp_die} against Player {side}'s {att_die}: which modifiers "
                       "do you add?")
    opp_roll = opp_die + modifier(ctx, opp, opp_mods)
    att_mods = declare(ctx, side, f"Player {opp}'s thwart roll is {opp_roll} against your {att_die}: which modifiers "
                       "do you add?")
    att_roll = att_die + modifier(ctx, side, att_mods)
    if opp_roll > att_roll:
        ctx.say(f"Player {opp} thwarts it ({opp_roll} against {att_roll}).")
        return None
    ctx.say(f"Player {opp} fails to thwart it ({opp_roll} against {att_roll}).")
    return Modifiers(None if mods.king == att_mods.king else mods.king, mods.pope and not att_mods.pope,
                     mods.tp and not att_mods.tp)


def modifier_choices(ctx: Ctx, side: str) -> dict[str, Modifiers]:
    """Every set of modifiers ``side`` may add to a roll now, by the words a player answers with ('none' first)."""
    st = ctx.state
    kings = sorted(p for p, k in st.kings.items() if st.side_of.get(p) == side and k.area and not k.diplomacy_used)
    popes = (False, True) if st.pope == side and not st.sides[side].pope_used else (False,)
    tps = (False, True) if st.sides[side].treasury >= 1 else (False,)
    out: dict[str, Modifiers] = {}
    for king in (None, *kings):
        for pope in popes:
            for tp in tps:
                words = ([f"the King of {king}"] if king else []) + (["the Pope"] if pope else []) + (["1 TP"] if tp else [])
                out[" and ".join(words) or "none"] = Modifiers(king, pope, tp)
    return out


def declare(ctx: Ctx, side: str, question: str) -> Modifiers:
    """7.0 step 2: ``side`` declares the modifiers it uses, among those it may use now."""
    choices = modifier_choices(ctx, side)
    if len(choices) == 1:
        return Modifiers()  # nothing to add: not asked
    answer = ctx.oracle.ask(ctx.seat(side), f"thwart.{side}.modifiers", question, tuple(choices), "none")
    return choices[answer]


def forfeit(ctx: Ctx, side: str, kind: str | None) -> str | None:
    """A pass forfeits one attempt of the player's choice (7.0); without a choice, the last one left."""
    left = ctx.state.sides[side].attempts_left
    if not left:
        return None
    chosen = kind if kind in left else left[-1]
    left.remove(chosen)
    return chosen


def _alliance(ctx: Ctx, side: str, power: str) -> None:
    st = ctx.state
    status, owner = st.status[power], st.side_of.get(power)
    if status == "ally" and owner == other(side):
        _revert_ally(ctx, side, power)
    elif status == "vassal" and owner == other(side):
        st.status[power], st.side_of[power] = "neutral", None
        ctx.say(f"{power} is no longer Player {owner}'s vassal: it is neutral again.")
    else:
        activate(ctx, power, side)


def activate(ctx: Ctx, power: str, side: str) -> None:
    """7.1.2 (and an invasion, 10.1): the neutral joins ``side``; its units turn face up."""
    st = ctx.state
    st.status[power], st.side_of[power] = "ally", side
    for u in st.units.values():
        if u.power == power:
            u.face_down = False
    ctx.say(f"{power} becomes an ally of Player {side}.")


def _revert_ally(ctx: Ctx, side: str, power: str) -> None:
    """7.1.3: remove the power's units; 1d6 halved (rounded up) of them return face down to its home area."""
    st = ctx.state
    for uid in [u.id for u in st.units.values() if u.power == power]:
        del st.units[uid]
    st.status[power], st.side_of[power] = "neutral", None
    count = -(-ctx.die(f"revert.{power}") // 2)
    home = ctx.rules.powers[power].home[0]
    placed = _place_from_counters(ctx, power, home, count, ground_only=True, face_down=True)
    for area in ctx.rules.powers[power].home:
        st.owner[area] = power
    ctx.say(f"{power} reverts to neutrality: {placed} of its units stand face down in {home}.")


def _vassalage(ctx: Ctx, side: str, power: str) -> None:
    st = ctx.state
    st.status[power], st.side_of[power] = "vassal", side
    ctx.say(f"{power} becomes a vassal of Player {side}.")


def _rebellion(ctx: Ctx, side: str, power: str) -> None:
    """7.3: the power's fleets leave the map; 1d6 of its ground units rise in its home area, allied to ``side``."""
    st = ctx.state
    for uid in [u.id for u in st.units.values() if u.power == power]:
        del st.units[uid]
    st.status[power], st.side_of[power] = "ally", side
    home = ctx.rules.powers[power].home[0]
    placed = _place_from_counters(ctx, power, home, ctx.die(f"rebellion.{power}"), ground_only=True, face_down=False)
    ctx.say(f"{power} rebels in {home}: {placed} of its units rise for Player {side}.")


GROUND_ORDER = ("field_army", "mercenary", "raider", "levy")  # the strongest first when the rules let one choose


def _place_from_counters(ctx: Ctx, power: str, area: str, count: int, *, ground_only: bool, face_down: bool) -> int:
    st = ctx.state
    counters = ctx.rules.powers[power].counters
    placed = 0
    for kind in GROUND_ORDER:
        on_map = sum(1 for u in st.units.values() if u.power == power and u.kind == kind)
        for _ in range(max(0, counters.get(kind, 0) - on_map)):
            if placed == count:
                return placed
            st.units[st.next_unit] = Unit(st.next_unit, power, kind, area, face_down=face_down)
            st.next_unit += 1
            placed += 1
    return placed
