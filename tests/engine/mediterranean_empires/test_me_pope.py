"""The Pope's disposition (12.0, "The Pope"): he "remains in Rome until either the player does not have total control
of Rome, or the Pope dies (8.2). If either of the above are true at any time, remove the Pope marker and return it to
the pool." Issue 24: he left a player only when he died."""
from __future__ import annotations

from typing import Any

from engine.events import Event
from engine.mediterranean_empires import control, turn
from engine.mediterranean_empires.state import State
from tests.engine.mediterranean_empires.me_play import Play


def rome_held_by_player_a() -> tuple[Any, State]:
    play = Play()
    play.state.gm = "gm"
    play.seat_pope("A")
    assert control.controller(play.state, turn.ROME) == "A"
    return play.game, play.state


def test_the_pope_leaves_when_his_player_loses_total_control_of_rome() -> None:
    ruleset, state = rome_held_by_player_a()
    side, enemy_power = "A", "Aragon"
    pool = list(state.unseen)
    # An enemy field army in the Papal States (here placed by a GM ruling): total control is lost.
    ruling = Event(2, "gm.set", "gm", {"what": "units", "target": f"{enemy_power}/field_army/{turn.ROME}",
                                       "value": 1, "reason": "the enemy marches on Rome"})
    done = ruleset.apply(state, ruling)
    assert control.controller(done.state, turn.ROME) != side
    assert done.state.pope is None and done.state.pope_holder == side  # the last holder still rolls for his death
    assert done.messages[-1] == (f"Player {side} no longer has total control of Rome (Papal States): the Pope "
                                 "leaves, and his marker returns to the pool.")
    assert sorted(done.state.unseen) == sorted(pool + ["The Pope"])


def test_the_pope_stays_while_rome_is_held() -> None:
    ruleset, state = rome_held_by_player_a()
    side = "A"
    done = ruleset.apply(state, Event(2, "gm.set", "gm", {"what": "treasury", "target": "Player A", "value": 3}))
    assert done.state.pope == side and len(done.messages) == 1
