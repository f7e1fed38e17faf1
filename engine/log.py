"""The fold over a campaign's event log: state is what the events make of it, nothing else.

A GM undo is an event too: it names the event it takes back, and the fold recomputes the state without
it. The undo itself stays in the log, so the trace is never lost.

Chance is never taken back by an undo: once a public value (a draw, a beacon, a seed's numbers, a revealed
secret) has been recorded after a decision, that decision's random outcome may be known, so undoing it would
let the GM draw again. Undo stops there. A GM who must set such a decision aside voids it (``gm.void``): the
void names its reason and the outcomes it discards, and ``legatus verify`` lists every void.

A value is public before it is recorded (a draw at 20:00 Rome, a round at its time): in campaigns that follow the
clock rules (engine/takeback.py) an undo is also refused once a binding it takes back was public by the undo's own
timestamp, recorded or not.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import takeback
from engine.event_run import EventRun, event_run
from engine.events import Event, Rejection
from engine.ledger import GENESIS, event_hash
from engine.ruleset import KeepsGM, Ruleset

CREATED = "campaign.created"
UNDO = "gm.undo"
VOID = "gm.void"
# A player takes back their own latest order while their turn is still theirs (no GM needed, nothing random seen).
PLAYER_UNDO = "player.undo"
TAKE_BACK = (UNDO, VOID, PLAYER_UNDO)
# Events that record facts from outside (the lottery, a drand beacon, numbers from the commit-reveal seed, its
# reveal, a sealed content revealed, a content the bot sealed, a draw ruled not held), not decisions: an undo never
# takes them back, nor a decision before them.
FACTS = {"draw.recorded", "draw.cancelled", "random.recorded", "seed.revealed", "beacon.recorded", "secret.revealed",
         "secret.sealed"}


@dataclass(frozen=True)
class Folded:
    state: Any
    # The events that make the state, undone ones left out: an EventRun (engine/event_run.py), so that a step adds
    # its event without copying the ones before; any sequence given is made one.
    effective: Sequence[Event] = field(default=())
    last_seq: int = 0
    head: str = GENESIS  # the hash of the last event: the head of the log's hash chain

    def __post_init__(self) -> None:
        if not isinstance(self.effective, EventRun):
            object.__setattr__(self, "effective", event_run(self.effective))


def link(head: str, event: Event) -> str:
    """The event's place in the chain; a stored hash that does not follow is refused."""
    expected = event_hash(head, event)
    if event.hash and event.hash != expected:
        raise Rejection(f"event #{event.seq} does not match the log's hash chain: the log was changed")
    return expected


def start(ruleset: Ruleset, event: Event) -> tuple[Folded, tuple[str, ...]]:
    if event.kind != CREATED:
        raise Rejection(f"a campaign log begins with '{CREATED}', not '{event.kind}'")
    head = link(GENESIS, event)
    state = ruleset.initial_state(event.data)
    return Folded(state, (event,), event.seq, head), ()


def step(ruleset: Ruleset, folded: Folded, event: Event, *, in_place: bool = False) -> tuple[Folded, tuple[str, ...]]:
    """The fold one event further. The state it was given stays as it was, unless ``in_place``: then a caller that
    owns the state and drops it on a Rejection (a replay, a verification) saves the copy."""
    if event.seq != folded.last_seq + 1:
        raise Rejection(f"event #{event.seq} is out of order: the log ends at #{folded.last_seq}")
    head = link(folded.head, event)
    if event.kind in TAKE_BACK:
        undone, messages = _undo(ruleset, folded, event)
        return replace(undone, head=head), messages
    transition = ruleset.apply(folded.state, event, in_place=True) if in_place else ruleset.apply(folded.state, event)
    return Folded(transition.state, event_run(folded.effective).plus(event), event.seq, head), transition.messages


def undo_target(folded: Folded, *, void: bool = False) -> Event | None:
    """The event a GM undo (or void) would take back: the latest decision still in effect."""
    for event in reversed(folded.effective):
        if event.kind == CREATED:
            return None
        if event.kind not in FACTS:
            return event
    return None


def seen_after(folded: Folded, target: Event) -> Event | None:
    """The first public value recorded after ``target``: once it is, ``target``'s outcome may be known."""
    for event in folded.effective:
        if event.seq > target.seq and event.kind in FACTS:
            return event
    return None


def player_undo_target(ruleset: Ruleset, folded: Folded, actor: str) -> Event:
    """The order ``actor`` may take back now: the latest decision, if it is theirs, nothing random was recorded
    after it, and their seat is still to act. Raises Rejection saying which of these fails."""
    target = undo_target(folded)
    if target is None:
        raise Rejection("there is no order to take back")
    if target.actor != actor:
        raise Rejection(f"the latest decision is not yours (event #{target.seq}, {describe(target)}): only your own "
                        "latest order can be taken back; ask the GM for anything else (/gm undo)")
    seen = seen_after(folded, target)
    if seen is not None:
        raise Rejection(f"your order #{target.seq} ({describe(target)}) cannot be taken back: a public random value "
                        f"was recorded after it (#{seen.seq}, {seen.kind}), so its outcome may be known")
    seat = ruleset.seat_of(folded.state, actor)
    if seat is None or seat not in ruleset.to_act(folded.state):
        raise Rejection(f"your turn has passed, so your order #{target.seq} ({describe(target)}) stays; "
                        "only the GM can undo it now (/gm undo)")
    return target


def _player_undo(ruleset: Ruleset, folded: Folded, event: Event) -> tuple[Folded, tuple[str, ...]]:
    target = player_undo_target(ruleset, folded, event.actor)
    wanted = event.data.get("target")
    if not str(wanted).isdigit() or int(str(wanted)) != target.seq:
        raise Rejection(f"your latest order is #{target.seq} ({describe(target)}), not #{wanted}: "
                        f"/undo {target.seq} takes it back")
    kept = tuple(e for e in folded.effective if e.seq != target.seq)
    state = ruleset.carry_over(folded.state, _fold_effective(ruleset, kept))
    late = _public_refusal(ruleset, folded, target, state, event.at, player=True)
    if late is not None:
        raise Rejection(late)
    return Folded(state, kept, event.seq), (f"{event.actor} takes back their order #{target.seq} ({describe(target)}).",)


def _public_refusal(ruleset: Ruleset, folded: Folded, target: Event, after: Any, at: str, *, player: bool,
                    always: bool = False) -> str | None:
    """Why undoing ``target`` into ``after`` must be refused by the clock, or None: in a campaign under the clock
    rules, or ``always`` (the shell, which may refuse more than the fold of an older campaign did)."""
    created = folded.effective[0].data if folded.effective else {}
    if not (always or takeback.follows_clock_rules(created)):
        return None
    late = takeback.refusal(takeback.removed(ruleset.ledger(folded.state), ruleset.ledger(after)), created, at,
                            player=player)
    if late is None:
        return None
    if player:
        return f"your order #{target.seq} ({describe(target)}) cannot be taken back: {late}"
    return f"event #{target.seq} ({describe(target)}) cannot be undone: {late}"


def undo_refusal(ruleset: Ruleset, folded: Folded, target: Event, at: str, *, player: bool) -> str | None:
    """Why an undo of ``target`` at time ``at`` must be refused by the clock, asked by the shell before it appends
    one: in every campaign, the older ones too (their fold accepts such an undo, so that their logs replay as they
    did, but the shell writes no new one). The fold checks it again on the undo itself under the clock rules."""
    kept = tuple(e for e in folded.effective if e.seq != target.seq)
    state = ruleset.carry_over(folded.state, _fold_effective(ruleset, kept))
    return _public_refusal(ruleset, folded, target, state, at, player=player, always=True)


def _undo(ruleset: Ruleset, folded: Folded, event: Event) -> tuple[Folded, tuple[str, ...]]:
    if event.kind == PLAYER_UNDO:
        return _player_undo(ruleset, folded, event)
    # A state that names no GM (or an empty one) has the one campaign.created named.
    named = folded.state.gm if isinstance(folded.state, KeepsGM) else None
    gm = named or (folded.effective[0].data.get("gm") if folded.effective else None)
    if event.actor != gm:
        raise Rejection(f"only the GM ({gm}) can undo an event")
    target = undo_target(folded)
    wanted = event.data.get("target")
    if target is None:
        raise Rejection("there is nothing to undo")
    if wanted is not None and int(wanted) != target.seq:
        raise Rejection(f"only the latest decision can be undone: event #{target.seq} ({target.kind}), not #{wanted}")
    seen = seen_after(folded, target)
    reason = event.data.get("reason") or "no reason given"
    if event.kind == UNDO and seen is not None:
        raise Rejection(
            f"event #{target.seq} ({describe(target)}) cannot be undone: a public random value was recorded after it "
            f"(#{seen.seq}, {seen.kind}), so its outcome may be known. To set it aside, void it with its reason "
            "(/gm void <reason>): the void and the outcome it discards stay on record"
        )
    if event.kind == VOID and not str(event.data.get("reason") or "").strip():
        raise Rejection("a void needs its reason: /gm void <reason>")
    kept = tuple(e for e in folded.effective if e.seq != target.seq)
    rebuilt = _fold_effective(ruleset, kept)
    state = ruleset.carry_over(folded.state, rebuilt)
    late = _public_refusal(ruleset, folded, target, state, event.at, player=False) if event.kind == UNDO else None
    if late is not None:
        raise Rejection(late)
    if event.kind == VOID:
        discarded = _discarded(ruleset, folded.state, state)
        lost = "; ".join(discarded) if discarded else "no random outcome"
        message = f"The GM voids event #{target.seq} ({describe(target)}): {reason}. Outcomes discarded: {lost}."
    else:
        message = f"The GM undoes event #{target.seq} ({describe(target)}): {reason}."
    return Folded(state, kept, event.seq), (message,)


def _discarded(ruleset: Ruleset, before: Any, after: Any) -> list[str]:
    """The settled rolls the void takes out of the state, in words: what the record must keep."""
    kept = {(e.get("id"), e.get("where")) for e in ruleset.ledger(after) if e.get("values") is not None}
    return [
        f"roll #{e['id']} ({e.get('purpose', '')}) = {', '.join(str(v) for v in e['values'])}"
        f"{' -> ' + str(e['outcome']) if e.get('outcome') else ''}"
        for e in ruleset.ledger(before)
        if e.get("values") is not None and (e.get("id"), e.get("where")) not in kept
    ]


def _fold_effective(ruleset: Ruleset, events: Sequence[Event]) -> Any:
    state = ruleset.initial_state(events[0].data)
    for event in events[1:]:
        state = ruleset.apply(state, event, in_place=True).state
    return state


def replay(ruleset: Ruleset, events: Iterable[Event]) -> Folded:
    iterator = iter(events)
    first = next(iterator, None)
    if first is None:
        raise Rejection("the log is empty")
    folded, _ = start(ruleset, first)
    effective = list(folded.effective)
    state, head, last = folded.state, folded.head, folded.last_seq
    for event in iterator:
        if event.seq != last + 1:
            raise Rejection(f"event #{event.seq} is out of order: the log ends at #{last}")
        head = link(head, event)
        last = event.seq
        if event.kind in TAKE_BACK:
            undone, _ = _undo(ruleset, Folded(state, tuple(effective), last - 1, head), event)
            state, effective = undone.state, list(undone.effective)
            continue
        # The replay owns its state, and a log that does not replay is refused whole: no copy needed.
        state = ruleset.apply(state, event, in_place=True).state
        effective.append(event)
    return Folded(state, EventRun(effective), last, head)


def describe(event: Event) -> str:
    data = event.data
    if event.kind == "order":
        given = data.get("order")
        order = given if isinstance(given, dict) else {}
        said = data.get("text") or order.get("kind") or order.get("order") or ("a sealed order" if "sealed" in data else "")
        return f"{event.actor}'s order '{said}'"
    if event.kind == "battle.reported":
        return f"battle in {data.get('province')} won by {data.get('winner')}"
    return f"{event.kind} by {event.actor}"
