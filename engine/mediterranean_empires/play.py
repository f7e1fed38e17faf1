"""One order, played against the state by the handler of its kind: phase and turn checks, then the rule function it
names."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.mediterranean_empires import crusaders, hand, operations, politics, turn
from engine.mediterranean_empires.asks import asked_of
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx, other
from engine.mediterranean_empires.control import add_treasury, side_of_power
from engine.mediterranean_empires.orders import (Activate, Answer, Attack, Attempt, CoastalRaid, Done, Draw, Drop,
                                                  Embark, End, EndOperations, Land, Move, Order, Pass, Place, Play,
                                                  Recruit, Redistribute, Return, StandardSetUp, Standing)
from engine.mediterranean_empires.rules_data import kind_word
from engine.mediterranean_empires.rules_version import SEED_READINGS, SEED_SETUP

def play(ctx: Ctx, side: str, order: Order) -> None:
    if ctx.state.phase == "over":
        raise Rejection("the game is over")
    HANDLERS[type(order)](ctx, side, order)


def _draw(ctx: Ctx, side: str, order: Draw) -> None:
    turn.draw(ctx, side)


def _political(ctx: Ctx, side: str) -> None:
    st = ctx.state
    if st.phase != "political":
        raise Rejection(f"political attempts are made in the Political Phase; this is the {st.phase} phase")
    if st.to_move != side:
        raise Rejection(f"Player {st.to_move} acts now in this round")


def _attempt(ctx: Ctx, side: str, order: Attempt) -> None:
    _political(ctx, side)
    politics.attempt(ctx, side, order.kind, order.power, politics.Modifiers(order.king, bool(order.pope), bool(order.tp)),
                     cede=order.cede)
    turn.political_done(ctx, side)


def _pass(ctx: Ctx, side: str, order: Pass) -> None:
    _political(ctx, side)
    lost = politics.forfeit(ctx, side, order.forfeit)
    ctx.say(f"Player {side} passes" + (f", forfeiting the {lost} attempt." if lost else "."))
    turn.political_done(ctx, side)


def _recruit(ctx: Ctx, side: str, order: Recruit) -> None:
    turn.recruit(ctx, side, order.power, order.kind, order.area, order.count)


def _return(ctx: Ctx, side: str, order: Return) -> None:
    crusaders.bring_back(ctx, side, order.power, order.kind, order.area, order.count)


def _done(ctx: Ctx, side: str, order: Done) -> None:
    if ctx.state.phase == "recruitment":
        turn.recruitment_done(ctx, side)
    elif ctx.state.phase == "end of turn":
        turn.end_of_turn_done(ctx, side)
    else:
        raise Rejection("'done' ends your recruitment or your redistribution; in operations say 'end operations'")


def _activate(ctx: Ctx, side: str, order: Activate) -> None:
    _operating(ctx, side)
    ids = _pick(ctx, side, order.power, order.area, order.kind, order.count, ready=True)
    operations.activate_force(ctx, side, order.area, ids, with_king=order.king, markers=order.markers, label="force")


def _move(ctx: Ctx, side: str, order: Move) -> None:
    _operating(ctx, side)
    operations.move(ctx, order.to)


def _attack(ctx: Ctx, side: str, order: Attack) -> None:
    _operating(ctx, side)
    operations.attack(ctx)


def _embark(ctx: Ctx, side: str, order: Embark) -> None:
    _operating(ctx, side)
    st = ctx.state
    f = operations.force(ctx)
    if not f.naval and st.rules_version >= SEED_READINGS:
        wanted = [u.id for u in st.units_in(order.origin) if u.kind != "fleet" and not u.done and u.power == f.power
                  and u.id not in f.ids and order.kind in (None, u.kind)]
        operations.pick_up(ctx, order.origin, wanted[:order.count] if order.count else wanted)
        return
    ready = [u for u in st.units_in(order.origin) if u.kind != "fleet" and not u.done
             and side_of_power(st, u.power) == side and (order.kind in (None, u.kind))]
    room = 2 * len(f.ids) - len(f.cargo)
    want = order.count or room
    operations.embark(ctx, order.origin, [u.id for u in ready][:min(want, room)])


def _land(ctx: Ctx, side: str, order: Land) -> None:
    _operating(ctx, side)
    operations.debark(ctx, order.place)


def _coastal_raid(ctx: Ctx, side: str, order: CoastalRaid) -> None:
    _operating(ctx, side)
    operations.coastal_raid(ctx, order.place)


def _drop(ctx: Ctx, side: str, order: Drop) -> None:
    _operating(ctx, side)
    f = operations.force(ctx)
    ids = [i for i in f.ids if ctx.state.units[i].kind == order.kind][: order.count]
    if len(ids) < order.count:
        raise Rejection(f"the force has fewer than {order.count} {kind_word(order.kind)}")
    operations.drop(ctx, ids)


def _end(ctx: Ctx, side: str, order: End) -> None:
    _operating(ctx, side)
    operations.end(ctx)


def _end_operations(ctx: Ctx, side: str, order: EndOperations) -> None:
    _operating(ctx, side)
    turn.end_operations(ctx, side)


def _redistribute(ctx: Ctx, side: str, order: Redistribute) -> None:
    st = ctx.state
    if order.count > (2 if order.kind == "levy" else 1):
        raise Rejection("one unit at a time, or two levies (5.2)")
    every = _pick(ctx, side, order.power, order.origin, order.kind, None, ready=False)
    # 5.2: once per unit; a unit moved here this phase is not the one to take when another can go (it was).
    ids = [uid for uid in every if not st.units[uid].redistributed][: order.count]
    if len(ids) < order.count:
        raise Rejection(f"{order.power} has {len(ids)} {kind_word(order.kind)}(s) in {order.origin} not yet "
                        f"redistributed this phase, not {order.count} (5.2: once per unit)")
    for uid in ids:
        turn.redistribute(ctx, side, uid, order.to)
    turn.redistributed(ctx, side)


def _play(ctx: Ctx, side: str, order: Play) -> None:
    _play_marker(ctx, side, order.marker)


def _set_up_over(ctx: Ctx, side: str, order: Order) -> None:
    """A placement once the set-up is behind (the ruleset plays the set-up phase itself, ``_set_up``)."""
    if ctx.state.rules_version < SEED_SETUP:
        raise Rejection("this campaign began with the documented set-up on the map (created before the set-up was "
                        "played, rules version 3): the GM corrects a placement with /gm set units")
    raise Rejection("the set-up is over: units come onto the map by recruitment ('recruit a levy of France in "
                    "Vienne', 6.2)")


def _no_order(ctx: Ctx, side: str, order: Order) -> None:
    """A line read as an answer when no question is put to its seat (or a standing order played as an order)."""
    st = ctx.state
    asked = asked_of(st, side, ctx.rules.seat_of_side(side))
    now = (f"now you are asked: {asked}" if asked else
           f"nothing is asked of you now ({'the game is over' if st.phase == 'over' else f'the {st.phase} phase'}"
           + (f", Player {st.to_move} to act)" if st.phase != "over" else ")"))
    written = order.answer if isinstance(order, Answer) else order.name
    raise Rejection(f"'{written}' is not an order; {now}")


Handler = Callable[[Ctx, str, Any], None]
# One handler per kind of order (orders.ORDER_TYPES); a standing order is kept by the ruleset before it comes here.
HANDLERS: dict[type[Order], Handler] = {
    Draw: _draw, Attempt: _attempt, Pass: _pass, Recruit: _recruit, Return: _return, Done: _done,
    Activate: _activate, Move: _move, Attack: _attack, Embark: _embark, Land: _land, CoastalRaid: _coastal_raid,
    Drop: _drop, End: _end, EndOperations: _end_operations, Redistribute: _redistribute, Play: _play,
    Place: _set_up_over, StandardSetUp: _set_up_over, Standing: _no_order, Answer: _no_order,
}


def _operating(ctx: Ctx, side: str) -> None:
    if ctx.state.phase != f"operations {side}":
        raise Rejection(f"this is not your Operations Phase (now: {ctx.state.phase})")


def _pick(ctx: Ctx, side: str, power: str, area: str, kind: str | None, count: int | None, *, ready: bool) -> list[int]:
    st = ctx.state
    naval = area in ctx.rules.map.seas
    units = [u for u in st.units_in(area) if u.power == power and (u.kind == "fleet") == naval
             and (kind is None or u.kind == kind) and not (ready and u.done)]
    if side_of_power(st, power) != side:
        raise Rejection(f"{power}'s units are not yours to command")
    if not units:
        what = kind_word(kind) if kind else ("fleets" if naval else "land units")
        raise Rejection(f"no {'ready ' if ready else ''}{what} of {power} in {area}")
    if count is not None and len(units) < count:
        raise Rejection(f"{power} has only {len(units)} {kind_word(kind or 'unit')}(s) ready in {area}, not {count}")
    return [u.id for u in units][: count or len(units)]


def _play_marker(ctx: Ctx, side: str, marker: str) -> None:
    """Piracy, Gold and Trade Concession, played in the Joint Recruitment Phase (12.0): the marker is revealed
    (hand.claim, refused where it is not held) and stays face up until the End of Turn Phase."""
    st = ctx.state
    if marker not in (turn.PIRACY, turn.GOLD, turn.TRADE):
        raise Rejection(f"{marker} is not played by itself: it is used when its moment comes (12.0)")
    if st.phase != "recruitment":
        raise Rejection(f"{marker} is played in the Joint Recruitment Phase, after treasury points are collected")
    hand.claim(ctx, side, (marker,))
    st.played.append([side, marker])
    if marker == turn.PIRACY:
        # "The opposing player reduces his total TP gained by 2": the TP gained this phase, never the savings.
        victim = st.sides[other(side)]
        lost = -add_treasury(ctx.rules, st, other(side), -min(2, victim.gained))
        victim.gained -= lost
        ctx.say(f"Player {side} plays Piracy: Player {other(side)} loses {lost} TP of those gained this turn"
                + (f" (only {lost} were gained)" if lost < 2 else "") + f", treasury {victim.treasury}.")
        return
    extra = 1 if marker == turn.GOLD else 2
    gained = add_treasury(ctx.rules, st, side, extra)
    st.sides[side].gained += gained
    ctx.say(f"Player {side} plays {marker}: {gained} TP" + (f" ({extra - gained} forfeit over the cap)" if gained < extra else "")
            + f", treasury {st.sides[side].treasury}.")
