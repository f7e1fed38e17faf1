"""GM corrections of Mediterranean Empires (issue 24): a treasury set, units placed or removed, each one event with
its reason; refused with what would be right on bad input, for anyone but the GM, and while an action waits for a
roll (its numbers were bound for the board as it was)."""
from __future__ import annotations

import pytest

from engine.events import Event, Rejection
from engine.mediterranean_empires.state import State
from engine.ruleset import Proposal
from tests.engine.mediterranean_empires.me_play import Play, game


def fresh() -> tuple[object, State]:
    ruleset = game()
    return ruleset, ruleset.initial_state({"players": {"Player A": "ann", "Player B": "bob"}, "gm": "gm"})


def ruling(ruleset: object, state: State, line: str, actor: str = "gm") -> tuple[State, tuple[str, ...]]:
    args = line.split()
    proposal: Proposal = ruleset.read_command(state, actor, "gm set", args, is_gm=actor == "gm")  # type: ignore[attr-defined]
    assert proposal.error is None, proposal.error
    done = ruleset.apply(state, Event(2, proposal.kind, actor, proposal.data))  # type: ignore[attr-defined]
    return done.state, done.messages


def units(state: State, power: str, kind: str, area: str) -> list[int]:
    return sorted(u.id for u in state.units.values() if (u.power, u.kind, u.area) == (power, kind, area))


def test_the_gm_sets_a_treasury_with_its_reason() -> None:
    ruleset, state = fresh()
    after, messages = ruling(ruleset, state, "treasury A 5 a recruit was paid twice")
    assert (state.sides["A"].treasury, after.sides["A"].treasury) == (7, 5)
    assert messages == ("GM ruling: the treasury of Player A is set to 5 TP (it was 7): a recruit was paid twice.",)


def test_the_gm_places_and_removes_units_newest_first() -> None:
    ruleset, state = fresh()
    before = units(state, "France", "levy", "Vienne")
    placed, messages = ruling(ruleset, state, "units France/levies/Vienne 3")
    added = units(placed, "France", "levy", "Vienne")
    assert len(added) == 3 and added[:len(before)] == before and added[-1] == state.next_unit + 1
    assert messages == (f"GM ruling: Vienne now holds 3 levies of France (it held {len(before)}): no reason given.",)
    removed, _ = ruling(ruleset, placed, "units France/levy/Vienne 1 misplaced")
    assert units(removed, "France", "levy", "Vienne") == added[:1]


@pytest.mark.parametrize(("line", "error"), [
    ("treasury A -1", "'-1' is not a whole number from 0 to 10"),
    ("treasury A 11", "'11' is not a whole number from 0 to 10"),
    ("treasury A nan", "'nan' is not a whole number from 0 to 10"),
    ("units France/levy/Vienne 21", "'21' is not a whole number from 0 to 20"),
    ("units France-levy-Vienne 1", "'France-levy-Vienne': write power/unit type/area, e.g. France/levy/Vienne"),
    ("units France/knights/Vienne 1", "unknown unit type 'knights': the types are field army, levy, raiders, "
                                      "mercenaries, fleet"),
    ("gold A 1", "usage: /gm set treasury|units <target> <value> [<reason>]"),
])
def test_bad_input_says_what_was_wrong_and_what_would_be_right(line: str, error: str) -> None:
    ruleset, state = fresh()
    proposal = ruleset.read_command(state, "gm", "gm set", line.split(), is_gm=True)  # type: ignore[attr-defined]
    assert proposal.error is not None and proposal.error.startswith(error), proposal.error


def test_only_the_gm_and_only_between_actions() -> None:
    ruleset, state = fresh()
    player = ruleset.read_command(state, "ann", "gm set", "treasury A 9".split(), is_gm=False)  # type: ignore[attr-defined]
    assert player.error == "/gm set is for the GM only"
    forged = Event(2, "gm.set", "ann", {"what": "treasury", "target": "Player A", "value": 9, "reason": ""})
    with pytest.raises(Rejection, match=r"only the GM \(gm\) corrects the game"):
        ruleset.apply(state, forged)  # type: ignore[attr-defined]
    play = Play()
    play.order("A", "draw")  # the pick waits for its roll: an action under way
    assert play.state.action is not None
    mid = Event(play.seq + 1, "gm.set", play.state.gm or "gm",
                {"what": "treasury", "target": "Player A", "value": 1, "reason": ""})
    with pytest.raises(Rejection, match="the GM corrects the game between actions: one waits now"):
        play.game.apply(play.state, mid)
