"""The defaults a deadline applies (defaults.py): each reading, exactly; the game played by them through the
service is tests/games/test_mare_nostrum_empires_timeouts.py."""
from __future__ import annotations

from engine.mare_nostrum_empires import defaults, view
from engine.mare_nostrum_empires.state import Screen
from tests.engine.mare_nostrum_empires.mne_board import rules
from tests.engine.mare_nostrum_empires.mne_play import Play


def test_the_default_offer_puts_taxes_first_then_goods_in_the_data_order_and_legendary_goods_last() -> None:
    screen = Screen({"wine": 2, "gems": 1}, 1, ["legendary.7", "legendary.3"])
    assert rules().resources.index("gems") < rules().resources.index("wine")
    assert defaults.offer(rules(), screen, 4) == ["tax", "gems", "wine", "wine"]
    assert defaults.offer(rules(), screen, 6) == ["tax", "gems", "wine", "wine", "legendary.3", "legendary.7"]
    assert defaults.offer(rules(), Screen({}, 0, ["gems"]), 1) == ["legendary gems"]  # rules version 1
    # Fewer held than the face asks: all of them (a tile's smaller offer; a seat holding fewer sits out).
    assert defaults.offer(rules(), screen, 7) == ["tax", "gems", "wine", "wine", "legendary.3", "legendary.7"]


def test_the_default_token_is_the_first_free_one_at_its_smaller_face() -> None:
    assert defaults.token(rules(), ["I", "II", "III"]) == "token I 1"
    assert defaults.token(rules(), ["II", "III"]) == "token II 2"


def test_a_tie_keeps_its_title_with_the_previous_leader_else_goes_to_the_first_tied_in_seating_order() -> None:
    assert defaults.name("politics", "Greeks", ["Romans", "Greeks"]) == "name Greeks politics"
    assert defaults.name("politics", "Carthaginians", ["Romans", "Greeks"]) == "name Romans politics"


def test_a_temple_in_a_legendary_city_adds_a_tax_by_default() -> None:
    p = Play(3)
    p.state.phase = "production"
    p.state.board.provinces["Troas"].influence = "Greeks"
    p.state.board.provinces["Troas"].built = {"legendary", "temple"}
    prompt = view.prompts(p.rs.rules, p.state)[0]
    assert (prompt.seat, prompt.on_timeout) == ("Greeks", "extra Troas tax")
    p.gm("Greeks", prompt.on_timeout)
    assert "The Greeks: the temple of Troy adds a tax." in p.said


def test_with_cleopatra_the_default_offer_is_all_the_egyptians_hold_when_one_short() -> None:
    p = Play(4, rules_version=3)
    p.state.board.screens["Egyptians"] = Screen({}, 3, [], ["Cleopatra"])  # one short of the face's 4
    p.post("cat", "token III 4")
    assert p.state.commerce is not None and "Egyptians" in p.state.commerce.taking_part
    p.gm("Egyptians", "offer default")
    offer = p.state.commerce.offers["Egyptians"]
    assert offer.known == ["tax", "tax", "tax"]
