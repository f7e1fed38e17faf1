"""The GM's ad-hoc rolls (``/roll 2d6 siege of Numantia``), bound to lottery slots like every other roll.

Each die takes one slot (sides that divide 90) or two (any other die; see engine/dice.py). The slots are
bound when the GM asks, before the draw is known, and each slot is an ordinary Roll: the ledger lists it
and ``legatus verify`` re-derives it like any other. A refused pair binds the next two free slots at once,
starting in the same draw, so a replay on the same numbers takes the very same slots again.
"""
from __future__ import annotations

from engine import commit_reveal
from engine import dice as dicelib
from engine.events import Rejection
from engine.mare_nostrum.context import Ctx, ordinal
from engine.mare_nostrum.slots import bind, bind_in
from engine.mare_nostrum.state import COMMIT_REVEAL, GmRoll, Roll

PURPOSE = "gm_roll"


def request(ctx: Ctx) -> None:
    state, data = ctx.state, ctx.event.data
    if ctx.event.actor != state.gm:
        raise Rejection(f"only the GM ({state.gm}) can roll dice")
    try:
        dice = dicelib.parse(str(data.get("dice", "")))
    except dicelib.DiceError as exc:
        raise Rejection(str(exc)) from None
    label = " ".join(str(data.get("label") or "").split())
    by = str(data.get("by") or ctx.event.actor)
    roll = GmRoll(id=state.new_id(), turn=state.turn, dice=dice.text, label=label, by=by)
    state.gm_rolls.append(roll)
    bound: list[list[Roll]] = []
    avoid: list[Roll] = []  # no two numbers of one roll on one wheel of one draw
    for k in range(1, dice.count + 1):
        slots = []
        for j in range(dice.numbers_per_die):
            slot = bind(ctx, PURPOSE, None, _meaning(roll, dice, k, j), ref=roll.id, announce=False, avoid=avoid,
                        whole_wheels=True)
            avoid.append(slot)
            slots.append(slot)
        bound.append(slots)
        roll.slots.append([s.id for s in slots])
        roll.values.append(None)
    ctx.say(
        f"GM roll #{roll.id}: {_title(roll)} (by {by}) bound to {_where(bound, ctx.state.commit_reveal_rule)}; {dicelib.rule(dice.sides)}."
    )


def resolve(ctx: Ctx, slot: Roll) -> None:
    assert slot.ref is not None and slot.number is not None
    state = ctx.state
    roll = state.gm_roll(slot.ref)
    dice = dicelib.parse(roll.dice)
    per_die = dice.numbers_per_die
    k = next(i for i, ids in enumerate(roll.slots) if slot.id in ids)
    ids = roll.slots[k]
    start = ids.index(slot.id) - ids.index(slot.id) % per_die
    group = [state.roll(i) for i in ids[start:start + per_die]]
    if per_die == 1:
        value = dicelib.die_from_number(slot.number, dice.sides)
        slot.outcome = f"die {k + 1} = {value}"
        roll.values[k] = value
    else:
        waiting = [r for r in group if r.number is None]
        if waiting:
            slot.outcome = f"die {k + 1}: waiting for the other number of its pair (roll #{waiting[0].id})"
            return
        first, second = (r.number for r in group)
        assert first is not None and second is not None
        pair = dicelib.pair_value(first, second)
        value_or_none = dicelib.die_from_pair(first, second, dice.sides)
        if value_or_none is None:
            _roll_again(ctx, roll, dice, k, group, pair)
            return
        for r in group:
            r.outcome = f"die {k + 1} = {value_or_none} (pair value {pair})"
        roll.values[k] = value_or_none
    _finish(ctx, roll, dice)


def _roll_again(ctx: Ctx, roll: GmRoll, dice: dicelib.Dice, k: int, group: list[Roll], pair: int) -> None:
    """Rejection sampling: the refused pair is kept in the ledger and the die takes the next two free slots."""
    limit = dicelib.pair_limit(dice.sides)
    # The same draw first: its free slots were fixed when it was drawn, so nobody can choose the re-roll.
    last = max(r.draw for r in group)
    dates = [last] + sorted(d for d in ctx.event.draws if d > last)
    try:
        again: list[Roll] = []
        for j in range(2):
            again.append(bind_in(ctx, dates, PURPOSE, None, _meaning(roll, dice, k + 1, j, again=True), ref=roll.id,
                                 announce=False, turn=roll.turn, avoid=again,
                                 whole_wheels=True))
    except Rejection:
        for r in group:
            r.outcome = f"pair value {pair} refused (>= {limit}); no free slot is left to roll die {k + 1} again"
        ctx.say(
            f"GM roll #{roll.id} ({_title(roll)}): die {k + 1} must roll again but every slot of the coming draws "
            "is taken; the GM must import later draws and roll again."
        )
        return
    roll.slots[k].extend(r.id for r in again)
    for r in group:
        r.outcome = f"pair value {pair} refused (>= {limit}): die {k + 1} rolls again on rolls #{again[0].id} and #{again[1].id}"
    ctx.say(
        f"GM roll #{roll.id} ({_title(roll)}): the pair for die {k + 1} makes {pair}, which is refused "
        f"(>= {limit}); die {k + 1} rolls again on {_where([again], ctx.state.commit_reveal_rule)}."
    )


def _finish(ctx: Ctx, roll: GmRoll, dice: dicelib.Dice) -> None:
    if roll.total is not None or any(v is None for v in roll.values):
        return
    values = [v for v in roll.values if v is not None]
    roll.total = sum(values) + dice.modifier
    ctx.say(f"{_title(roll, quoted=False)}: {dicelib.total_text(dice, values)}")


def _title(roll: GmRoll, *, quoted: bool = True) -> str:
    if not roll.label:
        return roll.dice
    return f"{roll.dice} '{roll.label}'" if quoted else f"{roll.dice} {roll.label}"


def _meaning(roll: GmRoll, dice: dicelib.Dice, k: int, j: int, *, again: bool = False) -> str:
    what = f"die {k} of {_title(roll)}"
    if dice.numbers_per_die == 2:
        what += f", {'first' if j == 0 else 'second'} number of its {'next ' if again else ''}pair"
    return f"{what}: {dicelib.rule(dice.sides)}"


def _where(dice_slots: list[list[Roll]], rule: int = 1) -> str:
    """'the draw of D (die 1: PA 1st, die 2: RM 1st)', naming every date when the dice span several draws."""
    first = dice_slots[0][0].draw
    if first == COMMIT_REVEAL:
        labels = [" + ".join(f"'{s.label}'" for s in slots) for slots in dice_slots]
        named = [f"die {k}: {text}" if len(dice_slots) > 1 else text for k, text in enumerate(labels, 1)]
        rounds = sorted({r for slots in dice_slots for s in slots if (r := commit_reveal.mixing_round(s.label or ""))}, key=int)
        mixed = f", mixed with drand quicknet round {', '.join(rounds)}: the dice come once it is drawn" if rounds else ""
        if rule != 1 and rounds:  # commit_reveal_rule 2: the numbers are the rounds' alone, not the seed's
            return (f"drand quicknet round {', '.join(rounds)} (label{'s' if sum(map(len, dice_slots)) > 1 else ''} "
                    f"{', '.join(named)}): the dice come once it is drawn, checkable by anyone at once")
        return f"the commit-reveal seed (label{'s' if sum(map(len, dice_slots)) > 1 else ''} {', '.join(named)}){mixed}"
    parts = []
    for k, slots in enumerate(dice_slots, 1):
        names = " + ".join(
            (f"{s.draw} " if s.draw != first else "") + f"{s.wheel} {ordinal(s.position)}" for s in slots
        )
        parts.append(f"die {k}: {names}" if len(dice_slots) > 1 else names)
    return f"the draw of {first} ({', '.join(parts)})"
