"""Adjacent by sea (rules version 3): a province touching a sea of an empire's trireme chain that reaches one of its
provinces is adjacent to the empire, for influence and for conversion, so the islands can be reached; campaigns of
versions 1 and 2 keep land borders only."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.engine.mare_nostrum_empires.mne_board import board, rules
from tests.engine.mare_nostrum_empires.mne_play import Play, quick_claims, quick_commerce, quick_turns, user
from tests.engine.mare_nostrum_empires.test_mne_game import trade, turns

from engine.events import Rejection
from engine.mare_nostrum_empires import conquest, placement, sea_adjacency
from engine.mare_nostrum_empires.state import Board

NOT_ADJACENT = ("Sicilia is not adjacent to any of your provinces: neither by land nor by a sea of your trireme chain "
                "reaching one of them")
TAX_TRADE = ({"Romans": "tax", "Greeks": "tax", "Carthaginians": "tax"},
             [("Carthaginians", "tax", "Romans"), ("Romans", "tax", "Greeks"), ("Greeks", "tax", "Carthaginians")])


def at(version: int) -> Board:
    """The 3-player board at the start (the Romans' one trireme in Mare Tyrrhenum, touching Latium and Sicilia)."""
    b = board()
    b.rules_version = version
    return b


def refusal(check: Callable[..., object], *args: object) -> str:
    """The whole words of the refusal, to be compared exactly."""
    with pytest.raises(Rejection) as caught:
        check(*args)
    return str(caught.value)


def test_an_island_is_refused_without_a_trireme_of_yours_beside_it_and_accepted_with_one() -> None:
    b = at(3)
    b.triremes["Mare Tyrrhenum"] = {"Carthaginians": 1}  # another empire's trireme does not join the Romans to it
    assert refusal(placement.check_influence, rules(), b, "Romans", "Sicilia") == NOT_ADJACENT
    b.triremes["Mare Tyrrhenum"]["Romans"] = 1
    placement.check_influence(rules(), b, "Romans", "Sicilia")
    placement.check_influence(rules(), b, "Romans", "Sardinia")  # Mare Tyrrhenum touches Sardinia too
    assert sea_adjacency.adjacent(rules(), b, "Romans", "Sicilia") is True


def test_a_chain_of_several_seas_reaches_a_far_island_only_when_joined_to_one_of_your_provinces() -> None:
    b = at(3)
    b.triremes["Mare Libycum"]["Romans"] = 1  # touches Creta, but no Roman province, and no Roman sea joins it
    with pytest.raises(Rejection, match="^Creta is not adjacent to any of your provinces: neither by land nor by a "
                                        "sea of your trireme chain reaching one of them$"):
        placement.check_influence(rules(), b, "Romans", "Creta")
    b.triremes["Mare Ionium"]["Greeks"] = 1
    assert sea_adjacency.adjacent(rules(), b, "Romans", "Creta") is False
    b.triremes["Mare Ionium"]["Romans"] = 1  # Mare Tyrrhenum, Mare Ionium, Mare Libycum: a chain from Latium
    placement.check_influence(rules(), b, "Romans", "Creta")
    # The same chain makes a far coast adjacent too: the seed's chain joins any two provinces across the water.
    placement.check_influence(rules(), b, "Romans", "Epirus")
    assert sea_adjacency.adjacent(rules(), b, "Romans", "Cyprus") is False  # Mare Phoenicium holds no Roman trireme


def test_the_other_conditions_still_hold_on_an_island() -> None:
    b = at(3)
    b.provinces["Sicilia"].legions["Carthaginians"] = 1
    assert refusal(placement.check_influence, rules(), b, "Romans", "Sicilia") == (
        "Sicilia holds legions of the Carthaginians: an influence marker goes where no enemy army is")
    b.provinces["Sicilia"].legions = {}
    b.provinces["Sicilia"].influence = "Carthaginians"
    assert refusal(placement.check_influence, rules(), b, "Romans", "Sicilia") == (
        "Sicilia already holds the Carthaginians' influence marker: an influence marker goes in a neutral province")


@pytest.mark.parametrize("version", [1, 2])
def test_older_campaigns_keep_land_borders_only(version: int) -> None:
    b = at(version)
    assert b.triremes["Mare Tyrrhenum"] == {"Romans": 1}
    assert refusal(placement.check_influence, rules(), b, "Romans", "Sicilia") == (
        "Sicilia is not adjacent to any of your provinces")
    b.provinces["Sicilia"].influence = "Carthaginians"
    b.provinces["Sicilia"].legions = {"Romans": 1}
    b.provinces["Sicilia"].conqueror = "Romans"
    conquest.stand_on_marker(b, "Romans", "Sicilia")
    assert refusal(conquest.convert, rules(), b, "Romans", "Sicilia") == (
        "Sicilia is not adjacent to the Romans' empire: the marker stays")
    assert b.provinces["Sicilia"].influence == "Carthaginians"
    placement.check_influence(rules(), b, "Romans", "Gallia Cisalpina")  # a land border still serves


def test_an_island_conquered_by_sea_is_converted_only_while_the_chain_joins_it() -> None:
    b = at(3)
    b.provinces["Sicilia"].influence = "Carthaginians"
    b.provinces["Sicilia"].legions = {"Romans": 2}
    b.provinces["Sicilia"].conqueror = "Romans"
    conquest.stand_on_marker(b, "Romans", "Sicilia")
    b.triremes["Mare Tyrrhenum"] = {}
    b.triremes["Mare Ionium"] = {"Romans": 1}  # touches Sicilia, but none of the Romans' provinces
    assert refusal(conquest.convert, rules(), b, "Romans", "Sicilia") == (
        "Sicilia is not adjacent to the Romans' empire by land or by a sea of its trireme chain: the marker stays")
    assert (b.provinces["Sicilia"].influence, b.provinces["Sicilia"].converting) == ("Carthaginians", "Romans")
    b.triremes["Mare Tyrrhenum"] = {"Romans": 1}
    conquest.convert(rules(), b, "Romans", "Sicilia")
    assert (b.provinces["Sicilia"].influence, b.provinces["Sicilia"].converting) == ("Romans", None)


def test_syracuse_is_built_in_a_game_once_the_romans_reach_sicilia_by_sea() -> None:
    p = Play(3, rules_version=3)
    trade(p, "I 1", *TAX_TRADE)
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Greeks")
    with pytest.raises(Rejection) as caught:  # the Greeks' triremes are in Mare Aegaeum, far from Sicilia
        p.post("bob", "buy influence in Sicilia with taxes")
    assert str(caught.value) == NOT_ADJACENT
    p.post("bob", "done")
    quick_turns(p, {"Romans": "buy influence in Sicilia with gladiators, marble, wine"})
    assert "The Romans buy influence in Sicilia (paid with gladiators, marble, wine)." in p.said
    quick_turns(p)
    quick_claims(p)
    quick_commerce(p, "II 2")
    quick_turns(p, {"Romans": "buy legendary in Sicilia with taxes"})
    assert "The Romans buy legendary in Sicilia (paid with taxes)." in p.said
    sicilia = p.state.board.provinces["Sicilia"]
    assert (sicilia.influence, sicilia.built) == ("Romans", {"legendary"})
    assert p.rs.rules.provinces["Sicilia"].legendary == "Syracuse"
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_a_campaign_of_version_1_still_refuses_sicilia_in_a_game() -> None:
    p = Play(3)
    trade(p, "I 1", *TAX_TRADE)
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Romans")
    with pytest.raises(Rejection) as caught:
        p.post("ann", "buy influence in Sicilia with gladiators, marble, wine")
    assert str(caught.value) == "Sicilia is not adjacent to any of your provinces"
    assert p.state.board.provinces["Sicilia"].influence is None


def test_an_island_is_converted_in_a_game_after_a_conquest_by_sea() -> None:
    p = Play(3, rules_version=3)
    trade(p, "I 1", *TAX_TRADE)
    # The Carthaginians reach Sicilia by their trireme in Fretum Siculum, beside Africa.
    turns(p, {"Carthaginians": "buy influence in Sicilia with purple, oil, wheat"})
    assert p.state.board.provinces["Sicilia"].influence == "Carthaginians"
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Romans")
    p.post("ann", "march 2 Latium to Sicilia\nstand Sicilia\ndone")
    assert p.said[-4:-1] == ["The Romans move 2 legions from Latium to Sicilia along their trireme chain.",
                             "The Romans enter Sicilia unopposed and are its conquerors.",
                             "The Romans stand a legion on the influence marker of Sicilia."]
    quick_turns(p)
    quick_claims(p)
    quick_commerce(p, "II 2")
    quick_turns(p)
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Romans")
    p.post("ann", "convert Sicilia")
    assert p.said[-1] == "The Romans convert the influence marker of Sicilia: the province is now theirs."
    assert p.state.board.provinces["Sicilia"].influence == "Romans"
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_by_land_a_province_is_adjacent_when_one_neighbour_is_the_empires() -> None:
    """Version 1, land only: Gallia Cisalpina borders Roman Etruria; Latium borders only Roman provinces; Epirus
    borders Illyria (neutral) and Greek Macedonia and Attica, none of them Roman."""
    b = at(1)
    assert [sea_adjacency.adjacent(rules(), b, "Romans", p) for p in ("Gallia Cisalpina", "Latium", "Epirus")] == [
        True, True, False]
    assert sea_adjacency.adjacent(rules(), b, "Greeks", "Epirus") is True
