"""Combat (10.3, 11.3): the Field/Naval Battle and Raid tables, modifiers, results, losses and counterattacks."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.mediterranean_empires import hand
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.rules_version import SEED_READINGS
from engine.mediterranean_empires.oracle import SEALED, NeedReveal
from engine.mediterranean_empires.control import side_of_power, settle_control
from engine.mediterranean_empires.rules_data import UNIT_WORDS
from engine.mediterranean_empires.state import State, Unit

# The default order of losses (the owner chooses, take_losses; see docs/rules/mediterranean-empires.md).
LOSS_ORDER = {"levy": 0, "raider": 1, "mercenary": 2, "field_army": 3, "fleet": 4}
MILITARY_ADVANTAGE = "Military Advantage"
AMBUSH = "Ambush"
SIEGE_TRAIN = "Siege Train"
COUP_DE_MAIN = "Coup de Main"
NO_MARKER = "no marker"
INITIATIVE_MARKERS = (MILITARY_ADVANTAGE, AMBUSH)
SPOILS_CHOICES = ("take a marker", "no marker")  # not "pick a marker": that line is a draw order


@dataclass
class Battle:
    area: str
    table: str  # "field" or "raid"
    attacker: str  # side
    defender: str
    att_ids: list[int]
    def_ids: list[int]
    label: str
    markers: bool = True  # step 5 e/f: stratagem markers (not on counterattacks)
    rounds: list[str] = field(default_factory=list)


def weight(ctx: Ctx, unit: Unit, table: str) -> int:
    """2.2 and the tables: field armies and mercenaries count two on the Field table, raiders on the Raid table,
    fleets of Aragon, Genoa and Venice on the Naval table."""
    if unit.kind == "fleet":
        return 2 if unit.power in ctx.rules.double_fleets else 1
    return 2 if unit.kind in ctx.rules.tables[table].double else 1


def strength(ctx: Ctx, ids: list[int], table: str) -> int:
    return sum(weight(ctx, ctx.state.units[i], table) for i in ids if i in ctx.state.units)


def king_with(state: State, side: str, area: str, powers: set[str] | None = None) -> int:
    """The military value of one King of ``side`` in ``area`` (the best one, if two are there)."""
    values = [k.military for p, k in state.kings.items()
              if k.area == area and state.side_of.get(p) == side and (powers is None or p in powers)]
    return max(values, default=0)


def combat_modifier(ctx: Ctx, b: Battle, att_marker: str, def_marker: str) -> int:
    """Step 5: attacking King +, defending King -, mercenaries +1/-1, one marker each (they may cancel, 9.0)."""
    st = ctx.state
    mod = king_with(st, b.attacker, b.area) - king_with(st, b.defender, b.area)
    if any(st.units[i].kind == "mercenary" for i in b.att_ids if i in st.units):
        mod += 1
    if any(st.units[i].kind == "mercenary" for i in b.def_ids if i in st.units):
        mod -= 1
    mod += marker_value(att_marker, b.table, attacking=True, city=bool(ctx.rules.map.lands.get(b.area) and ctx.rules.map.lands[b.area].city))
    mod -= marker_value(def_marker, b.table, attacking=False, city=False)
    return mod


def marker_value(marker: str, table: str, *, attacking: bool, city: bool) -> int:
    if marker == MILITARY_ADVANTAGE:
        return 1
    if marker == AMBUSH and table == "raid":
        return 1
    if marker in (SIEGE_TRAIN, COUP_DE_MAIN) and attacking and table == "field" and city:
        return 1
    return 0


def usable_markers(ctx: Ctx, side: str, b: Battle, attacking: bool) -> list[str]:
    """The kinds of marker that would count in this battle and that ``side`` may hold, from public knowledge only
    (hand.might_hold): the question is asked alike whatever the hand holds; a marker named is then revealed."""
    city = bool(ctx.rules.map.lands.get(b.area) and ctx.rules.map.lands[b.area].city)
    kinds = sorted(m for m in ctx.rules.markers if marker_value(m, b.table, attacking=attacking, city=city))
    return [m for m in kinds if hand.might_hold(ctx.state, side, (m,))]


def spend_marker(ctx: Ctx, side: str, marker: str | tuple[str, ...]) -> str:
    """Play a marker that returns to the pool at once (9.0 "return to the pool when expended"): hand.spend."""
    return hand.spend(ctx, side, (marker,) if isinstance(marker, str) else marker)


def eliminate(ctx: Ctx, ids: list[int], needed: int, table: str) -> int:
    """Eliminates units from ``ids``, cheapest first, until their weight reaches ``needed``. Returns the weight."""
    st = ctx.state
    alive = sorted((st.units[i] for i in ids if i in st.units), key=lambda u: (LOSS_ORDER[u.kind], u.id))
    lost = 0
    for u in alive:
        if lost >= needed:
            break
        lost += weight(ctx, u, table)
        del st.units[u.id]
    return lost


def unit_word(unit: Unit) -> str:
    """How a loss is named in a question and its answer: 'field army of France'."""
    return f"{UNIT_WORDS[unit.kind]} of {unit.power}"


def take_losses(ctx: Ctx, side: str, ids: list[int], table: str, label: str, area: str, *,
                worth: int | None = None, count: int | None = None) -> int:
    """The losing player chooses its losses (CA, BB, DV): one unit at a time, until they are worth ``worth`` (a unit
    the table doubles counts two) or ``count`` units are gone. The default is cheapest first; nobody is asked when
    every remaining unit is the same kind of the same power, or when all of them must go. Returns the weight lost."""
    st = ctx.state
    lost = taken = 0
    while (worth is None or lost < worth) and (count is None or taken < count):
        left = sorted((st.units[i] for i in ids if i in st.units), key=lambda u: (LOSS_ORDER[u.kind], u.id))
        if not left:
            break
        words = list(dict.fromkeys(unit_word(u) for u in left))
        every = (worth is not None and sum(weight(ctx, u, table) for u in left) <= worth - lost) or \
                (count is not None and len(left) <= count - taken)
        pick = left[0]
        if len(words) > 1 and not every:
            still = (f"units worth {worth - lost} more (a unit that counted two counts two)" if worth is not None
                     else f"{count - taken} more unit(s)" if count is not None else "")
            answer = ctx.oracle.ask(ctx.seat(side), f"{label}.{side}{taken + 1}.loss",
                                    f"Losses in {area}: you eliminate {still}. Which unit goes now?", tuple(words),
                                    words[0], {"area": area, "default": words[0]})
            pick = next((u for u in left if unit_word(u).lower() == str(answer).lower()), left[0])
        lost += weight(ctx, pick, table)
        taken += 1
        del st.units[pick.id]
    return lost


def alive(state: State, ids: list[int]) -> list[int]:
    return [i for i in ids if i in state.units]


def resolve(ctx: Ctx, b: Battle) -> str:
    """Steps 4-6 and the results, counterattacks included. Returns the last result."""
    st = ctx.state
    att_marker = def_marker = NO_MARKER
    if b.markers:
        att_marker = _choose_marker(ctx, b, b.attacker, attacking=True)
        def_marker = _choose_marker(ctx, b, b.defender, attacking=False)
    units = strength(ctx, b.att_ids, b.table)
    roll = ctx.die(f"{b.label}.combat")
    modified = roll + combat_modifier(ctx, b, att_marker, def_marker)
    result = ctx.rules.tables[b.table].result(units, modified)
    for uid in alive(st, b.att_ids) + alive(st, b.def_ids):
        st.units[uid].combats += 1
    b.rounds.append(result)
    table_name = "Raid" if b.table == "raid" else "Field/Naval Battle"
    ctx.say(f"{table_name} Table in {b.area}: {units} attacking unit(s), roll {roll} modified to {modified}: {result}.")
    if result == "CA":
        take_losses(ctx, b.attacker, b.att_ids, b.table, b.label, b.area, count=1)
        take_losses(ctx, b.defender, b.def_ids, b.table, b.label, b.area, count=1)
        if alive(st, b.def_ids) and alive(st, b.att_ids):
            answer = ctx.oracle.ask(ctx.seat(b.defender), f"{b.label}.counterattack",
                                    f"Counterattack in {b.area}?", ("counterattack", "no"), "counterattack",
                                    {"area": b.area})
            if answer == "counterattack":
                counter = Battle(b.area, b.table, b.defender, b.attacker, alive(st, b.def_ids), alive(st, b.att_ids),
                                 f"{b.label}.c", markers=False, rounds=b.rounds)
                ctx.say(f"Player {b.defender} counterattacks.")
                result = resolve(ctx, counter)
    elif result == "BB":
        att_units = alive(st, b.att_ids)
        most = len(att_units)
        choices = tuple(str(n) for n in range(1, most + 1))
        count = int(ctx.oracle.ask(ctx.seat(b.attacker), f"{b.label}.bloodbath",
                                   f"Bloodbath in {b.area}: how many of your units do you eliminate (1-{most})?",
                                   choices, "1", {"area": b.area}) or 1)
        lost = take_losses(ctx, b.attacker, att_units, b.table, b.label, b.area, count=max(1, count))
        take_losses(ctx, b.defender, b.def_ids, b.table, b.label, b.area, worth=lost)
    elif result == "DV":
        take_losses(ctx, b.defender, b.def_ids, b.table, b.label, b.area, worth=units)
        take_losses(ctx, b.attacker, b.att_ids, b.table, b.label, b.area, count=1)
    elif result == "DV+S":
        eliminate(ctx, b.def_ids, 10**6, b.table)
        # 10.3.2: the attacker "may" pick a marker (rules version 2 asks; before, the pick was made for him).
        if st.rules_version < SEED_READINGS or hand.pool_size(st) <= 0 or ctx.oracle.ask(
                ctx.seat(b.attacker), f"{b.label}.spoils_pick", f"DV+S in {b.area}: pick a stratagem marker as spoils?",
                SPOILS_CHOICES, SPOILS_CHOICES[0], {"area": b.area}) == SPOILS_CHOICES[0]:
            draw_marker(ctx, b.attacker, f"{b.label}.spoils")
        else:
            ctx.say(f"Player {b.attacker} picks no stratagem marker.")
    kill_kings(ctx, b.area)
    settle_control(st)
    return result


def _choose_marker(ctx: Ctx, b: Battle, side: str, *, attacking: bool) -> str:
    usable = usable_markers(ctx, side, b, attacking)
    if not usable:
        return NO_MARKER
    role = "attacker" if attacking else "defender"
    answer = ctx.oracle.ask(ctx.seat(side), f"{b.label}.{role}_marker",
                            f"Play a stratagem marker as {role} in {b.area}?", (NO_MARKER, *usable), NO_MARKER,
                            {"area": b.area})
    if answer in usable:
        spend_marker(ctx, side, answer)
        return answer
    return NO_MARKER


def draw_marker(ctx: Ctx, side: str, label: str, *, shows: bool = False) -> str | None:
    """A random pick from the pool (DV+S, 9.0), drawn under seal (hand.py): the marker when it is shown at once
    (``shows``: the Plague, the Pope and the Crusade in the Stratagem Phase), else None, even where this fold knows
    it, so that both folds go on alike."""
    st = ctx.state
    n = hand.pool_size(st)
    if n <= 0:
        return None
    sides = hand.pick_sides(st.book.source)
    got = ctx.oracle.pick(side, label, shows, sides, n)
    if "index" in got:  # examples of play: the pool is known, the marker is held openly
        marker = (hand.pool(st) or [])[got["index"]]
        if shows and marker in hand.IMMEDIATE:
            st.unseen.remove(marker)
            ctx.say(f"Player {side} draws a stratagem marker.")
            return marker
        hand.give(st, side, marker)
        ctx.say(f"Player {side} draws a stratagem marker.")
        return None
    ctx.say(f"Player {side} draws a stratagem marker (sealed: {got['digest'][:12]}…).")
    if got["shown"]:
        st.unseen.remove(got["marker"])
        return str(got["marker"])
    hand.seal(st, side, got["seq"], got["digest"], got["pick"], got["marker"])
    return None


def kill_kings(ctx: Ctx, area: str) -> None:
    """8.1: a King dies when every friendly unit stacked with him is eliminated."""
    st = ctx.state
    for power, king in st.kings.items():
        if king.area != area:
            continue
        side = st.side_of.get(power)
        if not any(side_of_power(st, u.power) == side for u in st.units_in(area)):
            king.area, king.died_turn = None, st.turn
            ctx.say(f"The King of {power} dies in battle in {area}.")


def initiative(ctx: Ctx, area: str, attacker: str, defender: str, label: str) -> str:
    """Step 2: secret bids of Military Advantage/Ambush markers, 1d6 + King + markers; the defender wins ties."""
    st = ctx.state
    bids: dict[str, int] = {}
    sealed: list[str] = []
    # Both bids are asked before either is used: a bid answered under seal stays unknown (SEALED) until both are in,
    # then the order waits for their reveal (the other side never sees a bid before making its own).
    for side in (attacker, defender):
        # Asked whenever the side may hold such a marker (public knowledge: hand.might_hold), up to its hand's size;
        # the bot's fold refuses a bid above what the hand holds, and each marker bid is revealed when spent.
        most = hand.count(st, side) if hand.might_hold(st, side, INITIATIVE_MARKERS) else 0
        if not most:
            bids[side] = 0
            continue
        key = f"{label}.bid.{side}"
        answer = ctx.oracle.ask(ctx.seat(side), key,
                                f"Initiative in {area}: how many Military Advantage/Ambush markers do you spend (0-{most})?",
                                tuple(str(n) for n in range(most + 1)), "0", {"area": area}, mode="bid")
        if answer == SEALED:
            sealed.append(f"{ctx.oracle.prefix}{key}")
            continue
        bids[side] = max(0, min(most, int(answer)))
    if sealed:
        raise NeedReveal(sealed)
    totals: dict[str, int] = {}
    for side in (attacker, defender):
        for _ in range(bids[side]):
            spend_marker(ctx, side, INITIATIVE_MARKERS)
        totals[side] = ctx.die(f"{label}.initiative.{side}") + king_with(st, side, area) + bids[side]
    winner = attacker if totals[attacker] > totals[defender] else defender
    ctx.say(f"Initiative in {area}: Player {attacker} {totals[attacker]}, Player {defender} {totals[defender]}: "
            f"Player {winner} has it.")
    return winner


def choose_table(ctx: Ctx, chooser: str, b_att: list[int], label: str, area: str) -> str:
    field_units = strength(ctx, b_att, "field")
    raid_units = strength(ctx, b_att, "raid")
    default = "field battle"
    answer = ctx.oracle.ask(ctx.seat(chooser), f"{label}.table", f"You have the initiative in {area}: raid or field battle?",
                            ("field battle", "raid"), default, {"area": area, "field": field_units, "raid": raid_units})
    return "raid" if answer == "raid" else "field"
