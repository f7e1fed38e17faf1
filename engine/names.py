"""Resolving the names players type (provinces, seas, nations, invader forces) to their canonical form.

Players write on a forum or in Discord, from memory and in a hurry: "rome", "the Tyrrhenian", "Épire",
"gallia cis". A ``NameIndex`` forgives case, accents, punctuation and a leading "the", accepts a unique
beginning of a name, and otherwise answers with a message good enough to post back to the player.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from engine.quote import quote

# Below this many letters a prefix is a guess, not a name: "Ma" must not silently mean Macedonia.
MIN_PREFIX_LETTERS = 3
# Listing every valid name only helps while the list is short enough to read in a chat message.
MAX_LISTED_NAMES = 12
MAX_SUGGESTIONS = 3
# An ambiguity message naming more candidates than this stops being readable.
MAX_AMBIGUOUS_SHOWN = 6
# Misspellings repeat (the same player, the same post answered again); difflib is the slow part.
_CACHE_SIZE = 4096

_APOSTROPHES = re.compile(r"['\u2019\u2018`\u00b4]")
_NON_WORD = re.compile(r"[\W_]+")


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """The comparable form of a name: lower case, no accents, words separated by single spaces.

    Apostrophes vanish (so "Rome's" stays one word); any other punctuation separates words, which
    makes "Gallia-Cisalpina", "Gallia. Cisalpina" and "gallia  cisalpina" the same.
    """
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = _APOSTROPHES.sub("", text.casefold())
    words = _NON_WORD.sub(" ", text).split()
    # "the Adriatic" and "Adriatic" name the same sea, but "the" alone is not a name to drop.
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def join_or(items: Sequence[str]) -> str:
    """'A', 'A or B', 'A, B or C': how the messages list alternatives."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 legion', '3 legions', '0 legions': a count with its noun (``plural`` where adding "s" is wrong)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


@dataclass(frozen=True)
class Resolution:
    """The outcome of resolving a typed name: exactly one of ``name`` and ``error`` is set."""

    name: str | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.name is not None


class NameIndex:
    """The names of one kind of thing (provinces, seas, ...), with their aliases, for lookup by what players type."""

    def __init__(self, names: Mapping[str, Iterable[str]], kind: str, plural: str | None = None) -> None:
        self.kind = kind
        self.plural = plural or f"{kind}s"
        self.names: tuple[str, ...] = tuple(names)
        self._order = {name: i for i, name in enumerate(self.names)}
        # One key may belong to several names (a shared alias); resolving it is then ambiguous.
        self._keys: dict[str, tuple[str, ...]] = {}
        for canonical, aliases in names.items():
            for written in (canonical, *aliases):
                self._add_key(normalise(written), canonical)
        self._key_words = {key: key.split() for key in self._keys}
        self.max_words = max((len(w) for w in self._key_words.values()), default=0)
        self.words: frozenset[str] = frozenset(w for ws in self._key_words.values() for w in ws)
        self._resolved: dict[str, Resolution] = {}

    def _add_key(self, key: str, canonical: str) -> None:
        if not key:
            return
        owners = self._keys.get(key, ())
        if canonical not in owners:
            self._keys[key] = (*owners, canonical)

    def __contains__(self, name: object) -> bool:
        return name in self._order

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"NameIndex({self.kind!r}, {len(self.names)} names)"

    @property
    def article(self) -> str:
        return "an" if self.kind[:1].lower() in "aeiou" else "a"

    def exact(self, text: str) -> str | None:
        """The canonical name when ``text`` is exactly one name or alias (up to normalisation), else None."""
        owners = self._keys.get(normalise(text), ())
        return owners[0] if len(owners) == 1 else None

    def resolve(self, text: str) -> Resolution:
        cached = self._resolved.get(text)
        if cached is None:
            if len(self._resolved) >= _CACHE_SIZE:
                self._resolved.clear()
            cached = self._resolved[text] = self._resolve(text)
        return cached

    def _resolve(self, text: str) -> Resolution:
        shown = quote(" ".join(text.split()))  # every message below quotes it: ~80 characters at most
        key = normalise(text)
        if not key:
            return Resolution(error=f"missing {self.kind} name")
        owners = self._keys.get(key, ())
        if len(owners) == 1:
            return Resolution(name=owners[0])
        if owners:
            return Resolution(error=self._ambiguous(shown, owners))
        return self._resolve_prefix(shown, key)

    def _resolve_prefix(self, shown: str, key: str) -> Resolution:
        candidates = self._prefix_candidates(key)
        if len(candidates) > 1:
            return Resolution(error=self._ambiguous(shown, candidates))
        if len(candidates) == 1:
            if len(key.replace(" ", "")) >= MIN_PREFIX_LETTERS:
                return Resolution(name=candidates[0])
            guess = candidates[0]
            return Resolution(error=f"'{shown}' is too short to be sure: did you mean {guess}? Write more of the name")
        return Resolution(error=self._unknown(shown, key))

    def _prefix_candidates(self, key: str) -> tuple[str, ...]:
        """Names that ``key`` begins, preferring a match from the start of a name to one inside it.

        "tyrrh" begins "Tyrrhenian Sea"; "gal cis" begins each word of "Gallia Cisalpina"; "cisalpina"
        begins its second word. The whole-string tier goes first so that a name is not made ambiguous
        by some other name that merely contains a word starting the same way.
        """
        from_start: set[str] = set()
        by_words: set[str] = set()
        query_words = key.split()
        for candidate_key, owners in self._keys.items():
            if candidate_key.startswith(key):
                from_start.update(owners)
            elif _words_begin(query_words, self._key_words[candidate_key]):
                by_words.update(owners)
        return self._in_order(from_start or by_words)

    def _in_order(self, names: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(set(names), key=self._order.__getitem__))

    def _ambiguous(self, shown: str, names: Sequence[str]) -> str:
        names = self._in_order(names)
        if len(names) > MAX_AMBIGUOUS_SHOWN:
            listed = f"{', '.join(names[:MAX_AMBIGUOUS_SHOWN])} or {len(names) - MAX_AMBIGUOUS_SHOWN} more"
        else:
            listed = join_or(names)
        return f"'{shown}' could be {listed}: write more of the name"

    def _unknown(self, shown: str, key: str) -> str:
        close = difflib.get_close_matches(key, self._keys, n=MAX_SUGGESTIONS * 2)
        suggestions: list[str] = []
        for match in close:
            for owner in self._keys[match]:
                if owner not in suggestions:
                    suggestions.append(owner)
        if suggestions:
            return f"unknown {self.kind} '{shown}': did you mean {join_or(suggestions[:MAX_SUGGESTIONS])}?"
        if len(self.names) <= MAX_LISTED_NAMES:
            return f"unknown {self.kind} '{shown}'; {self.plural} are: {', '.join(self.names)}"
        return f"unknown {self.kind} '{shown}': check the map for the {self.kind}'s name"

    def find_longest(self, tokens: Sequence[str], start: int = 0) -> tuple[str, int] | None:
        """The longest run of words from ``tokens[start]`` that is exactly one name: (canonical, end index).

        For text where a name is followed by other words and no keyword marks where it ends.
        """
        last = min(len(tokens), start + self.max_words)
        for end in range(last, start, -1):
            name = self.exact(" ".join(tokens[start:end]))
            if name is not None:
                return name, end
        return None


def _words_begin(query: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the query's words begin consecutive words of a name, from any word of it."""
    if not query or len(query) > len(words):
        return False
    for offset in range(len(words) - len(query) + 1):
        if all(words[offset + i].startswith(q) for i, q in enumerate(query)):
            return True
    return False
