"""The board at the start, and the rule that a screen is one production of its buildings."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, raw, rebuild

from engine.mare_nostrum_empires import setup
from engine.mare_nostrum_empires.rules_data import RulesError


def test_three_players_set_up_the_romans_greeks_and_carthaginians() -> None:
    b = board(3)
    assert b.empires == ("Romans", "Greeks", "Carthaginians")
    assert b.provinces["Latium"].influence == "Romans"
    assert b.provinces["Latium"].built == {"capital", "temple", "caravan"}
    assert b.provinces["Latium"].legions == {"Romans": 2} and b.provinces["Latium"].fortress == "Romans"
    assert b.triremes["Mare Aegaeum"] == {"Greeks": 2}
    assert b.screens["Greeks"].goods == {"marble": 1, "oil": 2, "timber": 2} and b.screens["Greeks"].taxes == 4
    assert b.screens["Carthaginians"].tiles == ["Hannibal"]
    assert "Aegyptus" not in b.provinces and b.provinces["Sicilia"].influence is None
    assert b.leaders == {"commerce": "Carthaginians", "politics": "Greeks", "military": "Romans"}


def test_five_players_give_each_title_to_the_first_empire_of_its_list() -> None:
    b = board(5)
    assert b.leaders == {"commerce": "Carthaginians", "politics": "Greeks", "military": "Romans"}
    assert b.levels["military"] == {"Romans": 5, "Greeks": 5, "Carthaginians": 5, "Egyptians": 4, "Babylonians": 4}


def test_a_screen_that_is_not_the_yield_of_its_buildings_is_refused() -> None:
    data = raw()
    data["empire"]["Romans"]["screen"]["taxes"] = 5
    with pytest.raises(RulesError, match="'Romans': its screen holds .* and 5 taxes, but its buildings produce"):
        setup.start(rebuild(data), 3)
