"""The ruleset boundary: set-up from players or an option, reading posts, refusals that change nothing, the
prompts of each phase, and what the public view keeps secret."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_play import Play, ruleset

from engine.events import Event, Rejection
from engine.rulesets import load_ruleset
from tests.engine.mare_nostrum_empires.mne_board import DATA


def test_registered_under_its_id_beside_the_campaign_game() -> None:
    rs = load_ruleset("mare-nostrum-empires", DATA)
    assert (rs.id, rs.title) == ("mare-nostrum-empires", "Mare Nostrum: Empires")
    assert load_ruleset("mare-nostrum", DATA).title != rs.title


def test_the_number_of_empires_comes_from_the_players_or_the_option() -> None:
    rs = ruleset()
    assert rs.initial_state({"gm": "gm"}).board.empires == ("Romans", "Greeks", "Carthaginians", "Egyptians",
                                                            "Babylonians")
    assert rs.initial_state({"options": "four-players"}).board.empires == ("Romans", "Greeks", "Carthaginians",
                                                                          "Egyptians")
    with pytest.raises(Rejection, match="played by 3 to 5 players, not 2"):
        rs.initial_state({"players": {"Romans": "ann", "Greeks": "bob"}})
    with pytest.raises(Rejection, match="at 3 players the empires are Romans, Greeks, Carthaginians: 'Egyptians' is "
                                        "not one"):
        rs.initial_state({"players": {"Romans": "a", "Greeks": "b", "Egyptians": "c"}})
    with pytest.raises(Rejection, match="the option three-players is for 3 players, and 4 are named"):
        rs.initial_state({"options": ["three-players"], "players": {"Romans": "a", "Greeks": "b",
                                                                    "Carthaginians": "c", "Egyptians": "d"}})
    with pytest.raises(Rejection, match="'six-players' is not an option"):
        rs.initial_state({"options": "six-players"})
    assert set(rs.options) == {"three-players", "four-players"}


def test_a_line_not_understood_quotes_it_and_lists_the_orders() -> None:
    p = Play(3)
    [proposal] = p.rs.read_post(p.state, "ann", "recruit 3 elephants")
    assert proposal.error is not None and proposal.error.startswith(
        "'recruit 3 elephants' is not understood: the orders are: token")
    [proposal] = p.rs.read_post(p.state, "zed", "done")
    assert proposal.error == "you (zed) play no empire here; the GM orders for one with /order <empire> <order>"
    [proposal] = p.rs.read_post(p.state, "ann", "offer wine, gold")
    assert proposal.error is not None and "'gold' is not a token" in proposal.error


def test_a_refused_order_changes_nothing() -> None:
    p = Play(3)
    before = p.rs.public_view(p.state)
    with pytest.raises(Rejection, match=r"the Trade master \(Carthaginians\) chooses the commerce token, not Romans"):
        p.post("ann", "token II 2")
    with pytest.raises(Rejection, match="commerce token II shows 2 or 3, not 4"):
        p.post("cat", "token II 4")
    with pytest.raises(Rejection, match="buying belongs to the purchase phase; this is the commerce phase"):
        p.post("ann", "buy legion in Latium with taxes")
    with pytest.raises(Rejection, match="you \\(ann\\) do not play the Greeks"):
        p.rs.apply(p.state, Event(1, "order", "ann", {"seat": "Greeks", "order": {"kind": "done"}}))
    assert p.rs.public_view(p.state) == before and p.events == []


def test_an_offer_of_tokens_not_held_is_refused_in_the_bots_fold() -> None:
    p = Play(3)
    p.post("cat", "token II 2")
    with pytest.raises(Rejection, match="Romans puts forward 1 × iron but holds 0"):
        p.post("ann", "offer iron, tax")
    with pytest.raises(Rejection, match="Romans puts forward 3 tokens, not the 2 the commerce token shows"):
        p.post("ann", "offer wine, tax, tax")


def test_offers_stay_sealed_in_the_public_view_until_all_are_in() -> None:
    p = Play(3)
    p.post("cat", "token I 1")
    p.post("ann", "offer wine")
    view = p.rs.public_view(p.state)
    assert view["commerce"]["offers"]["Romans"]["tokens"] is None and "wine" not in str(view["commerce"])
    assert p.rs.private_view(p.state, "Romans")["offer"] == ["wine"]
    assert p.rs.private_view(p.state, "Greeks")["offer"] is None
    assert [x.seat for x in p.rs.prompts(p.state)] == ["Greeks", "Carthaginians"]
    assert p.rs.needs(p.state) == []  # nothing to reveal before the last offer


def test_the_prompts_name_the_leader_then_the_player() -> None:
    p = Play(3)
    [prompt] = p.rs.prompts(p.state)
    assert prompt.seat == "Carthaginians" and prompt.choices == ("token I 1", "token I 2", "token II 2",
                                                                  "token II 3", "token III 3", "token III 4")
    p.post("cat", "token I 1")
    for user, offer in (("ann", "wine"), ("bob", "oil"), ("cat", "wheat")):
        p.post(user, f"offer {offer}")
    for user, line in (("cat", "take wine from Romans"), ("ann", "take wheat from Carthaginians"),
                       ("cat", "take oil from Greeks")):
        p.post(user, line)
    # The Greeks have nobody left to take from: the Trade master took one more than was taken from him.
    assert p.state.phase == "commerce"
    [prompt] = p.rs.prompts(p.state)
    assert (prompt.seat, prompt.what) == ("Carthaginians", "give one token to Greeks ('give <token>')")
    p.post("cat", "give wine")
    assert p.state.phase == "purchase"
    assert p.state.board.screens["Greeks"].goods["wine"] == 1 and p.state.board.screens["Greeks"].goods["oil"] == 1


def test_autocomplete_names_and_what_a_typed_name_resolves_to() -> None:
    rs = ruleset()
    assert rs.names("empire") == ["Romans", "Greeks", "Carthaginians", "Egyptians", "Babylonians"]
    assert len(rs.names("province")) == 38 and len(rs.names("sea")) == 14 and "tax" in rs.names("resource")
    assert rs.resolve("province", "Troy").name == "Troas"
    assert rs.resolve("sea", "Aegean").name == "Mare Aegaeum"
    assert rs.resolve("province", "Aegean").error == "Mare Aegaeum is not a province"
    assert rs.resolve("empire", "Roman").name == "Romans"
    assert rs.resolve("resource", "legendary gems").name == "legendary gems"
    assert rs.resolve("colour", "red").error == "Mare Nostrum: Empires has no names of kind 'colour'"


def test_a_slash_command_is_the_order_line_it_stands_for() -> None:
    p = Play(3)
    march = p.rs.read_command(p.state, "ann", "march", ["Rome", "Etruria", "2"], is_gm=False)
    assert (march.kind, march.data) == ("order", {"seat": "Romans", "order": {"kind": "march", "province": "Latium",
                                                                              "to": "Etruria", "count": 2}})
    buy = p.rs.read_command(p.state, "ann", "buy", ["legion", "Latium", "taxes"], is_gm=False)
    assert buy.data["order"] == {"kind": "buy", "item": "legion", "place": "Latium", "taxes": True, "goods": []}
    assert p.rs.read_command(p.state, "ann", "sail", ["Mare Tyrrhenum"], is_gm=False).error == \
        "/sail needs 2 argument(s): /sail <from> <to> [<attack>], e.g. /sail Mare Tyrrhenum Mare Ionium"
    assert p.rs.read_command(p.state, "ann", "recruit", [], is_gm=False).error == \
        "Mare Nostrum: Empires has no command /recruit: post orders instead"


def test_a_player_waits_to_be_named_by_the_leader() -> None:
    p = Play(3)
    p.post("cat", "token I 1")
    for user, offer in (("ann", "wine"), ("bob", "oil"), ("cat", "wheat")):
        p.post(user, f"offer {offer}")
    for user, line in (("cat", "take wine from Romans"), ("ann", "take oil from Greeks"),
                       ("bob", "take wheat from Carthaginians")):
        p.post(user, line)
    with pytest.raises(Rejection, match="nobody plays yet: Greeks names who plays next \\('next <empire>'\\)"):
        p.post("ann", "buy legion in Latium with taxes")
    with pytest.raises(Rejection, match="Greeks names who plays next, not Romans"):
        p.post("ann", "next Romans")
    p.post("bob", "next Carthaginians")
    with pytest.raises(Rejection, match="Carthaginians plays now, not Romans"):
        p.post("ann", "buy legion in Latium with taxes")
