"""The keys a chance book has handed out (lottery slots, labels, drand rounds), in the order they were handed out,
looked up in constant time.

``ask`` checks every new label against them and the lottery source every candidate slot, so a list scanned per check
made a campaign's 500th turn cost more than its first. A key is never taken back (a slot seen is never bound again,
even after an undo), so the only changes are ``append`` and ``extend``; the rest of a list's mutators are refused.
The order is kept because it is part of what tests and the fixed source (``sources/fixed.py``) read.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn


class UsedKeys(list[str]):
    """A list of keys with a set beside it for lookups; equal to a plain list of the same keys."""

    def __init__(self, keys: Iterable[str] = ()) -> None:
        super().__init__(keys)
        self._index: set[str] = set(self)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def append(self, key: str) -> None:
        super().append(key)
        self._index.add(key)

    def extend(self, keys: Iterable[str]) -> None:
        # A generator may test membership against this list as it runs (``w not in book.used``): each key goes in
        # before the next is drawn, as with a plain list.
        for key in keys:
            self.append(key)

    def __iadd__(self, keys: Iterable[str]) -> UsedKeys:  # type: ignore[override, misc]  # list's takes only lists; this takes any keys
        self.extend(keys)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a snapshot) and deep-copied as its keys: the index is rebuilt, never stored.
        return (UsedKeys, (list(self),))

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a key handed out by the chance book is never taken back or reordered")

    insert = remove = pop = clear = sort = reverse = __setitem__ = __delitem__ = __imul__ = _refuse


def used_keys(keys: Iterable[str]) -> UsedKeys:
    """``keys`` as a ``UsedKeys`` (itself if it is one): a book restored from a snapshot pickled before holds a list."""
    return keys if isinstance(keys, UsedKeys) else UsedKeys(keys)
