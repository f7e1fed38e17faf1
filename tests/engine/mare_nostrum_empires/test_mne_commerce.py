"""Phase 2, Commerce: the Trade master's token, who takes part, the offers, the pick chain (the seed's A-B
example), the unequal exchange and the tokens' rotation."""
from __future__ import annotations

from collections import Counter

import pytest

from engine.events import Rejection
from engine.mare_nostrum_empires import commerce
from engine.mare_nostrum_empires.state import Screen

FACES = {"I": (1, 2), "II": (2, 3), "III": (3, 4)}


def test_the_seeds_example_a_takes_from_b_b_from_a_and_a_never_from_b_again() -> None:
    ex = commerce.open_exchange("A", {"A": ["wine", "tax"], "B": ["oil", "sheep"], "C": ["iron", "tax"]})
    commerce.pick(ex, "A", "B", "oil")
    assert ex.chain.next == "B"
    commerce.pick(ex, "B", "A", "wine")
    assert ex.chain.next == "A" and commerce.targets(ex, "A") == ["C"]
    with pytest.raises(Rejection, match="A has already picked from B: one round trip per pair; pick from C"):
        commerce.pick(ex, "A", "B", "sheep")
    commerce.pick(ex, "A", "C", "iron")
    commerce.pick(ex, "C", "B", "sheep")
    commerce.pick(ex, "B", "C", "tax")
    commerce.pick(ex, "C", "A", "tax")
    assert ex.over and commerce.wronged(ex) is None
    assert commerce.results(ex) == {"A": Counter({"oil": 1, "iron": 1, "wine": -1, "tax": -1}),
                                    "B": Counter({"wine": 1, "tax": 1, "oil": -1, "sheep": -1}),
                                    "C": Counter({"sheep": 1, "tax": 0, "iron": -1})}


def test_only_the_player_picked_from_picks_next_and_only_what_is_offered() -> None:
    ex = commerce.open_exchange("A", {"A": ["wine"], "B": ["oil"]})
    with pytest.raises(Rejection, match="A picks now, not B"):
        commerce.pick(ex, "B", "A", "wine")
    with pytest.raises(Rejection, match="B does not offer 'gems': it offers oil"):
        commerce.pick(ex, "A", "B", "gems")


def test_the_unequal_exchange_the_trade_master_gives_one_token_to_the_player_left_short() -> None:
    ex = commerce.open_exchange("A", {"A": ["wine"], "B": ["oil"], "C": ["tax"]})
    commerce.pick(ex, "A", "B", "oil")
    commerce.pick(ex, "B", "A", "wine")
    commerce.pick(ex, "A", "C", "tax")
    assert ex.over and commerce.wronged(ex) == "C"
    with pytest.raises(Rejection, match="A has one token too many and owes C one: give it first"):
        commerce.results(ex)
    with pytest.raises(Rejection, match="A has no 'gems' to give to C"):
        commerce.give(ex, "gems", Screen())
    commerce.give(ex, "oil", Screen())
    assert commerce.results(ex) == {"A": Counter({"tax": 1, "oil": 0, "wine": -1}),
                                    "B": Counter({"wine": 1, "oil": -1}),
                                    "C": Counter({"oil": 1, "tax": -1})}


def test_two_players_after_their_round_trip_keep_what_was_not_exchanged() -> None:
    ex = commerce.open_exchange("A", {"A": ["wine", "tax"], "B": ["oil", "sheep"]})
    commerce.pick(ex, "A", "B", "oil")
    commerce.pick(ex, "B", "A", "tax")
    assert ex.over and ex.offers == {"A": ["wine"], "B": ["sheep"]}
    assert commerce.results(ex) == {"A": Counter({"oil": 1, "tax": -1}), "B": Counter({"tax": 1, "oil": -1})}


def test_players_with_too_few_tokens_sit_out_and_the_others_must_take_part() -> None:
    screens = {"A": Screen({"wine": 2}, 1), "B": Screen({}, 2), "C": Screen({"oil": 1}, 0, ["gems"])}
    assert commerce.participants(screens, ("A", "B", "C"), 3) == ["A"]
    assert commerce.participants(screens, ("A", "B", "C"), 2) == ["A", "B", "C"]


def test_an_offer_must_be_the_faces_count_of_tokens_the_player_holds() -> None:
    screen = Screen({"wine": 2}, 1, ["gems"])
    commerce.check_offer(screen, "A", ["wine", "legendary gems"], 2)
    with pytest.raises(Rejection, match="A puts forward 1 token, not the 2 the commerce token shows"):
        commerce.check_offer(screen, "A", ["wine"], 2)
    with pytest.raises(Rejection, match="A puts forward 2 × tax but holds 1"):
        commerce.check_offer(screen, "A", ["tax", "tax"], 2)


def test_a_token_used_waits_until_all_three_have_been_unless_the_title_changes_hands() -> None:
    tokens = commerce.Tokens()
    tokens, count = commerce.choose(FACES, tokens, "A", "II", 3)
    assert count == 3 and commerce.available(tuple(FACES), tokens, "A") == ["I", "III"]
    with pytest.raises(Rejection, match="commerce token II has been used: until all three have been, choose I, III"):
        commerce.choose(FACES, tokens, "A", "II", 2)
    with pytest.raises(Rejection, match="commerce token I shows 1 or 2, not 3"):
        commerce.choose(FACES, tokens, "A", "I", 3)
    tokens, _ = commerce.choose(FACES, tokens, "A", "I", 1)
    tokens, _ = commerce.choose(FACES, tokens, "A", "III", 4)
    assert commerce.available(tuple(FACES), tokens, "A") == ["I", "II", "III"]
    tokens, _ = commerce.choose(FACES, tokens, "A", "I", 2)
    assert tokens.used == ["I"]
    assert commerce.available(tuple(FACES), tokens, "B") == ["I", "II", "III"]
    tokens, _ = commerce.choose(FACES, tokens, "B", "I", 2)
    assert tokens == commerce.Tokens(["I"], "B")
