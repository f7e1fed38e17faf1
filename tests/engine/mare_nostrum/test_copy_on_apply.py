"""Applying an event copies only what it may change (``State.__deepcopy__`` shares the records of closed turns):
the state it was applied to must stay exactly as it was, whether the event was taken or refused."""
from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

import engine.mare_nostrum.ruleset as ruleset_module
from engine import canonical
from engine.events import Event, Rejection
from engine.log import Folded, replay, start, step
from engine.rulesets import load_ruleset

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"
DATA = Path(__file__).resolve().parents[3] / "data"


def golden_events() -> list[Event]:
    lines = (GOLDEN / "mare-nostrum-15-turns.log").read_text(encoding="utf-8").splitlines()
    return [Event.from_dict(json.loads(line)) for line in lines]


def test_every_step_of_the_recorded_campaign_leaves_the_state_before_it_untouched() -> None:
    ruleset = load_ruleset("mare-nostrum", DATA)
    events = golden_events()
    folded, _ = start(ruleset, events[0])
    shared = 0
    for event in events[1:]:
        before = pickle.dumps(folded.state)
        after, _ = step(ruleset, folded, event)
        # A shared record changed by the event would show in the old state too.
        assert pickle.dumps(folded.state) == before, f"event #{event.seq} ({event.kind}) changed the state it was applied to"
        shared += sum(a is b for a, b in zip(folded.state.rolls, after.state.rolls))
        # Each roll of the new state reads its own state's book: a binding the copy made, or one both share.
        bindings = {id(b) for b in after.state.book.bindings}
        assert all(id(r.binding) in bindings for r in after.state.rolls), event.seq
        folded = after
    assert shared > 0  # the copies did share the closed turns' rolls
    assert folded.state.history and folded.state.sealed[1] > 0
    # And the step-by-step fold is the replay's, byte for byte.
    assert canonical.dumps(ruleset.public_view(folded.state)) == canonical.dumps(ruleset.public_view(replay(ruleset, events).state))


def test_a_copy_shares_sealed_records_and_copies_the_open_turns() -> None:
    ruleset = load_ruleset("mare-nostrum", DATA)
    state = replay(ruleset, golden_events()).state
    battles, rolls, gm_rolls = state.sealed
    copied = copy.deepcopy(state)
    assert all(a is b for a, b in zip(state.rolls[:rolls], copied.rolls[:rolls]))
    assert all(a is not b for a, b in zip(state.rolls[rolls:], copied.rolls[rolls:]))
    # The book shares its settled rolls (every roll of a closed turn is) and copies those that wait.
    settled = state.book.settled_upto
    assert settled >= rolls
    assert all(a is b for a, b in zip(state.book.bindings[:settled], copied.book.bindings[:settled]))
    assert all(a is not b for a, b in zip(state.book.bindings[settled:], copied.book.bindings[settled:]))
    assert all(a is not b for a, b in zip(state.battles[battles:], copied.battles[battles:]))
    assert state.rolls is not copied.rolls and state.history is not copied.history
    assert all(a is not b for a, b in zip(state.nations.values(), copied.nations.values()))
    assert pickle.dumps(copied) == pickle.dumps(state)


def test_a_refusal_in_the_middle_of_an_event_leaves_the_state_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = load_ruleset("mare-nostrum", DATA)
    events = golden_events()
    # The last turn's events up to its first order: an order is applied, then refused after it changed things.
    first_order = max(i for i, e in enumerate(events) if e.kind == "turn.opened")
    first_order += next(i for i, e in enumerate(events[first_order:]) if e.kind == "order")
    folded: Folded = replay(ruleset, events[:first_order])
    view, body = canonical.dumps(ruleset.public_view(folded.state)), pickle.dumps(folded)
    changed: list[bool] = []

    def refuse_after_the_handler(ctx, resolvers):  # type: ignore[no-untyped-def]
        changed.append(pickle.dumps(ctx.state) != pickle.dumps(folded.state))
        raise Rejection("refused after the order was carried out")

    monkeypatch.setattr(ruleset_module, "settle", refuse_after_the_handler)
    with pytest.raises(Rejection):
        step(ruleset, folded, events[first_order])
    assert changed == [True]  # the handler did change its copy before the refusal
    assert canonical.dumps(ruleset.public_view(folded.state)) == view
    assert pickle.dumps(folded) == body
    monkeypatch.undo()
    # The untouched fold goes on with the very same event.
    after, _ = step(ruleset, folded, events[first_order])
    assert after.last_seq == events[first_order].seq


def test_the_records_own_copies_share_no_list_or_dict() -> None:
    """The state's records copy themselves by hand (faster than the generic deepcopy): a list or dict field added
    to one of them and left out of its ``__deepcopy__`` would be shared between two states."""
    from dataclasses import fields

    from engine.mare_nostrum.state import Battle, GmRoll, NationState, ProvinceState

    samples = [
        NationState(name="Romans", player="scipio", stability=5, effects=["a"], choices=["b"], pending_builds=[["c", "d"]],
                    peace_with=["e"]),
        ProvinceState(owner="Romans"),
        Battle(id=1, turn=1, kind="land", province="Latium", sea=None, attacker="Romans", attacker_nation="Romans",
               attacker_player="scipio", attacker_army="x", defender=None, defender_army="y", notes=["z"]),
        GmRoll(id=1, turn=1, dice="1d6", label="l", by="gm", slots=[[1]], values=[None]),
    ]
    for record in samples:
        twin = copy.deepcopy(record)
        assert twin == record
        for f in fields(record):
            value = getattr(record, f.name)
            assert isinstance(value, (str, int, bool, type(None), list, dict)), f"{type(record).__name__}.{f.name}"
            if isinstance(value, (list, dict)):
                assert getattr(twin, f.name) is not value, f"{type(record).__name__}.{f.name} is shared by its copy"
                for a, b in zip(value, getattr(twin, f.name)):
                    assert not isinstance(a, (list, dict)) or a is not b


def test_a_roll_copied_alone_keeps_its_binding_and_copied_with_its_book_follows_it() -> None:
    """A Roll holds the game's words on a roll and reads the rest from its binding in the book: copied with the state
    it follows the book's copy of its binding (the book is copied first), never the binding of the state copied."""
    from engine.chance.book import Binding, ChanceBook
    from engine.mare_nostrum.state import Roll, State

    binding = Binding(1, "turn-1:roll-1:siege", 1, 90, 1, "lottery", ["2023-01-03|BA|1"], "siege", "Romans", "m")
    roll = Roll(turn=1, binding=binding, ref=3)
    assert (roll.id, roll.purpose, roll.nation, roll.draw, roll.wheel, roll.position, roll.label, roll.number) == (
        1, "siege", "Romans", "2023-01-03", "BA", 1, None, None)
    assert copy.deepcopy(roll).binding is binding
    state = State(ruleset="mare-nostrum", gm="gm", digest="d", book=ChanceBook(source="lottery", bindings=[binding]),
                  rolls=[roll])
    twin = copy.deepcopy(state)
    assert twin.rolls[0].binding is twin.book.bindings[0] is not binding
    twin.book.bindings[0].values = [42]
    assert (twin.rolls[0].number, roll.number) == (42, None)
