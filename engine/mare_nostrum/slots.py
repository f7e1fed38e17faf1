"""Binding rolls to lottery slots, and resolving them when the draw is known.

A roll is bound, when it is asked for, to a slot of a future draw: a date, a wheel and a position.
The date is the first of the event's offered future draws (``Event.draws``, stamped by the shell's
clock) that is later than the turn's own draw and still has a free slot. Within a draw the slots are
taken in a fixed sequence that never touches the numbers the turn itself uses (each nation's wheel,
positions 1-3) nor the Nazionale wheel (it did not exist before 2005). No slot is ever used twice.

A campaign whose ``randomness`` is commit-reveal binds these rolls to a label instead
("turn-3:roll-17:siege", deterministic from the state; a label is never used twice, even after an undo):
the shell derives its number 1..90 from the seed it committed to at creation and records it in a
``random.recorded`` event. When the shell offers a drand round, the label is also mixed with it
("...@drand:<round>", engine/commit_reveal.py): the number waits for that round's beacon, so whoever holds the
seed cannot foresee it either. Once the
GM revealed the seed no roll can bind any more: its every number could be computed in advance. A campaign created
under ``commit_reveal_rule`` 2 binds a label only with a round, and its number is that round's alone (recorded all
the same, and refused if it is not the round's): checkable at once, no reveal needed.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from engine import commit_reveal
from engine.chance import lottery_slots
from engine.chance.slot_policy import SlotPolicy
from engine.chance.sources import commit_reveal as commit_reveal_source
from engine.chance.sources import drand as drand_source
from engine.chance.sources import lottery as lottery_source
from engine.events import Rejection
from engine.mare_nostrum.context import Ctx, ordinal
from engine.mare_nostrum.state import COMMIT_REVEAL, DRAND, Roll, State

# The slots, offered values and derivations are the sources' own (engine/chance/sources/): only the order of
# Mare Nostrum's slots, which its rules fix, is this module's.
DRAND_PREFIX = drand_source.PREFIX
slot_key = lottery_source.slot_key
NATION_POSITIONS = (4, 5)  # a nation's wheel: positions 1-3 are the turn's own (order of play, event, attack)


@functools.cache
def slot_policy(nation_wheels: tuple[str, ...]) -> SlotPolicy:
    """Mare Nostrum's rolls as the chance book's slot policy: every free wheel's 1st number, ..., their 5th; then the
    nations' wheels' 4th and 5th. Under rule 2 (the GM's dice) a free wheel gives its 1st, a nation's its 4th."""
    free_wheels = [w for w in lottery_source.ROLL_WHEELS if w not in nation_wheels]
    slots = [(w, p) for p in lottery_source.POSITIONS for w in free_wheels]
    slots += [(w, p) for p in NATION_POSITIONS for w in nation_wheels]
    return SlotPolicy(tuple(slots))


def roll_slots(nation_wheels: list[str]) -> list[tuple[str, int]]:
    return list(slot_policy(tuple(nation_wheels)).order)


def bind(
    ctx: Ctx, purpose: str, nation: str | None, meaning: str, ref: int | None = None, target: str | None = None,
    *, announce: bool = True, avoid: set[tuple[str, str]] | None = None, whole_wheels: bool = False,
) -> Roll:
    """``avoid``: (date, wheel) pairs the same roll already uses: numbers of one wheel and draw are drawn without
    replacement, so two of them are linked (two d6 on one wheel would be equal with probability 14/89).
    ``whole_wheels`` (the GM's dice): under slot rule 2 the roll takes a wheel no roll uses, and owns it."""
    if ctx.state.randomness == COMMIT_REVEAL:
        return bind_label(ctx, purpose, nation, meaning, ref, target, announce=announce)
    if ctx.state.randomness == DRAND:
        return bind_round(ctx, purpose, nation, meaning, ref, target, announce=announce)
    floor = ctx.state.turn_draw or ""
    candidates = [d for d in lottery_source.offered_dates(ctx.event) if d > floor]
    if not candidates:
        raise Rejection(
            "no future lottery draw is known to bind this roll to; the GM must import the coming draws first"
        )
    return bind_in(ctx, candidates, purpose, nation, meaning, ref, target, announce=announce, avoid=avoid,
                   whole_wheels=whole_wheels)


def bind_in(
    ctx: Ctx, dates: list[str], purpose: str, nation: str | None, meaning: str, ref: int | None = None,
    target: str | None = None, *, announce: bool = True, turn: int | None = None,
    avoid: set[tuple[str, str]] | None = None, whole_wheels: bool = False,
) -> Roll:
    """Bind a roll to the first free slot of the first of ``dates`` that has one (on a wheel not in ``avoid``)."""
    state = ctx.state
    if state.randomness == COMMIT_REVEAL:
        return bind_label(ctx, purpose, nation, meaning, ref, target, announce=announce, turn=turn)
    if state.randomness == DRAND:
        return bind_round(ctx, purpose, nation, meaning, ref, target, announce=announce, turn=turn)
    for date, wheel, position in free_slots(ctx, dates, avoid, whole_wheels=whole_wheels):
        state.used_slots[slot_key(date, wheel, position)] = None
        if whole_wheels and state.slot_rule == lottery_slots.ONE_NUMBER_PER_WHEEL:
            reserve_wheel(ctx, date, wheel)
        roll = Roll(
            id=state.new_id(), turn=state.turn if turn is None else turn, purpose=purpose, nation=nation,
            draw=date, wheel=wheel, position=position, meaning=meaning, ref=ref, target=target,
        )
        state.rolls.append(roll)
        if announce:
            ctx.say(
                f"Roll #{roll.id} ({purpose.replace('_', ' ')}{', ' + nation if nation else ''}) bound to the draw of "
                f"{date}, wheel {wheel}, {ordinal(position)} number: {meaning}."
            )
        return roll
    raise Rejection("every lottery slot of the coming draws is taken; the GM must import later draws first")


def bind_label(
    ctx: Ctx, purpose: str, nation: str | None, meaning: str, ref: int | None = None, target: str | None = None,
    *, announce: bool = True, turn: int | None = None,
) -> Roll:
    """Bind a roll to a fresh label of the campaign's commit-reveal seed."""
    state = ctx.state
    if state.seed is not None:
        raise Rejection(
            "the commit-reveal seed has been revealed and is public now: a new roll bound to it could be "
            "computed in advance, so no roll can be made any more in this campaign"
        )
    mixed = commit_reveal_source.round_to_mix(ctx.event, state.commit_reveal_rule)
    roll_id = state.new_id()
    roll_turn = state.turn if turn is None else turn
    base = f"turn-{roll_turn}:roll-{roll_id}:{purpose}"
    label, again = base, 1
    while label in state.used_labels or label in state.numbers:
        again += 1
        label = f"{base}:{again}"
    state.used_labels.append(label)
    if mixed is not None:
        label = commit_reveal_source.mixed(label, mixed)
        state.used_labels.append(label)
    roll = Roll(
        id=roll_id, turn=roll_turn, purpose=purpose, nation=nation, draw=COMMIT_REVEAL, wheel="", position=0,
        meaning=meaning, ref=ref, target=target, label=label,
    )
    state.rolls.append(roll)
    if announce and mixed is not None and state.commit_reveal_rule != 1:
        ctx.say(
            f"Roll #{roll.id} ({purpose.replace('_', ' ')}{', ' + nation if nation else ''}) bound to drand quicknet "
            f"round {drand_source.round_of(mixed)}, label '{label}' (its number is the round's, checkable by anyone as soon "
            f"as it is recorded): {meaning}."
        )
    elif announce:
        ctx.say(
            f"Roll #{roll.id} ({purpose.replace('_', ' ')}{', ' + nation if nation else ''}) bound to the commit-reveal "
            f"seed (commitment {(state.commitment or '')[:12]}…), label '{label}'"
            + (f", mixed with drand quicknet round {drand_source.round_of(mixed)}" if mixed else "") + f": {meaning}."
        )
    return roll


def bind_round(
    ctx: Ctx, purpose: str, nation: str | None, meaning: str, ref: int | None = None, target: str | None = None,
    *, announce: bool = True, turn: int | None = None,
) -> Roll:
    """Bind a roll to the first drand round the shell offered (a round still in the future) and a fresh label: its
    number is ``derive.values(randomness of that round, label, 1, 1, 90)``."""
    state = ctx.state
    first = drand_source.first_round(ctx.event)
    roll_id = state.new_id()
    roll_turn = state.turn if turn is None else turn
    base = f"turn-{roll_turn}:roll-{roll_id}:{purpose}"
    label, again = base, 1
    while label in state.used_labels:
        again += 1
        label = f"{base}:{again}"
    state.used_labels.append(label)
    roll = Roll(id=roll_id, turn=roll_turn, purpose=purpose, nation=nation, draw=first, wheel="", position=0,
                meaning=meaning, ref=ref, target=target, label=label)
    state.rolls.append(roll)
    if announce:
        ctx.say(
            f"Roll #{roll.id} ({purpose.replace('_', ' ')}{', ' + nation if nation else ''}) bound to drand quicknet "
            f"round {drand_source.round_of(first)}, label '{label}': {meaning}."
        )
    return roll


def rebind_cancelled(ctx: Ctx, day: str) -> list[Roll]:
    """A draw ruled not held (``draw.cancelled``): each roll waiting for it is bound again, in binding order, to
    the first free slots of the later draws offered now, still to come, as any new roll would be; its old slot
    stays used. The rolls bound again, with their new slots."""
    state = ctx.state
    later = later_draws(ctx, day)
    moved = [r for r in state.open_rolls() if r.number is None and r.draw == day]
    if moved and not later:
        raise Rejection(f"no later lottery draw is known to bind the rolls of {day} to again; import the coming draws first")
    free = iter(list(free_slots(ctx, later)))
    for roll in moved:
        try:
            date, wheel, position = next(free)
        except StopIteration:
            raise Rejection("every lottery slot of the coming draws is taken; import later draws first") from None
        state.used_slots[slot_key(date, wheel, position)] = None
        roll.draw, roll.wheel, roll.position = date, wheel, position
        ctx.say(f"Roll #{roll.id} ({roll.purpose.replace('_', ' ')}{', ' + roll.nation if roll.nation else ''}) is bound "
                f"again to the draw of {date}, wheel {wheel}, {ordinal(position)} number.")
    return moved


def free_slots(ctx: Ctx, dates: list[str], avoid: set[tuple[str, str]] | None = None, *,
               whole_wheels: bool = False) -> Iterator[tuple[str, str, int]]:
    """The slots (date, wheel, position) not used yet, of ``dates`` in order and each draw's fixed sequence, on no
    (date, wheel) in ``avoid``. A slot it yields and the caller then uses lies behind the walk: read live, the used
    slots answer as they did when the walk started."""
    used = ctx.state.used_slots
    policy = _policy(ctx)
    if whole_wheels and ctx.state.slot_rule == lottery_slots.ONE_NUMBER_PER_WHEEL:
        # Rule 2, for the GM's dice: the first roll slot of each wheel of which no roll slot is used on that draw (a
        # free wheel's 1st number, a nation's wheel's 4th: its first three are the turn's own). ``reserve_wheel`` then
        # takes the wheel's other roll slots out of use, so no other roll is linked to the die.
        yield from lottery_source.unused_wheels(used, dates, policy.wheels())
        return
    yield from lottery_source.free_in_order(used, dates, policy.order, avoid or ())


def _policy(ctx: Ctx) -> SlotPolicy:
    return slot_policy(tuple(n.wheel for n in ctx.rules.nations.values()))


def reserve_wheel(ctx: Ctx, date: str, wheel: str) -> None:
    """Mark every roll slot of ``wheel`` on ``date`` used: a die bound there under rule 2 owns the wheel."""
    for position in dict(_policy(ctx).wheels())[wheel]:
        ctx.state.used_slots[slot_key(date, wheel, position)] = None


def later_draws(ctx: Ctx, day: str) -> list[str]:
    """The lottery draws the event offers after ``day``, in order."""
    return [d for d in lottery_source.offered_dates(ctx.event) if d > day]


def pending_rounds(state: State) -> list[str]:
    """The drand rounds bound and still waiting for their beacon: a drand roll's, or the round a commit-reveal
    label is mixed with."""
    wanted = {drand_source.round_of(r.draw) for r in state.open_rolls()
              if r.number is None and r.draw.startswith(DRAND_PREFIX)}
    wanted |= {mixing for label in _waiting_labels(state)
               if (mixing := commit_reveal.mixing_round(label)) is not None}
    return sorted((w for w in wanted if w not in state.beacons), key=int)


def _waiting_labels(state: State) -> list[str]:
    return [r.label for r in state.open_rolls() if r.draw == COMMIT_REVEAL and r.number is None and r.label is not None
            and r.label not in state.numbers]


def pending_labels(state: State) -> list[tuple[str, str]]:
    """The commit-reveal labels bound and ready for their number, each with the randomness of the drand round it
    is mixed with ("" for a label drawn from the seed alone); a label whose round is not recorded yet waits."""
    ready = []
    for label in _waiting_labels(state):
        mixing = commit_reveal.mixing_round(label)
        if mixing is None:
            ready.append((label, ""))
        elif mixing in state.beacons:
            ready.append((label, state.beacons[mixing]))
    return ready


Resolver = Callable[[Ctx, Roll], None]


def settle(ctx: Ctx, resolvers: dict[str, Resolver]) -> None:
    """Give every pending roll whose draw is known its number, and let its rule act on it."""
    progress = True
    while progress:
        progress = False
        for roll in ctx.state.open_rolls():  # those of closed turns all have their number
            if roll.number is not None:
                continue
            if roll.draw == COMMIT_REVEAL:
                number = ctx.state.numbers.get(roll.label or "")
                if number is None:
                    continue
                roll.number = number
            elif roll.draw.startswith(DRAND_PREFIX):
                randomness = ctx.state.beacons.get(drand_source.round_of(roll.draw))
                if randomness is None:
                    continue
                roll.number = drand_source.value_of(randomness, roll.label or "", 1, 1, 90)[0]
            else:
                number = lottery_source.number_at(ctx.state.draws, roll.draw, roll.wheel, roll.position)
                if number is None:
                    continue
                roll.number = number
            resolvers[roll.purpose](ctx, roll)
            progress = True
