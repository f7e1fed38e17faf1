"""The keys a chance book has handed out (lottery slots, labels, drand rounds), in the order they were handed out,
looked up in constant time.

``ask`` checks every new label against them and the lottery source every candidate slot, so a list scanned per check
made a campaign's 500th turn cost more than its first. A key is never taken back (a slot seen is never bound again,
even after an undo), so the only changes are ``append`` and ``extend``; the rest of a list's mutators are refused.
The order is kept because it is part of what tests and the fixed source (``sources/fixed.py``) read.

A game copies its book for every event it applies, and most events hand out no key: a copied book shares its keys
with the book it was copied from (``share``), and whichever of the two hands out a key next takes its own copy first
(``ChanceBook.own_keys``). Shared keys refuse a change made behind the book's back, so neither copy ever sees the
other's keys.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn


class UsedKeys(list[str]):
    """A list of keys with an index beside it for lookups; equal to a plain list of the same keys."""

    shared = False  # True once two books hold these keys: then they change no more

    def __init__(self, keys: Iterable[str] = ()) -> None:
        super().__init__(keys)
        # A dict, not a set: an insertion-only dict is copied whole (``copy``), a set is rebuilt key by key (8x slower).
        self._index: dict[str, None] = dict.fromkeys(self)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def append(self, key: str) -> None:
        if self.shared:
            raise TypeError("these keys are shared by two copies of a chance book: hand a key out through the book "
                            "(ChanceBook.own_keys), which copies them first")
        super().append(key)
        self._index[key] = None

    def extend(self, keys: Iterable[str]) -> None:
        # A generator may test membership against this list as it runs (``w not in book.used``): each key goes in
        # before the next is drawn, as with a plain list.
        for key in keys:
            self.append(key)

    def __iadd__(self, keys: Iterable[str]) -> UsedKeys:  # type: ignore[override, misc]  # list's takes only lists; this takes any keys
        self.extend(keys)
        return self

    @property
    def lookup(self) -> Mapping[str, None]:
        """The keys as a mapping, for a walk that looks many keys up: ``in`` on it is the dict's own, not a method
        call. Read it, never change it (it changes as keys are handed out)."""
        return self._index

    def share(self) -> None:
        """Two books hold these keys from now on: neither may change them (each copies them first)."""
        self.shared = True

    def copy(self) -> UsedKeys:
        """The same keys, not shared: a slice and a dict copy, not a walk key by key."""
        new = UsedKeys.__new__(UsedKeys)
        list.__init__(new, list.__getitem__(self, slice(None)))
        new._index = self._index.copy()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a snapshot) and deep-copied as its keys: the index is rebuilt, never stored.
        return (UsedKeys, (list(self),))

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a key handed out by the chance book is never taken back or reordered")

    insert = remove = pop = clear = sort = reverse = __setitem__ = __delitem__ = __imul__ = _refuse


def used_keys(keys: Iterable[str]) -> UsedKeys:
    """``keys`` as a ``UsedKeys`` (itself if it is one): a book restored from a snapshot pickled before holds a list."""
    return keys if isinstance(keys, UsedKeys) else UsedKeys(keys)
