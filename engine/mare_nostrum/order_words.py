"""The words of an order line: its tokens, the part of the line that holds the order, and the keyword that starts
it (exactly, by a unique beginning or by a near miss). Shared by the line reader (parse.py) and the readers of
each kind of order (read_*.py)."""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.names import normalise
from engine.quote import quote


class Tok(NamedTuple):
    word: str  # normalised
    start: int  # span in the line's text, to quote the player's own spelling back
    end: int


class Reject(Exception):
    """A line that is an order attempt but cannot be read; the message goes back to the player."""


TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")


@lru_cache(maxsize=8192)
def norm_word(raw: str) -> str:
    return normalise(raw) if not raw.isascii() else raw.lower().replace("'", "")


def tokens(text: str) -> list[Tok]:
    if text.isascii() and "'" not in text:
        # The common case, kept cheap: lower-casing keeps ASCII offsets, so spans still quote the original.
        return [Tok(m.group(), *m.span()) for m in TOKEN.finditer(text.lower())]
    return [Tok(norm_word(m.group()), m.start(), m.end()) for m in TOKEN.finditer(text)]


class Line:
    """The part of a line that holds the order, with its words."""

    def __init__(self, text: str, toks: list[Tok]) -> None:
        self.text = text
        self.toks = toks

    def span(self, toks: Sequence[Tok]) -> str:
        """What the player typed for ``toks``, cut to ~80 characters: answers quote it, and a megabyte comes back short."""
        return quote(self.text[toks[0].start : toks[-1].end]) if toks else ""

    @property
    def quote(self) -> str:
        return self.span(self.toks)


# ---------------------------------------------------------------------------------------------------
# Order keywords

# First word -> the family of orders it starts.
HEADS: dict[str, str] = {
    "build": "build",
    "construct": "build",
    "raise": "raise",
    "fortify": "fortify",
    "peace": "peace",
    "offer": "offer",
    "propose": "offer",
    "alliance": "ally",
    "ally": "ally",
    "grain": "grain",
    "distribute": "grain",
    "distribution": "grain",
    "attack": "attack",
    "invade": "attack",
    "land": "land",
    "naval": "naval",
    "sea": "sea",
    "amphibious": "amphibious",
    "pass": "pass",
    "end": "end",
    "done": "done",
    "no": "no",
    "earthquake": "earthquake",
    "great": "great",
    "blaze": "blaze",
    "burn": "burn",
    "destroy": "destroy",
    "defensive": "defensive",
}
# Keywords that a beginning or a misspelling may stand for. Short everyday words ("end", "no", "sea",
# "land", "great") are left out: guessing them would turn table talk into orders.
_GUESSABLE = (
    "build", "raise", "fortify", "peace", "alliance", "ally", "grain", "distribute", "attack", "invade",
    "naval", "amphibious", "earthquake", "destroy", "defensive", "propose",
)
# Common words that happen to begin a keyword ("For Rome!" is not "fortify Rome").
_NOT_PREFIXES = frozenset({"for", "all", "pro", "ear", "earth", "def", "des", "dis", "inv"})
MIN_KEYWORD_PREFIX = 3
NEAR_MISS_RATIO = 0.8
class Head(NamedTuple):
    family: str
    keyword: str
    how: str  # "exact", "prefix" or "near"


@lru_cache(maxsize=4096)
def classify(word: str) -> Head | None:
    family = HEADS.get(word)
    if family is not None:
        return Head(family, word, "exact")
    if len(word) >= MIN_KEYWORD_PREFIX and word not in _NOT_PREFIXES:
        starts = [k for k in _GUESSABLE if k.startswith(word)]
        if len(starts) == 1:
            return Head(HEADS[starts[0]], starts[0], "prefix")
    near = difflib.get_close_matches(word, _GUESSABLE, n=1, cutoff=NEAR_MISS_RATIO)
    if near:
        return Head(HEADS[near[0]], near[0], "near")
    return None


def is_near(word: str, words: Iterable[str]) -> bool:
    return len(word) >= 4 and bool(difflib.get_close_matches(word, list(words), n=1, cutoff=NEAR_MISS_RATIO))
