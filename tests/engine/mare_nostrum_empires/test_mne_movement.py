"""Phase 4, Military: triremes one sea, one fight per sea, legions one province or along a trireme chain."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules

from engine.events import Rejection
from engine.mare_nostrum_empires import movement


def test_a_trireme_moves_one_sea() -> None:
    b = board()
    movement.check_trireme_move(rules(), b, "Romans", "Mare Tyrrhenum", "Mare Ionium")
    with pytest.raises(Rejection, match="a trireme moves one sea: Mare Aegaeum is not next to Mare Tyrrhenum"):
        movement.check_trireme_move(rules(), b, "Romans", "Mare Tyrrhenum", "Mare Aegaeum")
    with pytest.raises(Rejection, match="the Romans have no trireme in Mare Ionium"):
        movement.check_trireme_move(rules(), b, "Romans", "Mare Ionium", "Mare Aegaeum")


def test_a_trireme_arriving_chooses_one_fleet_to_fight_among_several() -> None:
    b = board()
    b.triremes["Mare Ionium"] = {"Greeks": 1, "Carthaginians": 2}
    assert movement.sea_opponents(b, "Romans", "Mare Ionium") == ["Carthaginians", "Greeks"]


def test_a_legion_marches_one_province_or_sails_along_the_chain() -> None:
    b = board()
    assert movement.check_legion_move(rules(), b, "Romans", "Latium", "Etruria") == "march"
    # One trireme in the Tyrrhenian Sea: Latium reaches every province on that sea.
    assert movement.chain_reach(rules(), b, "Romans", "Latium") == ["Campania", "Etruria", "Magna Graecia",
                                                                    "Sardinia", "Sicilia"]
    assert movement.check_legion_move(rules(), b, "Romans", "Latium", "Sicilia") == "by sea"
    with pytest.raises(Rejection, match="a legion in Latium moves to an adjacent province \\(Etruria, Campania\\) "
                                        "or along your trireme chain \\(Campania, .*\\), not to Epirus"):
        movement.check_legion_move(rules(), b, "Romans", "Latium", "Epirus")
    b.triremes["Mare Ionium"]["Romans"] = 1
    assert movement.check_legion_move(rules(), b, "Romans", "Latium", "Epirus") == "by sea"


def test_entering_a_province_held_by_an_enemy_army_means_battle() -> None:
    b = board()
    assert movement.battle_due(b, "Romans", "Attica") == ["Greeks"]
    assert movement.battle_due(b, "Romans", "Sicilia") == []
