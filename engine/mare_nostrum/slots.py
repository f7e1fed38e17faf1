"""Binding rolls to lottery slots, and resolving them when the draw is known.

A roll is bound, when it is asked for, to a slot of a future draw: a date, a wheel and a position.
The date is the first of the event's offered future draws (``Event.draws``, stamped by the shell's
clock) that is later than the turn's own draw and still has a free slot. Within a draw the slots are
taken in a fixed sequence that never touches the numbers the turn itself uses (each nation's wheel,
positions 1-3) nor the Nazionale wheel (it did not exist before 2005). No slot is ever used twice.
"""
from __future__ import annotations

from collections.abc import Callable

from engine.events import Rejection
from engine.lotto import WHEELS
from engine.mare_nostrum.context import Ctx, ordinal
from engine.mare_nostrum.state import Roll


def roll_slots(nation_wheels: list[str]) -> list[tuple[str, int]]:
    free_wheels = [w for w in WHEELS if w not in nation_wheels and w != "RN"]
    slots = [(w, p) for p in range(1, 6) for w in free_wheels]
    slots += [(w, p) for p in (4, 5) for w in nation_wheels]
    return slots


def slot_key(date: str, wheel: str, position: int) -> str:
    return f"{date}|{wheel}|{position}"


def bind(
    ctx: Ctx, purpose: str, nation: str | None, meaning: str, ref: int | None = None, target: str | None = None,
    *, announce: bool = True,
) -> Roll:
    floor = ctx.state.turn_draw or ""
    candidates = sorted(d for d in ctx.event.draws if d > floor)
    if not candidates:
        raise Rejection(
            "no future lottery draw is known to bind this roll to; the GM must import the coming draws first"
        )
    return bind_in(ctx, candidates, purpose, nation, meaning, ref, target, announce=announce)


def bind_in(
    ctx: Ctx, dates: list[str], purpose: str, nation: str | None, meaning: str, ref: int | None = None,
    target: str | None = None, *, announce: bool = True, turn: int | None = None,
) -> Roll:
    """Bind a roll to the first free slot of the first of ``dates`` that has one."""
    state = ctx.state
    used = set(state.used_slots)
    slots = roll_slots([n.wheel for n in ctx.rules.nations.values()])
    for date in dates:
        for wheel, position in slots:
            key = slot_key(date, wheel, position)
            if key in used:
                continue
            state.used_slots.append(key)
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


Resolver = Callable[[Ctx, Roll], None]


def settle(ctx: Ctx, resolvers: dict[str, Resolver]) -> None:
    """Give every pending roll whose draw is known its number, and let its rule act on it."""
    progress = True
    while progress:
        progress = False
        for roll in ctx.state.rolls:
            if roll.number is not None:
                continue
            numbers = ctx.state.draws.get(roll.draw)
            if numbers is None:
                continue
            roll.number = numbers[roll.wheel][roll.position - 1]
            resolvers[roll.purpose](ctx, roll)
            progress = True
