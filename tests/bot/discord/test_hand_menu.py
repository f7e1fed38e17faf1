"""The hand menu: a private view's one-click orders as a select menu, for the author's eyes only."""
from __future__ import annotations

from bot.discord.hand_menu import HAND_SELECT, hand_menu, picked
from bot.service.replies import LineAnswer, Reply, menu_choices


def test_a_private_answer_with_choices_gets_a_menu_and_nothing_else_does() -> None:
    private = Reply([LineAnswer(1, "/private", True, "private view of South", ["{}"], private=True,
                                choices=("accept 1", "sell goods.4", "done"))])
    view = hand_menu(private)
    assert view is not None
    (menu,) = view.children
    assert menu.custom_id == HAND_SELECT and [o.value for o in menu.options] == ["accept 1", "sell goods.4", "done"]
    public = Reply([LineAnswer(1, "done", True, "South is done trading", choices=("accept 1",))])
    assert hand_menu(public) is None


def test_the_choices_of_a_view_are_kept_to_what_a_menu_holds() -> None:
    many = [f"sell goods.{i}" for i in range(40)]
    assert menu_choices({"choices": many + ["x" * 101, 7, "sell goods.1"]}) == tuple(many[:25])
    assert menu_choices({"choices": "done"}) == () and menu_choices({}) == ()


def test_a_pick_is_one_order_or_nothing() -> None:
    assert picked({"custom_id": HAND_SELECT, "values": ["accept 1"]}) == "accept 1"
    assert picked({"values": ["a", "b"]}) is None and picked({"values": [3]}) is None and picked(None) is None
