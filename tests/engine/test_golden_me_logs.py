"""The two scripted Mediterranean Empires games, recorded (the standard seven game turns, and the Vespers scenario
with every optional rule), must replay to the very same state and hash-chain head after any refactoring of the game.

The files are exported by tests/data/golden/regenerate_me.py. Only a deliberate change of the rules may change them;
regenerate them then, and say why in the commit.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import canonical
from engine.events import Event
from engine.log import replay, start, step
from engine.rulesets import load_ruleset

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.mark.parametrize("name", ["mediterranean-empires-7-turns", "mediterranean-empires-vespers"])
def test_the_recorded_game_replays_to_the_same_state_and_head(name: str) -> None:
    lines = (GOLDEN / f"{name}.log").read_text(encoding="utf-8").splitlines()
    events = [Event.from_dict(json.loads(line)) for line in lines]
    ruleset = load_ruleset("mediterranean-empires", DATA)
    folded = replay(ruleset, events)
    assert f"{folded.last_seq}:{folded.head}" == (GOLDEN / f"{name}.head").read_text().strip()
    assert folded.state.phase == "over"
    state = canonical.dumps(ruleset.public_view(folded.state), indent=2) + "\n"
    assert state == (GOLDEN / f"{name}.state.json").read_text(encoding="utf-8")


def test_each_game_turn_counts_as_closed_once_it_has_been_played() -> None:
    """A game turn ends by play: `legatus map --turn N` and the turn results read the state at its end."""
    from bot.render.history import TurnNotPlayed, state_at_close

    lines = (GOLDEN / "mediterranean-empires-7-turns.log").read_text(encoding="utf-8").splitlines()
    events = [Event.from_dict(json.loads(line)) for line in lines]
    ruleset = load_ruleset("mediterranean-empires", DATA)
    closed = []
    folded, _ = start(ruleset, events[0])
    for event in events[1:]:
        folded, _ = step(ruleset, folded, event)
        summary = ruleset.summary(folded.state)
        closed.append(summary.closed_turn)
        assert summary.closed_turn == (summary.turn if summary.over else summary.turn - 1)
    assert closed == sorted(closed) and closed[0] == 0 and closed[-1] == 7
    # The first turn's end is the first event at which the game stands in turn 2, in its first phase.
    first_of_two = closed.index(1) + 1
    at_close = state_at_close(ruleset, events, 1)
    assert at_close.turn == 2
    assert canonical.dumps(ruleset.public_view(at_close)) == canonical.dumps(
        ruleset.public_view(replay(ruleset, events[:first_of_two + 1]).state))
    with pytest.raises(TurnNotPlayed, match="turn 8 has not been closed"):
        state_at_close(ruleset, events, 8)
