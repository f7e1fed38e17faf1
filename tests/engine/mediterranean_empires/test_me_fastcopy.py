"""The state's own deep copy (fastcopy.py): equal to the original, sharing nothing mutable, keeping shared parts shared."""
from __future__ import annotations

import copy
from pathlib import Path

from engine import secrets
from engine.events import Event
from engine.mediterranean_empires.hand import PICK_KEY_CONTENT
from engine.mediterranean_empires.fastcopy import copy_state
from engine.mediterranean_empires.state import Force
from engine.rulesets import load_ruleset

DATA = Path(__file__).resolve().parents[3] / "data"


def _parked_state():  # type: ignore[no-untyped-def]
    game = load_ruleset("mediterranean-empires", DATA)
    st = game.initial_state({"players": {"Player A": "ann", "Player B": "bob"}, "randomness": "commit-reveal"})
    st = game.apply(st, Event(2, "order", "ann", {"seat": "Player A", "text": "never intercept"})).state
    salt = "ab" * 16  # the game's first draw carries the bot's sealed pick key
    st = game.apply(st, Event(3, "order", "ann", {"seat": "Player A", "text": "draw",
                                                  "sealed": secrets.digest(PICK_KEY_CONTENT, salt)},
                              secret={"content": PICK_KEY_CONTENT, "salt": salt})).state
    assert st.action is not None and st.book.bindings, "the draw is parked, waiting for its roll"
    return st


def test_the_copy_is_equal_and_independent() -> None:
    st = _parked_state()
    twin = copy.deepcopy(st)
    assert twin == st and twin is not st
    assert twin.units[1] == st.units[1] and twin.units[1] is not st.units[1]
    assert twin.book.bindings[0] == st.book.bindings[0] and twin.book.bindings[0] is not st.book.bindings[0]
    twin.units[1].area = "Malta"
    twin.book.bindings[0].values = [1]
    twin.standing["Player A"].append("always intercept")
    twin.sides["A"].hand.append({"seq": None, "marker": "Gold"})
    assert st.units[1].area != "Malta" and st.book.bindings[0].values is None
    assert st.standing["Player A"] == ["never intercept"] and st.sides["A"].hand == []


def test_parts_shared_with_the_parked_order_stay_shared_in_the_copy() -> None:
    st = _parked_state()
    assert st.action.base.book is st.book
    twin = copy.deepcopy(st)
    assert twin.action.base.book is twin.book
    assert twin.action.base.log is twin.log and twin.book is not st.book


def test_a_field_it_does_not_know_is_still_copied_deeply() -> None:
    st = _parked_state()
    st.force = Force("A", "France", [1, 2], "Albi", 3, False, None, False, "force", "Albi")
    twin = copy_state(st, {})
    assert twin.force is not None and st.force is not None
    twin.force.ids.append(3)
    assert st.force.ids == [1, 2] and twin.force.ids == [1, 2, 3]


def test_it_knows_every_field_of_the_chance_book_so_it_never_falls_back_to_deepcopy_for_it() -> None:
    """A field added to ChanceBook or Binding sends the whole book through ``copy.deepcopy`` (still right, but it made
    a seven-turn game's fold three times slower once): this fails first, so fastcopy.py learns the field."""
    from dataclasses import fields

    from engine.chance.book import Binding, ChanceBook
    from engine.mediterranean_empires import fastcopy

    assert {f.name for f in fields(ChanceBook)} == fastcopy._BOOK
    assert {f.name for f in fields(Binding)} == fastcopy._BINDING


def test_the_book_copy_shares_none_of_its_lists() -> None:
    st = _parked_state()
    st.book.cancelled.append("2026-11-03")
    twin = copy.deepcopy(st)
    assert twin.book == st.book
    for name in ("bindings", "used", "draws", "beacons", "numbers", "cancelled"):
        assert getattr(twin.book, name) is not getattr(st.book, name), name
    twin.book.cancelled.append("2026-11-05")
    twin.book.used.append("x")
    assert st.book.cancelled == ["2026-11-03"] and "x" not in st.book.used
