"""The parts of an order line: the clauses its marker words cut it into ("from", "through", "against", ...) and the
names in them, resolved against the post's vocabulary, with the messages that say what is missing or wrong."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.mare_nostrum.order_words import Line, Reject, Tok
from engine.names import NameIndex, normalise
from engine.quote import quote


@dataclass(frozen=True)
class Vocabulary:
    """The names a post may use, one index per kind of slot in an order."""

    provinces: NameIndex
    seas: NameIndex
    nations: NameIndex
    invaders: NameIndex

    @classmethod
    def from_names(
        cls,
        *,
        provinces: Mapping[str, Iterable[str]],
        seas: Mapping[str, Iterable[str]],
        nations: Mapping[str, Iterable[str]],
        invaders: Mapping[str, Iterable[str]],
    ) -> Vocabulary:
        return cls(
            provinces=NameIndex(provinces, "province"),
            seas=NameIndex(seas, "sea"),
            nations=NameIndex(nations, "nation"),
            invaders=NameIndex(invaders, "invader force"),
        )

    @property
    def indices(self) -> tuple[NameIndex, ...]:
        return (self.provinces, self.seas, self.nations, self.invaders)

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset().union(*(index.words for index in self.indices))


# Clauses: names never contain these words, so they cut a line into its parts.

_MARKERS: dict[str, str] = {
    "in": "in",
    "inside": "in",
    "at": "at",
    "from": "from",
    "through": "through",
    "thru": "through",
    "via": "through",
    "across": "through",
    "by": "through",
    "against": "against",
    "vs": "against",
    "versus": "against",
    "with": "with",
    "on": "on",
    "onto": "on",
    "upon": "on",
    "to": "to",
    "into": "into",
    "and": "and",
}
_BY_WHAT = frozenset({"sea", "land", "ship", "ships", "boat", "boats"})


class Clauses:
    """A line's words after its keyword: the leading words, then (marker, words) clauses in order."""

    def __init__(self, toks: Sequence[Tok], extra: Mapping[str, str] | None = None) -> None:
        markers = {**_MARKERS, **extra} if extra else _MARKERS
        self.lead: list[Tok] = []
        self.rest: list[tuple[str, Tok, list[Tok]]] = []
        current = self.lead
        toks = _drop_by_sea(toks)
        for tok in toks:
            role = markers.get(tok.word)
            if role is None:
                current.append(tok)
            else:
                current = []
                self.rest.append((role, tok, current))

    def take_lead(self) -> list[Tok] | None:
        lead, self.lead = self.lead, []
        return lead or None

    def take(self, *roles: str) -> list[Tok] | None:
        for i, (role, _marker, words) in enumerate(self.rest):
            if role in roles and words:
                del self.rest[i]
                return words
        return None

    def leftover(self) -> list[Tok]:
        if self.lead:
            return self.lead
        for _role, marker, words in self.rest:
            if words:
                return [marker, *words]
        return []


def _drop_by_sea(toks: Sequence[Tok]) -> list[Tok]:
    """ "by sea" says nothing the order does not already say."""
    out: list[Tok] = []
    skip = False
    for i, tok in enumerate(toks):
        if skip:
            skip = False
            continue
        if tok.word == "by" and i + 1 < len(toks) and toks[i + 1].word in _BY_WHAT:
            skip = True
            continue
        out.append(tok)
    return out


def finish(line: Line, clauses: Clauses, template: str) -> None:
    extra = clauses.leftover()
    if extra:
        raise Reject(f"'{line.quote}': did not expect '{line.span(extra)}' here (write: {template})")


def require(line: Line, missing: list[str], template: str) -> None:
    if missing:
        raise Reject(f"'{line.quote}': say {_and(missing)}: {template}")


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


# Names in slots


def resolve(line: Line, toks: Sequence[Tok] | None, want: NameIndex, vocab: Vocabulary) -> str:
    if not toks:
        # The readers refuse a missing slot first, with the whole order to write (``require``).
        raise Reject(f"'{line.quote}': say which {want.kind}")
    text = line.span(toks)
    name = want.exact(text)
    if name is not None:
        return name
    # A name of another kind, written exactly, is a mistake of slot rather than of spelling.
    for other in vocab.indices:
        found = other.exact(text) if other is not want else None
        if found is not None:
            canonical = "" if normalise(found) == normalise(text) else f" ({found})"
            raise Reject(f"'{quote(text)}' is {other.article} {other.kind}{canonical}, not {want.article} {want.kind}")
    resolution = want.resolve(text)
    if resolution.name is None:
        raise Reject(resolution.error or f"unknown {want.kind} '{quote(text)}'")
    return resolution.name


def show(line: Line, toks: Sequence[Tok] | None, index: NameIndex, vocab: Vocabulary,
          placeholder: str | None = None) -> str:
    """A slot as the hint in a message shows it: the canonical name when it resolves, else as written.

    A name of another kind shows as the placeholder, so that the hint never repeats the mistake.
    """
    blank = placeholder or f"<{index.kind}>"
    if not toks:
        return blank
    text = line.span(toks)
    name = index.resolve(text).name
    if name is not None:
        return name
    if any(other.exact(text) for other in vocab.indices if other is not index):
        return blank
    return text


def strip_words(toks: list[Tok] | None, words: frozenset[str], front: bool = True) -> list[Tok] | None:
    if not toks:
        return toks
    if front:
        while toks and toks[0].word in words:
            toks = toks[1:]
    else:
        while toks and toks[-1].word in words:
            toks = toks[:-1]
    return toks or None
