"""The keys a chance book has handed out (lottery slots, labels, drand rounds), in the order they were handed out,
looked up in constant time, and copied in constant time.

``ask`` checks every new label against them and the lottery source every candidate slot, so a list scanned per check
made a campaign's 500th turn cost more than its first. A key is never taken back (a slot seen is never bound again,
even after an undo), so the only changes are ``append`` and ``extend``; the rest of a list's mutators are refused.
The order is kept because it is part of what tests and the fixed source (``sources/fixed.py``) read.

A game copies its book for every event it applies (Mare Nostrum's 500th turn holds some 12,000 keys), so the keys
are kept in two parts: the older ones (``_base``, with their index), never changed once made and shared by every
copy, and the latest ones (``_tail``), which a copy copies. When the latest reach ``TAIL`` they are merged into a new
shared part: a copy costs at most ``TAIL`` keys, and the merges about one copy of all keys per ``TAIL`` keys handed
out, so a book's copy costs the same at turn 500 as at turn 1.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn, overload

TAIL = 512  # latest keys a copy copies; merged into the shared part when reached


class UsedKeys(Sequence[str]):
    """A sequence of keys with an index for lookups; equal to a plain list of the same keys."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        self._base: list[str] = list(keys)  # shared with copies: never changed in place
        self._base_index: dict[str, None] = dict.fromkeys(self._base)
        self._tail: list[str] = []
        self._tail_index: dict[str, None] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._tail_index or key in self._base_index

    def __len__(self) -> int:
        return len(self._base) + len(self._tail)

    def __iter__(self) -> Iterator[str]:
        yield from self._base
        yield from self._tail

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return (self._base + self._tail)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UsedKeys):
            return self._base == other._base and self._tail == other._tail or list(self) == list(other)
        return isinstance(other, list) and list(self) == other

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list: never a dict key

    def __repr__(self) -> str:
        return f"UsedKeys({list(self)!r})"

    def append(self, key: str) -> None:
        tail = self._tail
        tail.append(key)
        self._tail_index[key] = None
        if len(tail) >= TAIL:
            # A new shared part: the old one stays as it is for the copies that hold it.
            self._base = self._base + self._tail
            self._base_index = {**self._base_index, **self._tail_index}
            self._tail, self._tail_index = [], {}

    def extend(self, keys: Iterable[str]) -> None:
        # A generator may test membership against these keys as it runs (``w not in book.used``): each key goes in
        # before the next is drawn, as with a plain list.
        for key in keys:
            self.append(key)

    def __iadd__(self, keys: Iterable[str]) -> UsedKeys:
        self.extend(keys)
        return self

    def copy(self) -> UsedKeys:
        """The same keys, sharing the older part: at most ``TAIL`` keys copied."""
        new = UsedKeys.__new__(UsedKeys)
        new._base, new._base_index = self._base, self._base_index
        new._tail, new._tail_index = list(self._tail), dict(self._tail_index)
        return new

    def __copy__(self) -> UsedKeys:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> UsedKeys:
        return self.copy()  # keys are strings: sharing the part no one changes is a full copy

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a snapshot) as its keys: the parts and indexes are rebuilt, never stored.
        return (UsedKeys, (list(self),))

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a key handed out by the chance book is never taken back or reordered")

    insert = remove = pop = clear = sort = reverse = __setitem__ = __delitem__ = __imul__ = _refuse


def used_keys(keys: Iterable[str]) -> UsedKeys:
    """``keys`` as a ``UsedKeys`` (itself if it is one): a book restored from a snapshot pickled before holds a list."""
    return keys if isinstance(keys, UsedKeys) else UsedKeys(keys)
