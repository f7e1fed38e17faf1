"""When a fortress falls (rules version 3): with the province conquered by battle, to the conqueror's pillage, when
the province is converted; each case beside a campaign created before, where a fortress never falls."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.mare_nostrum_empires import commerce, placement
from tests.engine.mare_nostrum_empires.mne_play import Play
from tests.engine.mare_nostrum_empires.test_mne_game import ROW_VALUES, claims, trade, turns, user

DICE = [6, 5, 4, 1]  # the Romans' three legions, then the Greeks' one


def romans_attack_peloponnesus(rules_version: int | None, greek_legion: bool) -> Play:
    """Five players: the Greeks fortify Peloponnesus (with a legion there, or none), the Romans march 3 legions in."""
    p = Play(5, ROW_VALUES + DICE + [3] * 100, rules_version=rules_version)
    trade(p, "I 1", {"Romans": "wine", "Greeks": "timber", "Carthaginians": "wheat", "Egyptians": "papyrus",
                     "Babylonians": "purple"},
          [("Carthaginians", "wine", "Romans"), ("Romans", "timber", "Greeks"), ("Greeks", "papyrus", "Egyptians"),
           ("Egyptians", "purple", "Babylonians"), ("Babylonians", "wheat", "Carthaginians")])
    greeks = "buy fortress in Peloponnesus with marble, oil, papyrus"
    turns(p, {"Greeks": greeks + ("\nbuy legion in Peloponnesus with taxes" if greek_legion else ""),
              "Romans": "buy legion in Latium with taxes\nbuy trireme in Mare Tyrrhenum with gladiators, marble, wine"})
    assert p.state.board.provinces["Peloponnesus"].fortress == "Greeks"
    p.post("ann", "next Romans")
    p.post("ann", "sail Mare Tyrrhenum to Mare Ionium\nmarch 3 Latium to Peloponnesus")
    return p


def test_a_fortress_falls_with_the_last_legion_of_a_province_conquered() -> None:
    p = romans_attack_peloponnesus(3, greek_legion=True)
    assert p.said[-3:] == [
        "Battle in Peloponnesus: the Romans throw [6, 5, 4], the Greeks [1] (fortress: +5, one hit cancelled); the "
        "Romans lose 1, the Greeks 1.",
        "The Romans conquer Peloponnesus.",
        "The Greeks' fortress of Peloponnesus falls with its last legion: it goes back to the Greeks."]
    prov = p.state.board.provinces["Peloponnesus"]
    assert (prov.fortress, prov.conqueror, prov.legions) == (None, "Romans", {"Romans": 2})
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_before_version_3_the_fortress_stands_in_the_conquered_province() -> None:
    p = romans_attack_peloponnesus(2, greek_legion=True)
    assert p.said[-1] == "The Romans conquer Peloponnesus."
    assert p.state.board.provinces["Peloponnesus"].fortress == "Greeks"


def test_a_conqueror_who_met_no_legion_pillages_the_fortress_for_no_gain() -> None:
    p = romans_attack_peloponnesus(3, greek_legion=False)
    assert p.said[-1] == "The Romans enter Peloponnesus unopposed and are its conquerors."
    before = p.state.board.screens["Romans"]
    goods, taxes = dict(before.goods), before.taxes
    with pytest.raises(Rejection, match="Attica has no enemy fortress to pillage|the Romans have not conquered Attica"):
        p.post("ann", "pillage fortress in Attica")
    p.post("ann", "pillage fortress in Peloponnesus")
    assert p.said[-1] == "The Romans pillage the Greeks' fortress of Peloponnesus: it goes back to the Greeks."
    prov = p.state.board.provinces["Peloponnesus"]
    assert (prov.fortress, prov.conqueror, prov.built) == (None, None, {"caravan", "market", "city"})
    assert (p.state.board.screens["Romans"].goods, p.state.board.screens["Romans"].taxes) == (goods, taxes)
    with pytest.raises(Rejection, match="the Romans have not conquered Peloponnesus"):  # the one pillage is spent
        p.post("ann", "pillage city in Peloponnesus")
    assert p.rs.public_view(p.replay()) == p.rs.public_view(p.state)


def test_before_version_3_a_fortress_is_not_pillaged() -> None:
    p = romans_attack_peloponnesus(None, greek_legion=False)
    with pytest.raises(Rejection, match="'fortress' is not a building: caravan, market, temple, city, capital, "
                                        "legendary \\(in this campaign a fortress never falls\\)"):
        p.post("ann", "pillage fortress in Peloponnesus")
    assert p.state.board.provinces["Peloponnesus"].fortress == "Greeks"


def trade_any(p: Play) -> None:
    """A Commerce phase played by the prompts: the first token face offered, each player's first tokens put
    forward, each picker taking the first token of its first target, the unequal exchange's first token given."""
    master = p.rs.prompts(p.state)[0]
    p.post(user(p, master.seat), master.choices[0])
    c = p.state.commerce
    assert c is not None and c.count is not None
    for seat in c.taking_part:
        tokens = list(commerce.token_list(p.state.board.screens[seat]).elements())[:c.count]
        p.post(user(p, seat), "offer " + ", ".join(tokens))
    while p.state.phase == "commerce":
        prompt = p.rs.prompts(p.state)[0]
        ex = p.state.commerce.exchange if p.state.commerce else None
        assert ex is not None
        if ex.chain.next is not None:
            target = commerce.targets(ex, prompt.seat)[0]
            p.post(user(p, prompt.seat), f"take {ex.offers[target][0]} from {target}")
        else:
            p.post(user(p, prompt.seat), f"give {ex.taken[prompt.seat][0]}")


def convert_peloponnesus(rules_version: int) -> Play:
    """The Romans stand on the Greek marker of Peloponnesus and convert it at their next Military phase (Attica, its
    one neighbour, is made theirs for the test: the adjacency the seed asks for)."""
    p = romans_attack_peloponnesus(rules_version, greek_legion=False)
    p.post("ann", "stand Peloponnesus\ndone")
    for empire in ("Greeks", "Carthaginians", "Egyptians", "Babylonians"):
        p.post("ann", f"next {empire}")
        p.post(user(p, empire), "done")
    claims(p)
    trade_any(p)
    turns(p, {})
    p.state.board.provinces["Attica"].influence = "Romans"
    assert p.state.turns is not None
    p.post(user(p, p.state.turns.leader), "next Romans")
    p.post("ann", "convert Peloponnesus")
    return p


def test_a_fortress_of_the_former_holder_falls_when_its_province_is_converted() -> None:
    p = convert_peloponnesus(3)
    assert p.said[-2:] == ["The Romans convert the influence marker of Peloponnesus: the province is now theirs.",
                           "The Greeks' fortress of Peloponnesus falls: it goes back to the Greeks."]
    prov = p.state.board.provinces["Peloponnesus"]
    assert (prov.influence, prov.fortress) == ("Romans", None)
    # One per province: the new holder may place its own there now, which the Greek one forbade.
    placement.check_unit(p.rs.rules, p.state.board, "Romans", "fortress", "Peloponnesus")


def test_before_version_3_the_fortress_stays_in_a_converted_province() -> None:
    p = convert_peloponnesus(2)
    assert p.said[-1] == "The Romans convert the influence marker of Peloponnesus: the province is now theirs."
    assert p.state.board.provinces["Peloponnesus"].fortress == "Greeks"
    with pytest.raises(Rejection, match="Peloponnesus already has a fortress: one per province"):
        placement.check_unit(p.rs.rules, p.state.board, "Romans", "fortress", "Peloponnesus")
