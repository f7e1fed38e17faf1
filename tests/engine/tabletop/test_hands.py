"""Holdings: the public part (counts, ids, faces) never says what a sealed card is; the holder's part does."""
from __future__ import annotations

import pytest

from engine.events import Rejection
from engine.tabletop import hands


def holding() -> hands.Holding:
    return hands.Holding(4, {"oil": 2}, [hands.Held("goods.1", "goods", "wine", 3, "d" * 64, "wine star"),
                                         hands.Held("goods.2", "goods", "grain", 4, "e" * 64, "grain", revealed=True),
                                         hands.Held("relics.1", "relics", "Cup", card="Cup", revealed=True)])


def test_the_public_part_shows_counts_faces_and_revealed_cards_only() -> None:
    assert holding().public() == {
        "money": 4, "resources": {"oil": 2}, "cards": 3, "faces": {"Cup": 1, "grain": 1, "wine": 1},
        "held": [{"id": "goods.1", "deck": "goods", "face": "wine", "sealed": "d" * 64},
                 {"id": "goods.2", "deck": "goods", "face": "grain", "card": "grain", "sealed": "e" * 64},
                 {"id": "relics.1", "deck": "relics", "face": "Cup", "card": "Cup"}]}
    assert [h["card"] for h in holding().private()["held"]] == ["wine star", "grain", "Cup"]


def test_paying_spending_removing_and_picking_by_face_are_checked() -> None:
    h = holding()
    with pytest.raises(Rejection, match="North has 4 money, not 5"):
        hands.pay(h, "North", 5)
    with pytest.raises(Rejection, match="North has 2 oil, not 3"):
        hands.spend(h, "North", "oil", 3)
    with pytest.raises(Rejection, match="North holds no card 'goods.9': its cards are goods.1, goods.2, relics.1"):
        hands.remove(h, "North", "goods.9")
    assert [c.id for c in hands.of_face(h, "grain", 1)] == ["goods.2"]
    with pytest.raises(Rejection, match="1 card\\(s\\) showing 'wine' to give, not 2"):
        hands.of_face(h, "wine", 2)
    with pytest.raises(Rejection, match="'-3' is not an amount of money: write a whole number from 0 to 1000000"):
        hands.amount("-3", "money")


@pytest.mark.parametrize("text, value", [("0", 0), ("7", 7), ("1000000", 1000000)])
def test_an_amount_from_0_to_the_bound_is_read(text: str, value: int) -> None:
    assert hands.amount(text, "money") == value


@pytest.mark.parametrize("text", ["1000001", "grain", "", "2.5", " 3"])
def test_an_amount_past_the_bound_or_not_a_whole_number_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(Rejection) as refused:
        hands.amount(text, "victory points")
    assert refused.value.reason == (
        f"'{text}' is not an amount of victory points: write a whole number from 0 to 1000000")


def test_a_seat_spends_all_it_has_of_a_resource_and_none_of_one_it_lacks() -> None:
    h = holding()
    hands.spend(h, "North", "oil", 2)
    assert h.resources == {"oil": 0} and h.public()["resources"] == {}
    with pytest.raises(Rejection) as lacking:
        hands.spend(h, "North", "salt", 1)
    assert lacking.value.reason == "North has 0 salt, not 1"
    assert h.resources == {"oil": 0}


def test_a_seat_with_no_card_is_told_it_holds_none() -> None:
    with pytest.raises(Rejection) as refused:
        hands.remove(hands.Holding(3), "East", "goods.1")
    assert refused.value.reason == "East holds no card 'goods.1': its cards are none"
