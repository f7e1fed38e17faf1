"""Piracy (the seed's marker text): "The opposing player reduces his total TP gained by 2" — the TP gained this
Recruitment Phase, never the treasury saved from earlier turns (issue 24: it took 2 TP off the treasury)."""
from __future__ import annotations

import pytest

from tests.engine.mediterranean_empires.me_play import Play


@pytest.mark.parametrize(("gained", "lost"), [(5, 2), (2, 2), (1, 1), (0, 0)])
def test_piracy_takes_up_to_two_of_the_tp_gained_this_turn(gained: int, lost: int) -> None:
    play = Play()
    st = play.state
    st.phase = "recruitment"
    st.sides["B"].treasury, st.sides["B"].gained = 6, gained  # 6 TP, of which ``gained`` came in this phase
    play.hold("A", "Piracy")
    play.order("A", "play Piracy")
    play.drive([])  # the claimed marker is revealed from the bot's store
    assert play.state.sides["B"].treasury == 6 - lost
    assert play.state.sides["B"].gained == gained - lost
    assert any(f"Player A plays Piracy: Player B loses {lost} TP of those gained this turn" in m
               for m in play.messages), play.messages
