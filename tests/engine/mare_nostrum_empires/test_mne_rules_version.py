"""Which rules a campaign follows: a log without ``rules_version`` (every campaign created before abilities were
played) folds by version 1; a new campaign is created with the newest."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import PLAYERS, ruleset

from engine.events import Rejection
from engine.mare_nostrum_empires import rules_version


def test_a_new_campaign_takes_the_newest_rules_and_an_old_log_the_first() -> None:
    rs = ruleset()
    assert rs.rules_version == rules_version.NEWEST == rules_version.LEGENDARY_FACE_DOWN == 3
    assert rules_version.ABILITIES == rules_version.HIDDEN_ROW == 2
    assert rules_version.FORTRESS_FALLS == rules_version.ISLANDS_BY_SEA == 3
    old = rs.initial_state({"players": PLAYERS[3], "randomness": "fixed", "fixed_values": [1]})
    new = rs.initial_state({"players": PLAYERS[3], "randomness": "fixed", "fixed_values": [1], "rules_version": 3})
    assert (old.board.rules_version, new.board.rules_version) == (1, 3)


@pytest.mark.parametrize("value", [0, 4, "2", True])
def test_a_rules_version_the_game_does_not_have_is_refused(value: object) -> None:
    with pytest.raises(Rejection, match=f"rules_version {str(value)[:20]} is not one of this game's: 1 to 3"):
        ruleset().initial_state({"players": PLAYERS[3], "randomness": "fixed", "fixed_values": [1],
                                 "rules_version": value})
