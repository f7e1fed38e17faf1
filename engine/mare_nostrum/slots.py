"""Mare Nostrum's rolls on the campaign's chance book: how its rules ask for a number, and settle it once known.

Every roll is one number 1..90 that the rule tables read raw, asked of the book (engine/chance/book.py) with what
Mare Nostrum's rules fix, so a campaign folds as it always did:

* its id comes from the state's one counter, shared with battles, GM rolls and invasions (the public view shows it);
* its label is ``turn-T:roll-ID:purpose`` (``:2``, ``:3``... if that one was ever handed out): a drand roll's
  number is derived from it, a commit-reveal roll's number is the seed's (and its round's) for it;
* a lottery roll binds to a slot of a draw later than the turn's own (``after``), in the order of ``slot_policy``:
  never a nation's wheel's 1st to 3rd numbers, which the turn itself reads, nor the Nazionale wheel (it did not exist
  before 2005). Under slot rule 2 only the GM's dice take a wheel of their own (``whole_wheels``).

A campaign whose ``randomness`` is commit-reveal binds these rolls to a label of its committed seed; the shell
derives its number and records it in a ``random.recorded`` event. When the shell offers a drand round, the label
is also mixed with it ("...@drand:<round>", engine/commit_reveal.py): the number waits for that round's beacon, so
whoever holds the seed cannot foresee it either. Once the GM revealed the seed no roll can bind any more: its every
number could be computed in advance. A campaign created under ``commit_reveal_rule`` 2 binds a label only with a
round, and its number is that round's alone (recorded all the same, and refused if it is not the round's).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import replace

from engine import commit_reveal
from engine.chance import book as chance
from engine.chance.slot_policy import SlotPolicy
from engine.chance.sources import drand as drand_source
from engine.chance.sources import lottery as lottery_source
from engine.events import Event, Rejection
from engine.mare_nostrum.context import Ctx, ordinal
from engine.mare_nostrum.state import COMMIT_REVEAL, DRAND, Roll, State

DRAND_PREFIX = drand_source.PREFIX
slot_key = lottery_source.slot_key
NATION_POSITIONS = (4, 5)  # a nation's wheel: positions 1-3 are the turn's own (order of play, event, attack)
LOW, HIGH = 1, 90  # a roll is one raw lottery number (or one derived on that range): the rule tables read 1..90


@functools.cache
def slot_policy(nation_wheels: tuple[str, ...]) -> SlotPolicy:
    """Mare Nostrum's rolls as the chance book's slot policy: every free wheel's 1st number, ..., their 5th; then the
    nations' wheels' 4th and 5th. Under rule 2 only the GM's dice take whole wheels: a free wheel's 1st, a nation's
    4th (``wheels_on_request``)."""
    free_wheels = [w for w in lottery_source.ROLL_WHEELS if w not in nation_wheels]
    slots = [(w, p) for p in lottery_source.POSITIONS for w in free_wheels]
    slots += [(w, p) for p in NATION_POSITIONS for w in nation_wheels]
    return SlotPolicy(tuple(slots), wheels_on_request=True)


def roll_slots(nation_wheels: list[str]) -> list[tuple[str, int]]:
    return list(slot_policy(tuple(nation_wheels)).order)


def label_of(turn: int, roll_id: int, purpose: str) -> str:
    return f"turn-{turn}:roll-{roll_id}:{purpose}"


def again(label: str, times: int) -> str:
    """The label asked again (a label once handed out is never handed out again, even after an undo)."""
    return f"{label}:{times}"


def bind(
    ctx: Ctx, purpose: str, nation: str | None, meaning: str, ref: int | None = None, target: str | None = None,
    *, announce: bool = True, avoid: Sequence[Roll] = (), whole_wheels: bool = False,
) -> Roll:
    """A roll bound to the first public value offered with the event (a lottery draw after the turn's own).
    ``avoid``: the rolls of the same throw: numbers of one wheel and draw are drawn without replacement, so two of
    them are linked (two d6 on one wheel would be equal with probability 14/89). ``whole_wheels`` (the GM's dice):
    under slot rule 2 the roll takes a wheel no roll uses, and owns it."""
    return _ask(ctx, ctx.event, purpose, nation, meaning, ref, target, announce=announce, avoid=avoid,
                whole_wheels=whole_wheels, after=ctx.state.turn_draw or "")


def bind_in(
    ctx: Ctx, dates: list[str], purpose: str, nation: str | None, meaning: str, ref: int | None = None,
    target: str | None = None, *, announce: bool = True, turn: int | None = None,
    avoid: Sequence[Roll] = (), whole_wheels: bool = False,
) -> Roll:
    """A lottery roll bound to the first free slot of the first of ``dates`` that has one (a drand or commit-reveal
    roll as ``bind`` binds it: the rounds offered are kept)."""
    offered = (*dates, *(d for d in ctx.event.draws if d.startswith(DRAND_PREFIX)))
    return _ask(ctx, replace(ctx.event, draws=offered), purpose, nation, meaning, ref, target, announce=announce,
                turn=turn, avoid=avoid, whole_wheels=whole_wheels)


def _ask(
    ctx: Ctx, event: Event, purpose: str, nation: str | None, meaning: str, ref: int | None, target: str | None, *,
    announce: bool, avoid: Sequence[Roll], whole_wheels: bool, turn: int | None = None, after: str = "",
) -> Roll:
    state = ctx.state
    if state.randomness == COMMIT_REVEAL and state.seed is not None:
        raise Rejection(
            "the commit-reveal seed has been revealed and is public now: a new roll bound to it could be "
            "computed in advance, so no roll can be made any more in this campaign"
        )
    roll_id, roll_turn = state.next_id, state.turn if turn is None else turn
    binding = chance.ask(
        state.book, event, label_of(roll_turn, roll_id, purpose), LOW, HIGH, purpose=purpose, seat=nation,
        meaning=meaning, roll_id=roll_id, again=again, after=after,
        avoid=[slot for r in avoid for slot in r.binding.where], whole_wheel=whole_wheels,
    )
    state.new_id()  # only once bound: a refused roll takes no id
    roll = Roll(turn=roll_turn, binding=binding, ref=ref, target=target)
    state.rolls.append(roll)
    if announce:
        ctx.say(f"Roll #{roll.id} ({purpose.replace('_', ' ')}{', ' + nation if nation else ''}) bound to "
                f"{_bound_to(state, roll)}: {meaning}.")
    return roll


def _bound_to(state: State, roll: Roll) -> str:
    label, mixing = roll.label, commit_reveal.mixing_round(roll.label or "")
    if state.randomness == DRAND:
        return f"drand quicknet round {drand_source.round_of(roll.draw)}, label '{label}'"
    if state.randomness == COMMIT_REVEAL and mixing is not None and state.commit_reveal_rule != 1:
        return (f"drand quicknet round {mixing}, label '{label}' (its number is the round's, checkable by anyone as "
                "soon as it is recorded)")
    if state.randomness == COMMIT_REVEAL:
        return (f"the commit-reveal seed (commitment {(state.commitment or '')[:12]}…), label '{label}'"
                + (f", mixed with drand quicknet round {mixing}" if mixing else ""))
    date, wheel, position = lottery_source.slot_parts(roll.binding.where[0])
    return f"the draw of {date}, wheel {wheel}, {ordinal(position)} number"


def rebind_cancelled(ctx: Ctx, day: str) -> list[Roll]:
    """A draw ruled not held (``draw.cancelled``): the book binds each roll waiting for it again, in binding order, to
    the first free slots of the later draws offered now, still to come, as any new roll would be; its old slot stays
    used. The rolls bound again, with their new slots."""
    state = ctx.state
    moved = [r for r in state.open_rolls() if r.number is None and r.draw == day]
    if not moved:
        state.book.cancelled.append(day)
        return moved
    chance.record(state.book, ctx.event)
    for roll in moved:
        ctx.say(f"Roll #{roll.id} ({roll.purpose.replace('_', ' ')}{', ' + roll.nation if roll.nation else ''}) is bound "
                f"again to the draw of {roll.draw}, wheel {roll.wheel}, {ordinal(roll.position)} number.")
    return moved


def later_draws(ctx: Ctx, day: str) -> list[str]:
    """The lottery draws the event offers after ``day``, in order."""
    return [d for d in lottery_source.offered_dates(ctx.event) if d > day]


def pending_rounds(state: State) -> list[str]:
    """The drand rounds bound and still waiting for their beacon: a drand roll's, or the round a commit-reveal
    label is mixed with."""
    beacons = state.book.beacons
    wanted = {drand_source.round_of(r.draw) for r in state.open_rolls()
              if r.number is None and r.draw.startswith(DRAND_PREFIX)}
    wanted |= {mixing for label in _waiting_labels(state)
               if (mixing := commit_reveal.mixing_round(label)) is not None}
    return sorted((w for w in wanted if w not in beacons), key=int)


def _waiting_labels(state: State) -> list[str]:
    numbers = state.book.numbers
    return [r.label for r in state.open_rolls() if r.draw == COMMIT_REVEAL and r.number is None and r.label is not None
            and r.label not in numbers]


def pending_labels(state: State) -> list[tuple[str, str]]:
    """The commit-reveal labels bound and ready for their number, each with the randomness of the drand round it
    is mixed with ("" for a label drawn from the seed alone); a label whose round is not recorded yet waits."""
    ready = []
    for label in _waiting_labels(state):
        mixing = commit_reveal.mixing_round(label)
        if mixing is None:
            ready.append((label, ""))
        elif mixing in state.book.beacons:
            ready.append((label, state.book.beacons[mixing]))
    return ready


Resolver = Callable[[Ctx, Roll], None]


def settle(ctx: Ctx, resolvers: dict[str, Resolver]) -> None:
    """The book gives every pending roll whose public value is known its number, and the roll's rule acts on it at
    once, before the next roll gets its own; until a pass settles nothing (a rule may bind a roll that is known)."""
    state = ctx.state

    def act(binding: chance.Binding) -> None:
        roll = state.roll(binding.id)
        resolvers[roll.purpose](ctx, roll)

    while chance.settle(state.book, ctx.event, act):
        pass
