"""The chance book's handed-out keys: looked up in a set, kept in order, never taken back, indexed however they
arrive (constructor, assignment, a snapshot pickled when they were a plain list)."""
from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import pytest

from engine.chance import book as chance
from engine.chance.used_keys import UsedKeys
from engine.events import Event


def test_keys_keep_their_order_and_equal_a_plain_list() -> None:
    keys = UsedKeys(["b", "a"])
    keys.append("c")
    keys.extend(["a", "d"])
    keys += ["e"]
    assert keys == ["b", "a", "c", "a", "d", "e"]
    assert "d" in keys and "e" in keys and "z" not in keys
    assert isinstance(keys, UsedKeys)


def test_a_generator_extending_the_keys_sees_each_key_it_added() -> None:
    # book.ask extends with ``w for w in where if w not in book.used``: a key twice in ``where`` goes in once.
    keys = UsedKeys(["x"])
    keys.extend(w for w in ["x", "y", "y", "z"] if w not in keys)
    assert keys == ["x", "y", "z"]


@pytest.mark.parametrize("change", [
    lambda k: k.remove("a"), lambda k: k.pop(), lambda k: k.clear(), lambda k: k.insert(0, "q"),
    lambda k: k.sort(), lambda k: k.reverse(), lambda k: k.__setitem__(0, "q"), lambda k: k.__delitem__(0),
])
def test_a_key_is_never_taken_back_or_moved(change: Callable[[UsedKeys], object]) -> None:
    keys = UsedKeys(["a", "b"])
    with pytest.raises(TypeError, match="never taken back or reordered"):
        change(keys)
    assert keys == ["a", "b"] and "a" in keys


def test_a_pickled_or_copied_book_keeps_its_keys_indexed() -> None:
    book = chance.new_book("drand", {})
    chance.ask(book, Event(seq=1, kind="roll", actor="gm", data={}, draws=("drand:7",)), "siege", 1, 6)
    for twin in (pickle.loads(pickle.dumps(book)), copy.deepcopy(book)):
        assert isinstance(twin.used, UsedKeys) and twin.used == ["siege", "drand:7"] and "drand:7" in twin.used
        twin.own_keys().append("more")
        assert "more" not in book.used and twin.used == ["siege", "drand:7", "more"]


def test_a_copied_book_shares_its_keys_until_either_hands_one_out() -> None:
    """A game copies its book for every event, most of which hand out no key: the copy shares the keys, each book
    takes its own once it hands one out, and a key added behind the books' back is refused, not seen by both."""
    book = chance.new_book("drand", {})
    chance.ask(book, Event(seq=1, kind="roll", actor="gm", data={}, draws=("drand:7",)), "siege", 1, 6)
    twin = copy.deepcopy(book)
    assert twin.used is book.used and book.used.shared
    with pytest.raises(TypeError, match="shared by two copies"):
        twin.used.append("behind the book")
    chance.ask(twin, Event(seq=2, kind="roll", actor="gm", data={}, draws=("drand:8",)), "siege", 1, 6)
    assert twin.used == ["siege", "drand:7", "siege#2", "drand:8"] and not twin.used.shared
    assert book.used == ["siege", "drand:7"] and "siege#2" not in book.used
    chance.ask(book, Event(seq=2, kind="roll", actor="gm", data={}, draws=("drand:9",)), "siege", 1, 6)
    assert book.used == ["siege", "drand:7", "siege#2", "drand:9"] and twin.used[-1] == "drand:8"


def test_a_book_pickled_with_a_plain_list_is_indexed_when_restored() -> None:
    book = chance.new_book("drand", {})
    state = dict(book.__dict__, used=["siege", "drand:7"])  # what a snapshot written before holds
    restored = chance.ChanceBook.__new__(chance.ChanceBook)
    restored.__setstate__(state)
    assert isinstance(restored.used, UsedKeys) and "drand:7" in restored.used
    binding = chance.ask(restored, Event(seq=2, kind="roll", actor="gm", data={}, draws=("drand:8",)), "siege", 1, 6)
    assert binding.label == "siege#2" and restored.used == ["siege", "drand:7", "siege#2", "drand:8"]


def test_keys_assigned_to_a_book_are_indexed() -> None:
    book = chance.new_book("drand", {})
    book.used = ["a", "b"]
    assert isinstance(book.used, UsedKeys) and "b" in book.used
    assert isinstance(chance.ChanceBook(used=["a"]).used, UsedKeys)
