"""The Heroes' and Wonders' abilities of the Purchase, Commerce, Production and Claims phases, each played through
the game's orders with its exact result, beside the same situation without the tile (the control). A tile held is
given to an empire's screen as if bought earlier; national heroes are on their screens from the start. Campaigns
created before abilities were played (rules_version 1) play none of them."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import Play, quick_claims, quick_commerce, quick_turns, user

from engine.events import Rejection

NEW = 2  # rules_version: abilities played


def holding(tile: str, empire: str = "Romans", players: int = 3, version: int | None = NEW) -> Play:
    p = Play(players, rules_version=version)
    p.state.board.screens[empire].tiles.append(tile)
    return p


def to_purchase(p: Play) -> None:
    quick_commerce(p)
    assert p.state.phase == "purchase"


def next_round(p: Play) -> None:
    """From Purchase to the next round's Production, collected."""
    quick_turns(p)
    quick_turns(p)
    quick_claims(p)


# --- Purchase ---------------------------------------------------------------------------------------------------

def test_pericles_buys_an_influence_marker_for_two_tokens() -> None:
    p = Play(3, rules_version=NEW)
    to_purchase(p)
    p.post("bob", "next Greeks")
    p.post("bob", "buy influence in Epirus with oil, timber")
    assert p.state.board.provinces["Epirus"].influence == "Greeks"
    assert p.state.board.screens["Greeks"].goods == {"marble": 1, "oil": 1, "timber": 1}
    p.post("bob", "done\nnext Romans")
    with pytest.raises(Rejection, match="this costs 3 different goods \\(or 3 taxes\\), and 2 goods are named"):
        p.post("ann", "buy influence in Gallia Cisalpina with marble, wine")


def test_an_old_campaign_plays_no_ability_pericles_pays_three() -> None:
    p = Play(3)
    to_purchase(p)
    p.post("bob", "next Greeks")
    with pytest.raises(Rejection, match="this costs 3 different goods \\(or 3 taxes\\), and 2 goods are named"):
        p.post("bob", "buy influence in Epirus with oil, timber")


def test_the_temple_of_artemis_builds_a_temple_for_four() -> None:
    p = holding("Temple of Artemis")
    to_purchase(p)
    p.post("bob", "next Romans")
    p.post("ann", "buy temple in Etruria with taxes")
    assert "temple" in p.state.board.provinces["Etruria"].built and p.state.board.screens["Romans"].taxes == 0
    control = Play(3, rules_version=NEW)
    to_purchase(control)
    control.post("bob", "next Romans")
    with pytest.raises(Rejection, match="Romans has 4 taxes, not the 6 this costs"):
        control.post("ann", "buy temple in Etruria with taxes")


def test_the_mausoleum_keeps_three_taxes() -> None:
    p = holding("Mausoleum")
    to_purchase(p)
    p.post("bob", "next Romans")
    p.post("ann", "done")
    assert "The Romans end their purchases: their goods go back to the reserve, they keep 3 taxes." in p.said
    assert p.state.board.screens["Romans"].taxes == 3
    control = Play(3, rules_version=NEW)
    to_purchase(control)
    control.post("bob", "next Romans")
    control.post("ann", "done")
    assert control.state.board.screens["Romans"].taxes == 2


def test_the_great_library_swaps_one_good_a_round_on_the_holders_purchase_turn() -> None:
    p = holding("Great Library")
    to_purchase(p)
    p.post("bob", "next Romans")
    command = p.rs.read_command(p.state, "ann", "swap", ["wine", "iron"], is_gm=False)
    assert command.data == {"seat": "Romans", "order": {"kind": "swap", "good": "wine", "for_good": "iron"}}
    p.post("ann", "swap wine for iron")
    assert p.said[-1] == "The Romans swap wine for iron from the reserve."
    assert p.state.board.screens["Romans"].goods == {"gladiators": 1, "marble": 2, "wine": 1, "iron": 1}
    with pytest.raises(Rejection, match="the Romans have swapped a good this round: once a round"):
        p.post("ann", "swap wine for oil")
    with pytest.raises(Rejection, match="a swap takes a good of another resource than iron"):
        p.post("ann", "swap iron for iron")
    with pytest.raises(Rejection, match="'tax' is not a good: one of sheep"):
        p.post("ann", "swap tax for oil")
    control = Play(3, rules_version=NEW)
    to_purchase(control)
    control.post("bob", "next Romans")
    with pytest.raises(Rejection, match="the Romans hold no Hero or Wonder that swaps a good with the reserve"):
        control.post("ann", "swap wine for iron")


def test_the_great_library_swaps_only_goods_held_and_only_in_purchase() -> None:
    p = holding("Great Library")
    with pytest.raises(Rejection, match="swapping a good with the reserve belongs to the purchase phase; this is "
                                        "the commerce phase"):
        p.post("ann", "swap wine for iron")
    to_purchase(p)
    p.post("bob", "next Romans")
    with pytest.raises(Rejection, match="Romans holds no papyrus to swap"):
        p.post("ann", "swap papyrus for iron")


# --- Commerce ---------------------------------------------------------------------------------------------------

def test_cleopatra_takes_part_with_one_token_fewer_than_the_face() -> None:
    p = Play(4, rules_version=NEW)
    p.state.board.screens["Egyptians"].goods = {"papyrus": 2}
    p.state.board.screens["Egyptians"].taxes = 1
    p.state.board.screens["Greeks"].goods = {"oil": 2}
    p.state.board.screens["Greeks"].taxes = 1
    p.post("cat", "token III 4")
    assert p.state.commerce is not None and p.state.commerce.taking_part == ["Romans", "Carthaginians", "Egyptians"]
    with pytest.raises(Rejection, match="Egyptians puts forward 2 tokens: the commerce token shows 4, and Egyptians "
                                        "may put forward 3 to 4"):
        p.post("dan", "offer papyrus, tax")
    with pytest.raises(Rejection, match="Romans puts forward 3 tokens, not the 4 the commerce token shows"):
        p.post("ann", "offer wine, tax, tax")
    p.post("dan", "offer papyrus, papyrus, tax")
    assert p.state.commerce.offers["Egyptians"].known == ["papyrus", "papyrus", "tax"]
    p.post("ann", "offer wine, wine, tax, tax")
    p.post("cat", "offer oil, oil, tax, tax")
    while p.state.phase == "commerce":  # each picker takes the first token of the first offer it may take from
        ask = p.rs.prompts(p.state)[0]
        target = ask.what.removeprefix("take one token from ").split(",")[0].split(" (")[0]
        assert p.state.commerce.exchange is not None
        p.post(user(p, ask.seat), f"take {p.state.commerce.exchange.offers[target][0]} from {target}")
    # The chain ends with the short offer taken whole: the Egyptians gave their 3 tokens and took 3.
    egyptians = p.state.board.screens["Egyptians"]
    assert (egyptians.goods, egyptians.taxes) == ({"wine": 1, "oil": 1}, 1)


def test_without_cleopatra_three_tokens_sit_out_a_face_of_four() -> None:
    p = Play(4, rules_version=NEW)
    p.state.board.screens["Egyptians"].goods = {"papyrus": 2}
    p.state.board.screens["Egyptians"].taxes = 1
    p.state.board.screens["Egyptians"].tiles = []  # the control: the same screen without the national hero
    p.post("cat", "token III 4")
    assert p.state.commerce is not None and p.state.commerce.taking_part == ["Romans", "Greeks", "Carthaginians"]


# --- Production -------------------------------------------------------------------------------------------------

def test_hammurabi_doubles_a_caravans_goods_with_a_temple() -> None:
    p = Play(5, rules_version=NEW)
    to_purchase(p)
    next_round(p)
    # Babylonia: capital, temple, caravan and no market: its gems doubled by the temple.
    assert "Production: the Babylonians collect 2 purple, 2 wheat, 2 gems, 4 taxes." in p.said
    old = Play(5)
    to_purchase(old)
    next_round(old)
    assert "Production: the Babylonians collect 2 purple, 2 wheat, 1 gems, 4 taxes." in old.said


def test_spartacus_bought_from_the_row_adds_a_gladiators_good() -> None:
    p = Play(3, rules_version=NEW)
    to_purchase(p)
    assert p.state.row is not None and p.state.row.face_up[0] == "Spartacus"
    p.post("bob", "next Romans")
    p.post("ann", "buy Spartacus with taxes\ndone")
    next_round(p)
    assert "Production: the Romans collect 2 marble, 2 gladiators, 2 wine, 4 taxes." in p.said
    control = Play(3, rules_version=NEW)
    to_purchase(control)
    control.post("bob", "next Romans")
    control.post("ann", "buy legion in Latium with taxes\ndone")  # taxes spent otherwise
    next_round(control)
    assert "Production: the Romans collect 2 marble, 1 gladiators, 2 wine, 4 taxes." in control.said


def test_the_hanging_gardens_add_one_tax() -> None:
    p = holding("Hanging Gardens")
    to_purchase(p)
    next_round(p)
    assert "Production: the Romans collect 2 marble, 1 gladiators, 2 wine, 5 taxes." in p.said
    assert "Production: the Greeks collect 2 timber, 1 marble, 2 oil, 4 taxes." in p.said


# --- Claims -----------------------------------------------------------------------------------------------------

def test_homer_wins_every_tie_he_is_in() -> None:
    p = holding("Homer", "Greeks")
    to_purchase(p)
    quick_turns(p)
    quick_turns(p)
    assert p.rs.prompts(p.state) == []  # nobody is asked to name: the Greeks win each tie
    assert p.state.board.leaders == {"commerce": "Greeks", "politics": "Greeks", "military": "Greeks"}
    assert p.state.winners == [("Greeks", "hold the three titles")]


def test_without_homer_the_previous_leaders_name_in_ties() -> None:
    p = Play(3, rules_version=NEW)
    to_purchase(p)
    quick_turns(p)
    quick_turns(p)
    assert [(q.seat, q.choices[0]) for q in p.rs.prompts(p.state)] == [
        ("Carthaginians", "name Romans commerce"), ("Greeks", "name Romans politics"),
        ("Romans", "name Romans military")]


def test_the_oracle_of_delphi_names_the_political_leader_in_a_tie() -> None:
    p = holding("Oracle of Delphi")
    to_purchase(p)
    quick_turns(p)
    quick_turns(p)
    assert [q.seat for q in p.rs.prompts(p.state)] == ["Carthaginians", "Romans", "Romans"]
    with pytest.raises(Rejection, match="Romans, by their tile, names the successor, not Greeks"):
        p.post("bob", "name Greeks politics")
    p.post("ann", "name Carthaginians politics")
    assert p.state.claims_choices == {"politics": "Carthaginians"}
