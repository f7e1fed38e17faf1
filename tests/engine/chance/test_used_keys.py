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
    with pytest.raises(TypeError) as refused:
        change(keys)
    assert str(refused.value) == "a key handed out by the chance book is never taken back or reordered"
    assert keys == ["a", "b"] and "a" in keys


def test_a_pickled_or_copied_book_keeps_its_keys_indexed() -> None:
    book = chance.new_book("drand", {})
    chance.ask(book, Event(seq=1, kind="roll", actor="gm", data={}, draws=("drand:7",)), "siege", 1, 6)
    for twin in (pickle.loads(pickle.dumps(book)), copy.deepcopy(book)):
        assert isinstance(twin.used, UsedKeys) and twin.used == ["siege", "drand:7"] and "drand:7" in twin.used
        twin.used.append("more")
        assert "more" not in book.used


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


def test_a_copy_shares_the_older_keys_and_each_side_goes_on_alone() -> None:
    """A game copies its book for every event: a copy copies at most the latest TAIL keys, whatever the book holds,
    and neither side ever sees a key the other hands out after the copy, across the merge into the shared part."""
    from engine.chance.used_keys import TAIL

    keys = UsedKeys(f"k{i}" for i in range(3 * TAIL))
    keys.extend(["t1", "t2"])
    twin = copy.deepcopy(keys)
    assert twin._base is keys._base and twin._tail == ["t1", "t2"] and twin._tail is not keys._tail
    twin.extend(f"m{i}" for i in range(TAIL))  # the twin's tail reaches TAIL: merged into a new shared part
    keys.append("mine")
    assert twin._base is not keys._base and len(keys._base) == 3 * TAIL
    assert list(keys) == [f"k{i}" for i in range(3 * TAIL)] + ["t1", "t2", "mine"]
    assert list(twin) == [f"k{i}" for i in range(3 * TAIL)] + ["t1", "t2"] + [f"m{i}" for i in range(TAIL)]
    assert "mine" not in twin and "m0" not in keys and "m0" in twin and "k0" in twin and "t2" in keys
    assert len(twin) == 4 * TAIL + 2 and twin[-1] == f"m{TAIL - 1}" and keys[-2:] == ["t2", "mine"]
    assert pickle.loads(pickle.dumps(twin)) == twin and UsedKeys(list(twin)) == twin


def test_keys_equal_only_the_same_keys_in_the_same_order() -> None:
    """Two copies of one book share their older keys: the latest decide, as in a plain list's comparison."""
    keys = UsedKeys(["a", "b"])
    twin = keys.copy()
    assert twin == keys and keys == ["a", "b"]
    twin.append("x")
    keys.append("y")
    assert twin != keys and twin == ["a", "b", "x"] and keys != ["a", "b", "x"]
    assert UsedKeys(["a"]) != UsedKeys(["b"]) and UsedKeys(["a"]) != ["b"] and UsedKeys(["a"]) != ("a",)
    grown = UsedKeys(["a"])
    grown.append("b")  # "b" among the latest, where UsedKeys(["a", "b"]) holds both among the older
    assert grown == UsedKeys(["a", "b"])


def test_keys_are_shown_as_their_list() -> None:
    assert repr(UsedKeys(["siege", "drand:7"])) == "UsedKeys(['siege', 'drand:7'])"
