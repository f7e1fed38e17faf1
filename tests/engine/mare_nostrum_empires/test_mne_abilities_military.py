"""The Heroes' and Wonders' abilities of the Military phase (moves, placement of triremes, battles), each played
through the game's orders with its exact result, beside the same situation without the tile (the control)."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import Play, quick_commerce, quick_turns

from engine.events import Rejection

NEW = 2
ROW = [12345, 67890]  # the row's shuffle takes the first two values


def game(dice: list[int], tile: str | None = None, empire: str = "Romans", version: int | None = NEW) -> Play:
    """A 3-player game at Purchase whose first battle throws ``dice``; ``tile`` held by ``empire``."""
    p = Play(3, ROW + dice + [3] * 50, rules_version=version)
    if tile:
        p.state.board.screens[empire].tiles.append(tile)
    quick_commerce(p)
    return p


def romans_attack_peloponnesus(p: Play, greeks: str = "buy legion in Peloponnesus with taxes") -> None:
    """The Greeks buy a legion in Peloponnesus; the Romans a second trireme, then sail one to Mare Ionium (a chain of
    two seas) and land 2 legions in Peloponnesus."""
    quick_turns(p, {"Greeks": greeks, "Romans": "buy trireme in Mare Tyrrhenum with gladiators, marble, wine"})
    p.post("ann", "next Romans")
    p.post("ann", "sail Mare Tyrrhenum to Mare Ionium\nmarch 2 Latium to Peloponnesus")


# --- Moves ------------------------------------------------------------------------------------------------------

def test_caesar_moves_one_legion_two_provinces_once_a_phase() -> None:
    p = game([])
    quick_turns(p)
    p.post("ann", "next Romans")
    with pytest.raises(Rejection, match="one legion moves up to 2 provinces once a Military phase: march 1 Latium "
                                        "to Gallia Cisalpina, not 2"):
        p.post("ann", "march 2 Latium to Gallia Cisalpina")
    p.post("ann", "march Latium to Gallia Cisalpina")
    assert p.said[-1] == ("The Romans move 1 legion from Latium to Gallia Cisalpina (the long march of their tile, "
                          "once this phase).")
    assert p.state.board.provinces["Gallia Cisalpina"].legions == {"Romans": 1}
    with pytest.raises(Rejection, match="one legion moves up to 2 provinces once a Military phase, and the Romans "
                                        "have done so: Gallia Narbonensis is not next to Etruria"):
        p.post("ann", "march Etruria to Gallia Narbonensis")


def test_without_caesar_a_legion_moves_one_province() -> None:
    p = game([], version=None)
    quick_turns(p)
    p.post("ann", "next Romans")
    with pytest.raises(Rejection, match="a legion in Latium moves to an adjacent province \\(Etruria, Campania\\) or "
                                        "along your trireme chain \\(Campania, Etruria, Magna Graecia, Sardinia, "
                                        "Sicilia\\), not to Gallia Cisalpina"):
        p.post("ann", "march Latium to Gallia Cisalpina")


def test_caesars_long_march_stops_at_an_enemy_army() -> None:
    p = game([])
    quick_turns(p)
    p.state.board.provinces["Etruria"].legions = {"Greeks": 1}
    p.post("ann", "next Romans")
    with pytest.raises(Rejection, match="or up to 2 provinces \\(Magna Graecia\\), not to Gallia Cisalpina$"):
        p.post("ann", "march Latium to Gallia Cisalpina")


def test_ulysses_sails_two_seas() -> None:
    p = game([], "Ulysses")
    quick_turns(p)
    p.post("ann", "next Romans")
    with pytest.raises(Rejection, match="your triremes move up to 2 seas: Pontus Euxinus is farther from Mare "
                                        "Tyrrhenum"):
        p.post("ann", "sail Mare Tyrrhenum to Pontus Euxinus")
    p.post("ann", "sail Mare Tyrrhenum to Mare Aegaeum")
    assert p.state.board.triremes["Mare Aegaeum"] == {"Greeks": 2, "Romans": 1}
    control = game([])
    quick_turns(control)
    control.post("ann", "next Romans")
    with pytest.raises(Rejection, match="a trireme moves one sea: Mare Aegaeum is not next to Mare Tyrrhenum"):
        control.post("ann", "sail Mare Tyrrhenum to Mare Aegaeum")


def test_the_lighthouse_places_a_trireme_beyond_the_coast_of_ones_provinces() -> None:
    p = game([], "Lighthouse of Alexandria")
    p.post("bob", "next Romans")
    p.post("ann", "buy trireme in Mare Ionium with taxes")
    assert p.state.board.triremes["Mare Ionium"] == {"Romans": 1}
    with pytest.raises(Rejection, match="Mare Phoenicium touches none of your provinces: a trireme goes in a sea "
                                        "next to one or touching a province of your trireme chain"):
        p.post("ann", "buy trireme in Mare Phoenicium with gladiators, marble, wine")
    control = game([])
    control.post("bob", "next Romans")
    with pytest.raises(Rejection, match="Mare Ionium touches none of your provinces: a trireme goes in a sea next "
                                        "to one$"):
        control.post("ann", "buy trireme in Mare Ionium with taxes")


# --- Battles ----------------------------------------------------------------------------------------------------

def test_hannibal_adds_two_to_an_attack_on_land() -> None:
    p = game([2, 2, 1], "Hannibal")
    romans_attack_peloponnesus(p)
    assert ("Battle in Peloponnesus: the Romans throw [2, 2] (attacking: +2), the Greeks [1]; the Romans lose 0, the "
            "Greeks 1.") in p.said
    assert p.state.board.provinces["Peloponnesus"].conqueror == "Romans"
    control = game([2, 2, 1])
    romans_attack_peloponnesus(control)
    assert "Battle in Peloponnesus: the Romans throw [2, 2], the Greeks [1]; the Romans lose 0, the Greeks 0." \
        in control.said
    assert control.state.board.provinces["Peloponnesus"].at_war


def test_alexander_adds_three_to_an_attack_from_the_trireme_chain() -> None:
    p = game([1, 1, 1], "Alexander")
    romans_attack_peloponnesus(p)
    assert ("Battle in Peloponnesus: the Romans throw [1, 1] (from the trireme chain: +3), the Greeks [1]; the "
            "Romans lose 0, the Greeks 1.") in p.said
    control = game([1, 1, 1])
    romans_attack_peloponnesus(control)
    assert control.state.board.provinces["Peloponnesus"].legions == {"Greeks": 1, "Romans": 2}


def test_alexander_adds_nothing_to_an_attack_by_land() -> None:
    p = game([2, 2], "Alexander")
    quick_turns(p)
    p.state.board.provinces["Campania"].legions = {"Greeks": 1}
    p.post("ann", "next Romans")
    p.post("ann", "march 2 Latium to Campania")
    assert "Battle in Campania: the Romans throw [2, 2], the Greeks [3]; the Romans lose 0, the Greeks 0." in p.said


def test_archimedes_fortress_adds_ten() -> None:
    greeks = "buy legion in Peloponnesus with taxes\nbuy fortress in Peloponnesus with oil, timber, marble"
    p = game([5, 5, 1], "Archimedes", "Greeks")
    romans_attack_peloponnesus(p, greeks)
    assert ("Battle in Peloponnesus: the Romans throw [5, 5], the Greeks [1] (fortress: +10, one hit cancelled); "
            "the Romans lose 2, the Greeks 1.") in p.said
    assert p.state.board.provinces["Peloponnesus"].legions == {}
    control = game([5, 5, 1])
    romans_attack_peloponnesus(control, greeks)
    assert ("Battle in Peloponnesus: the Romans throw [5, 5], the Greeks [1] (fortress: +5, one hit cancelled); "
            "the Romans lose 1, the Greeks 1.") in control.said
    assert control.state.board.provinces["Peloponnesus"].conqueror == "Romans"


def test_leonidas_alone_cancels_one_more_hit() -> None:
    p = game([3, 3, 1], "Leonidas", "Greeks")
    romans_attack_peloponnesus(p)
    assert ("Battle in Peloponnesus: the Romans throw [3, 3], the Greeks [1] (one legion defending: 1 more hit "
            "cancelled); the Romans lose 0, the Greeks 0.") in p.said
    assert p.state.board.provinces["Peloponnesus"].at_war
    control = game([3, 3, 1])
    romans_attack_peloponnesus(control)
    assert control.state.board.provinces["Peloponnesus"].conqueror == "Romans"


def test_leonidas_cancels_nothing_for_two_legions() -> None:
    greeks = "buy legion in Peloponnesus with taxes\nbuy legion in Peloponnesus with oil, timber, marble"
    p = game([5, 5, 1, 1], "Leonidas", "Greeks")
    romans_attack_peloponnesus(p, greeks)
    assert "Battle in Peloponnesus: the Romans throw [5, 5], the Greeks [1, 1]; the Romans lose 0, the Greeks 2." \
        in p.said


def test_the_statue_of_zeus_cancels_one_more_hit_in_the_capital() -> None:
    def attack_athens(p: Play) -> None:
        quick_turns(p)
        p.state.board.provinces["Peloponnesus"].legions = {"Romans": 2}
        p.post("ann", "next Romans")
        p.post("ann", "march 2 Peloponnesus to Attica")
    p = game([5, 5, 1], "Statue of Zeus", "Greeks")
    attack_athens(p)
    assert ("Battle in Attica: the Romans throw [5, 5], the Greeks [1] (fortress: +5, one hit cancelled; in its "
            "capital: 1 more hit cancelled); the Romans lose 1, the Greeks 0.") in p.said
    assert p.state.board.provinces["Attica"].at_war
    control = game([5, 5, 1])
    attack_athens(control)
    assert control.state.board.provinces["Attica"].conqueror == "Romans"


def test_the_colossus_of_rhodes_defends_with_one_more_die() -> None:
    def sea_fight(p: Play) -> None:
        quick_turns(p, {"Greeks": "buy trireme in Mare Ionium with taxes"})
        p.post("ann", "next Romans")
        p.post("ann", "sail Mare Tyrrhenum to Mare Ionium attack Greeks")
    p = game([5, 3, 2], "Colossus of Rhodes", "Greeks")
    sea_fight(p)
    assert ("The roll for the battle in Mare Ionium is bound to fixed value(s) #3 to #5 given in campaign.created, "
            "label 'battle-1-Mare Ionium' (known in advance: not verifiable).") in p.said  # 3 dice, not 2
    assert ("Battle in Mare Ionium: the Romans throw [5], the Greeks [3, 2] (1 more die defending); the Romans lose "
            "1, the Greeks 1.") in p.said
    assert p.state.board.triremes["Mare Ionium"] == {}
    control = game([5, 3, 2])
    sea_fight(control)
    assert "Battle in Mare Ionium: the Romans throw [5], the Greeks [3]; the Romans lose 0, the Greeks 1." \
        in control.said
    assert control.state.board.triremes["Mare Ionium"] == {"Romans": 1}
