"""Phase 3, Purchase: the seed's prices, paying with different goods or with taxes, the end of a player's turn."""
from __future__ import annotations

import pytest

from tests.engine.mare_nostrum_empires.mne_board import rules

from engine.events import Rejection
from engine.mare_nostrum_empires import purchase
from engine.mare_nostrum_empires.state import Screen


def test_the_seeds_prices_and_a_hero_at_the_price_of_the_round() -> None:
    r = rules()
    assert [purchase.price(r, item, 1) for item in ("influence", "legion", "capital", "temple", "market", "pyramids")] \
        == [3, 3, 3, 6, 6, 12]
    assert [purchase.price(r, "Alexander", n) for n in (1, 3, 5, 9)] == [4, 5, 6, 7]
    with pytest.raises(Rejection, match="'chariot' cannot be bought"):
        purchase.price(r, "chariot", 1)


def test_paying_with_three_different_goods() -> None:
    screen = Screen({"wine": 2, "oil": 1}, 1, ["gems"], ["Caesar"])
    after = purchase.pay(screen, "Romans", 3, False, ["wine", "oil", "legendary gems"])
    assert (after.goods, after.taxes, after.legendary, after.tiles) == ({"wine": 1}, 1, [], ["Caesar"])


def test_goods_must_all_be_different_and_held() -> None:
    screen = Screen({"wine": 2, "oil": 1}, 4)
    with pytest.raises(Rejection, match="the goods must all be different: 'wine' is named 2 times"):
        purchase.pay(screen, "Romans", 3, False, ["wine", "wine", "oil"])
    with pytest.raises(Rejection, match="Romans holds no iron"):
        purchase.pay(screen, "Romans", 3, False, ["wine", "iron", "oil"])
    with pytest.raises(Rejection, match="this costs 3 different goods \\(or 3 taxes\\), and 2 goods are named"):
        purchase.pay(screen, "Romans", 3, False, ["wine", "oil"])


def test_paying_with_taxes_and_never_a_mix() -> None:
    screen = Screen({"wine": 2}, 4)
    assert purchase.pay(screen, "Romans", 3, True, []).taxes == 1
    with pytest.raises(Rejection, match="Romans has 4 taxes, not the 6 this costs"):
        purchase.pay(screen, "Romans", 6, True, [])
    with pytest.raises(Rejection, match="not a mix of taxes and goods"):
        purchase.pay(screen, "Romans", 3, True, ["wine"])


def test_at_the_end_of_a_turn_goods_go_back_and_two_taxes_at_most_stay() -> None:
    after = purchase.end_of_turn(Screen({"wine": 2}, 5, ["gems"], ["Caesar"], False))
    assert after == Screen({}, 2, [], ["Caesar"], False)
    assert purchase.end_of_turn(Screen({}, 1)).taxes == 1
