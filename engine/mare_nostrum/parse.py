"""Reading a player's post: one order per line, in plain English, into ``orders.Order`` values.

The parser only checks the form of a line and the names in it; whether the order is legal (adjacency,
ownership, turn order, actions left) is the rules' business. A post mixes orders with table talk, so
a line is only answered when it looks like an order attempt: its first word is an order keyword, a
unique beginning of one, or a near miss of one. Everything else is left alone.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple, NoReturn

from engine.mare_nostrum.orders import (
    Alliance,
    Amphibious,
    Attack,
    Build,
    EventChoice,
    GrainDistribution,
    NavalBattle,
    Order,
    Pass,
    PeaceTreaty,
    RaiseFleet,
)
from engine.names import NameIndex, normalise
from engine.quote import quote

PIRATES = "Pirates"


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


@dataclass(frozen=True)
class ParsedLine:
    """The answer to one order line of a post: exactly one of ``order`` and ``error`` is set."""

    line_no: int  # 1-based, counting every line of the post, so answers can point back at it
    text: str  # the line as written, stripped
    order: Order | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.order is not None


def parse_post(text: str, vocab: Vocabulary) -> list[ParsedLine]:
    """Every order attempt in a post, in order; table talk, quotes and commands are left out."""
    parsed = (parse_line(line, vocab, line_no) for line_no, line in enumerate(text.splitlines(), 1))
    return [p for p in parsed if p is not None]


def parse_line(line: str, vocab: Vocabulary, line_no: int = 1) -> ParsedLine | None:
    """One line read as an order, or None when it is not an order attempt at all."""
    written = line.strip()
    if not written or written.startswith(("/", ">")):
        return None
    outcome = _read(written, vocab)
    if outcome is None:
        return None
    if isinstance(outcome, Order):
        return ParsedLine(line_no, written, order=outcome)
    return ParsedLine(line_no, written, error=outcome)


# ---------------------------------------------------------------------------------------------------
# Words


class _Tok(NamedTuple):
    word: str  # normalised
    start: int  # span in the line's text, to quote the player's own spelling back
    end: int


class _Reject(Exception):
    """A line that is an order attempt but cannot be read; the message goes back to the player."""


_TOKEN = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
# A sentence end cuts off commentary ("Attack Apulia from Campania. They won't see it coming!").
# Periods only count after a real word, so list markers ("1.") and abbreviations ("Mt.") survive.
_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{3})\.+(?=\s|$)|[!?;(\[{]|\s[-\u2013\u2014]+\s|\s--")
_SEPARATORS = re.compile(r"[,&+]")

_FILLERS = frozenset({"the", "a", "an", "my", "our"})
_POLITE = frozenset({"please", "pls", "plz", "kindly", "thanks", "thank", "you", "thx", "ty", "cheers", "sir"})
_LEADING_POLITE = frozenset({"please", "pls", "plz", "kindly"})
_ITEM_WORDS = frozenset({"action", "order", "move", "step"})


@lru_cache(maxsize=8192)
def _norm_word(raw: str) -> str:
    return normalise(raw) if not raw.isascii() else raw.lower().replace("'", "")


def _tokens(text: str) -> list[_Tok]:
    if text.isascii() and "'" not in text:
        # The common case, kept cheap: lower-casing keeps ASCII offsets, so spans still quote the original.
        return [_Tok(m.group(), *m.span()) for m in _TOKEN.finditer(text.lower())]
    return [_Tok(_norm_word(m.group()), m.start(), m.end()) for m in _TOKEN.finditer(text)]


class _Line:
    """The part of a line that holds the order, with its words."""

    def __init__(self, text: str, toks: list[_Tok]) -> None:
        self.text = text
        self.toks = toks

    def span(self, toks: Sequence[_Tok]) -> str:
        """What the player typed for ``toks``, cut to ~80 characters: answers quote it, and a megabyte comes back short."""
        return quote(self.text[toks[0].start : toks[-1].end]) if toks else ""

    @property
    def quote(self) -> str:
        return self.span(self.toks)


# ---------------------------------------------------------------------------------------------------
# Order keywords

# First word -> the family of orders it starts.
_HEADS: dict[str, str] = {
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
# A second order on the same line starts with one of these after "and", "then" or a comma.
_STRONG_HEADS = frozenset(
    {"build", "construct", "raise", "fortify", "attack", "invade", "naval", "amphibious", "ally", "alliance",
     "peace", "earthquake", "distribute", "destroy", "burn", "defensive"}
)

# ... except where that word belongs to the first order: "ally with the Samnites and attack Apulia",
# "earthquake, destroy the walls of Etruria".
_SAME_ORDER = frozenset(
    {("ally", "attack"), ("offer", "attack"), ("earthquake", "destroy"), ("great", "destroy"), ("great", "burn"),
     ("blaze", "destroy"), ("blaze", "burn")}
)


class _Head(NamedTuple):
    family: str
    keyword: str
    how: str  # "exact", "prefix" or "near"


@lru_cache(maxsize=4096)
def _classify(word: str) -> _Head | None:
    family = _HEADS.get(word)
    if family is not None:
        return _Head(family, word, "exact")
    if len(word) >= MIN_KEYWORD_PREFIX and word not in _NOT_PREFIXES:
        starts = [k for k in _GUESSABLE if k.startswith(word)]
        if len(starts) == 1:
            return _Head(_HEADS[starts[0]], starts[0], "prefix")
    near = difflib.get_close_matches(word, _GUESSABLE, n=1, cutoff=NEAR_MISS_RATIO)
    if near:
        return _Head(_HEADS[near[0]], near[0], "near")
    return None


# ---------------------------------------------------------------------------------------------------
# Reading a line


def _read(written: str, vocab: Vocabulary) -> Order | str | None:
    text = written if written.isascii() else unicodedata.normalize("NFC", written)
    if _plainly_talk(text):
        return None
    text, after = _cut_sentence(text)
    toks = _strip_edges(_tokens(text))
    if not toks:
        return None
    toks = _drop_label(text, toks)
    head = _classify(toks[0].word)
    if head is None:
        return None
    line = _Line(text, [t for t in toks if t.word not in _FILLERS] or toks)
    if head.how == "near":
        return _read_near_miss(line, head, toks[0], vocab)
    try:
        _check_single(line, head.family, after)
        return _read_order(line, head.family, vocab)
    except _Reject as reject:
        # A beginning of a keyword that does not make an order is more likely a word of table talk.
        if head.how == "prefix" and not _mentions_names(line, vocab):
            return None
        return str(reject)


def _plainly_talk(text: str) -> bool:
    """Most table talk is told by its first word alone, without reading the rest of the line."""
    first = _TOKEN.search(text)
    if first is None:
        return True
    word = _norm_word(first.group())
    if word.isdigit() or word in _LEADING_POLITE or word in _ITEM_WORDS or ":" in text:
        return False
    return _classify(word) is None


def _cut_sentence(text: str) -> tuple[str, str]:
    match = _SENTENCE_END.search(text)
    if match is None:
        return text, ""
    return text[: match.start()], text[match.end() :]


def _strip_edges(toks: list[_Tok]) -> list[_Tok]:
    """Drop list numbering, "Action 1", a leading "please" and trailing politeness."""
    start = 0
    while start < len(toks) and (toks[start].word.isdigit() or toks[start].word in _LEADING_POLITE):
        start += 1
    if start + 1 < len(toks) and toks[start].word in _ITEM_WORDS and toks[start + 1].word.isdigit():
        start += 2
    end = len(toks)
    while end > start and toks[end - 1].word in _POLITE:
        end -= 1
    return toks[start:end]


def _drop_label(text: str, toks: list[_Tok]) -> list[_Tok]:
    """"Romans: attack Apulia from Latium" or "First action: build temple in Latium" -> the order after the label."""
    if _classify(toks[0].word) is not None:
        return toks
    colon = text.find(":", toks[0].start)
    if colon < 0:
        return toks
    after = [t for t in toks if t.start > colon]
    if after and len(toks) - len(after) <= 3 and after[0].word in _HEADS:
        return after
    return toks


def _read_near_miss(line: _Line, head: _Head, typed: _Tok, vocab: Vocabulary) -> str | None:
    """A misspelt keyword is an order attempt only when the rest of the line reads as that order."""
    try:
        order = _read_order(line, head.family, vocab)
    except _Reject:
        return None
    if order is None:
        return None
    return f"unknown order '{line.span([typed])}': did you mean '{head.keyword}'?"


def _mentions_names(line: _Line, vocab: Vocabulary) -> bool:
    words = vocab.words
    return any(t.word in words for t in line.toks[1:])


def _check_single(line: _Line, family: str, after: str) -> None:
    """One order per line: a second order after "and", "then", a comma or a full stop is refused."""
    toks = line.toks
    for i in range(1, len(toks)):
        word = toks[i].word
        if word not in _STRONG_HEADS or (family, word) in _SAME_ORDER:
            continue
        joined = toks[i - 1].word in ("and", "then", "also") or _SEPARATORS.search(
            line.text[toks[i - 1].end : toks[i].start]
        )
        if joined:
            first = toks[: i - 1] if toks[i - 1].word in ("and", "then", "also") else toks[:i]
            _reject_two(line.span(first), line.span(toks[i:]), line.quote)
    next_toks = _strip_edges(_tokens(after))
    if next_toks and next_toks[0].word in _STRONG_HEADS:
        second = after[next_toks[0].start : next_toks[-1].end]
        _reject_two(line.quote, second, f"{line.quote}. {second}")


def _reject_two(first: str, second: str, quote: str) -> NoReturn:
    raise _Reject(f"'{quote}': one order per line, please: write '{first}' and '{second}' on separate lines")


def _read_order(line: _Line, family: str, vocab: Vocabulary) -> Order | None:
    reader = _READERS[family]
    return reader(line, line.toks[1:], vocab)


# ---------------------------------------------------------------------------------------------------
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


class _Clauses:
    """A line's words after its keyword: the leading words, then (marker, words) clauses in order."""

    def __init__(self, toks: Sequence[_Tok], extra: Mapping[str, str] | None = None) -> None:
        markers = {**_MARKERS, **extra} if extra else _MARKERS
        self.lead: list[_Tok] = []
        self.rest: list[tuple[str, _Tok, list[_Tok]]] = []
        current = self.lead
        toks = _drop_by_sea(toks)
        for tok in toks:
            role = markers.get(tok.word)
            if role is None:
                current.append(tok)
            else:
                current = []
                self.rest.append((role, tok, current))

    def take_lead(self) -> list[_Tok] | None:
        lead, self.lead = self.lead, []
        return lead or None

    def take(self, *roles: str) -> list[_Tok] | None:
        for i, (role, _marker, words) in enumerate(self.rest):
            if role in roles and words:
                del self.rest[i]
                return words
        return None

    def leftover(self) -> list[_Tok]:
        if self.lead:
            return self.lead
        for _role, marker, words in self.rest:
            if words:
                return [marker, *words]
        return []


def _drop_by_sea(toks: Sequence[_Tok]) -> list[_Tok]:
    """ "by sea" says nothing the order does not already say."""
    out: list[_Tok] = []
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


def _finish(line: _Line, clauses: _Clauses, template: str) -> None:
    extra = clauses.leftover()
    if extra:
        raise _Reject(f"'{line.quote}': did not expect '{line.span(extra)}' here (write: {template})")


def _require(line: _Line, missing: list[str], template: str) -> None:
    if missing:
        raise _Reject(f"'{line.quote}': say {_and(missing)}: {template}")


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


# ---------------------------------------------------------------------------------------------------
# Names in slots


def _resolve(line: _Line, toks: Sequence[_Tok], want: NameIndex, vocab: Vocabulary) -> str:
    text = line.span(toks)
    name = want.exact(text)
    if name is not None:
        return name
    # A name of another kind, written exactly, is a mistake of slot rather than of spelling.
    for other in vocab.indices:
        found = other.exact(text) if other is not want else None
        if found is not None:
            canonical = "" if normalise(found) == normalise(text) else f" ({found})"
            raise _Reject(f"'{quote(text)}' is {other.article} {other.kind}{canonical}, not {want.article} {want.kind}")
    resolution = want.resolve(text)
    if resolution.name is None:
        raise _Reject(resolution.error or f"unknown {want.kind} '{quote(text)}'")
    return resolution.name


def _show(line: _Line, toks: Sequence[_Tok] | None, index: NameIndex, vocab: Vocabulary,
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


def _strip_words(toks: list[_Tok] | None, words: frozenset[str], front: bool = True) -> list[_Tok] | None:
    if not toks:
        return toks
    if front:
        while toks and toks[0].word in words:
            toks = toks[1:]
    else:
        while toks and toks[-1].word in words:
            toks = toks[:-1]
    return toks or None


# ---------------------------------------------------------------------------------------------------
# Buildings and fleets

_FORTIFICATION = frozenset(
    {"fortification", "fortifications", "fort", "forts", "fortress", "fortresses", "wall", "walls", "fortifs"}
)
_SUBURBS = frozenset({"suburbs", "suburb"})
_TEMPLE = frozenset({"temple", "temples"})
_FLEET = frozenset({"fleet", "fleets", "ship", "ships", "navy", "squadron", "galleys", "warships"})
_BUILDINGS: dict[str, str] = {
    **{w: "fortification" for w in _FORTIFICATION},
    **{w: "suburbs" for w in _SUBURBS},
    **{w: "temple" for w in _TEMPLE},
}
_BUILDING_ADJECTIVES = frozenset({"new", "city", "stone", "defensive", "great", "big"})
_CAN_BUILD = "you can build a fortification, suburbs or a temple"


def _read_build(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(rest)
    lead = _strip_words(clauses.take_lead(), _BUILDING_ADJECTIVES) or []
    if lead and lead[0].word in _FLEET:
        clauses.lead = lead[1:]
        return _read_fleet(line, clauses, vocab)
    building = _BUILDINGS.get(lead[0].word) if lead else None
    where = lead[1:] or clauses.take("in", "at", "on")
    if building is None:
        _reject_building(line, lead[:1], where, vocab)
    template = f"build {building} in {_show(line, where, vocab.provinces, vocab)}"
    _require(line, [] if where else ["where"], template)
    _finish(line, clauses, template)
    return Build(building, _resolve(line, where, vocab.provinces, vocab))


def _reject_building(line: _Line, what: list[_Tok], where: list[_Tok] | None, vocab: Vocabulary) -> NoReturn:
    province = _show(line, where, vocab.provinces, vocab)
    if not what:
        raise _Reject(f"'{line.quote}': say what you build: {_CAN_BUILD.removeprefix('you can build ')} "
                      f"(write: build temple in {province})")
    guess = difflib.get_close_matches(what[0].word, [*_BUILDINGS, *_FLEET], n=1, cutoff=0.75)
    if guess and guess[0] in _FLEET:
        sea = _show(line, where, vocab.seas, vocab)
        raise _Reject(f"'{line.quote}': did you mean '{guess[0]}'? Write: raise fleet in {sea}")
    building = _BUILDINGS[guess[0]] if guess else "temple"
    can_build = f"did you mean '{guess[0]}'? Y{_CAN_BUILD[1:]}" if guess else _CAN_BUILD
    raise _Reject(f"'{line.quote}': {can_build} (write: build {building} in {province})")


def _read_fortify(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(rest)
    where = clauses.take_lead() or clauses.take("in", "at", "on")
    template = f"fortify {_show(line, where, vocab.provinces, vocab)}"
    _require(line, [] if where else ["which province"], template)
    _finish(line, clauses, template)
    return Build("fortification", _resolve(line, where, vocab.provinces, vocab))


def _read_raise(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(rest)
    lead = _strip_words(clauses.take_lead(), _BUILDING_ADJECTIVES) or []
    if not lead or lead[0].word not in _FLEET:
        sea = lead[1:] or clauses.take("in", "at", "on")
        raise _Reject(f"'{line.quote}': you can raise a fleet in a sea "
                      f"(write: raise fleet in {_show(line, sea, vocab.seas, vocab)})")
    clauses.lead = lead[1:]
    return _read_fleet(line, clauses, vocab)


def _read_fleet(line: _Line, clauses: _Clauses, vocab: Vocabulary) -> Order:
    sea = clauses.take_lead() or clauses.take("in", "at", "on")
    template = f"raise fleet in {_show(line, sea, vocab.seas, vocab)}"
    _require(line, [] if sea else ["in which sea"], template)
    _finish(line, clauses, template)
    return RaiseFleet(_resolve(line, sea, vocab.seas, vocab))


# ---------------------------------------------------------------------------------------------------
# Diplomacy and politics

_TREATY = frozenset({"treaty", "agreement", "deal", "pact", "offer", "proposal", "talks"})
_ALLIANCE = frozenset({"alliance", "ally"})
_GRAIN = frozenset({"grain", "corn", "bread", "wheat"})
_DISTRIBUTION = frozenset({"distribution", "distributions", "dole", "handout", "distribute"})
_PEOPLE = frozenset({"people", "plebs", "plebeians", "citizens", "poor", "populace", "masses", "mob"})


def _read_peace(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(_strip_words(list(rest), _TREATY) or [])
    nation = clauses.take_lead() or clauses.take("with", "to")
    template = f"peace treaty with {_show(line, nation, vocab.nations, vocab)}"
    _require(line, [] if nation else ["with which nation"], template)
    _finish(line, clauses, template)
    return PeaceTreaty(_resolve(line, nation, vocab.nations, vocab))


def _read_offer(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "offer peace to the Gauls", "propose an alliance to the Samnites against Apulia"; else just talk."""
    if not rest:
        return None
    if rest[0].word == "peace" or rest[0].word in _TREATY - {"offer"}:
        return _read_peace(line, _strip_words(list(rest), _TREATY | {"peace"}) or [], vocab)
    if rest[0].word in _ALLIANCE:
        return _read_ally(line, rest[1:], vocab)
    return None


def _read_ally(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(_strip_words(list(rest), _TREATY) or [], extra={"attack": "against"})
    invader = clauses.take_lead() or clauses.take("with", "to")
    province = clauses.take("against", "on", "into", "in")
    template = (f"ally with {_show(line, invader, vocab.invaders, vocab)} "
                f"against {_show(line, province, vocab.provinces, vocab)}")
    missing = [] if invader else ["with which invader force"]
    missing += [] if province else ["which province the allied army attacks"]
    _require(line, missing, template)
    _finish(line, clauses, template)
    return Alliance(_resolve(line, invader, vocab.invaders, vocab), _resolve(line, province, vocab.provinces, vocab))


def _read_grain(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    """ "grain distribution", "distribute grain", "distribution of grain to the people"."""
    words = [t.word for t in rest]
    head = _classify(line.toks[0].word)
    if head is None or head.keyword != "grain":
        if words[:1] == ["of"]:
            words = words[1:]
        if not words or words[0] not in _GRAIN:
            raise _Reject(f"'{line.quote}': you can distribute grain (write: grain distribution)")
        words = words[1:]
    elif words and words[0] in _DISTRIBUTION:
        words = words[1:]
    if words and words[0] in ("to", "for", "among") and all(w in _PEOPLE for w in words[1:]):
        words = []
    if words:
        raise _Reject(f"'{line.quote}': grain distribution takes no province or target (write: grain distribution)")
    return GrainDistribution()


# ---------------------------------------------------------------------------------------------------
# Battles

_ARMY = frozenset({"army", "armies", "legion", "legions", "troops", "forces", "force", "men", "soldiers", "host"})
_BATTLE = frozenset(
    {"battle", "attack", "assault", "engagement", "combat", "fight", "landing", "invasion", "operation", "strike",
     "raid"}
)
_PIRATE_WORDS = frozenset({"pirates", "pirate", "corsairs", "corsair"})


def _read_land(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "land battle against Apulia from Campania"; "land" alone is just a word."""
    if not rest or rest[0].word not in _BATTLE:
        return None
    return _read_attack(line, rest[1:], vocab)


def _read_attack(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    clauses = _Clauses(rest)
    target = clauses.take_lead() or clauses.take("on", "against", "into", "at", "to")
    base = _base_with_army(line, clauses)
    if target is None and base is not None:
        target = clauses.take("in")
    sea = clauses.take("through")
    if sea is not None:
        return _amphibious(line, clauses, target, base, sea, vocab)
    if base is None and target is not None and _names_fleet(target, vocab) and any(
        role == "in" and words for role, _marker, words in clauses.rest
    ):
        return _naval_from_attack(line, clauses, target, vocab)
    template = f"attack {_show(line, target, vocab.provinces, vocab)} from {_show(line, base, vocab.provinces, vocab)}"
    missing = [] if target else ["which province you attack"]
    missing += [] if base else ["where you attack from"]
    _require(line, missing, template)
    _finish(line, clauses, template)
    return Attack(_resolve(line, target, vocab.provinces, vocab), _resolve(line, base, vocab.provinces, vocab))


def _base_with_army(line: _Line, clauses: _Clauses) -> list[_Tok] | None:
    """The base named by the army that attacks: "with the army from Campania", "with the army of Campania"."""
    # "with the army" adds nothing to "from Campania".
    clauses.rest = [c for c in clauses.rest if not (c[0] == "with" and c[2] and all(t.word in _ARMY for t in c[2]))]
    base = clauses.take("from")
    if base is not None:
        return base
    for i, (role, _marker, words) in enumerate(clauses.rest):
        if role == "with" and words and words[0].word in _ARMY:
            base = [t for t in words[1:] if t.word != "of"]
            if base:
                del clauses.rest[i]
                return base
    return None


def _names_fleet(target: list[_Tok], vocab: Vocabulary) -> bool:
    """Whether the attacked thing is a fleet (a nation's, or the pirates') rather than a province."""
    if target[-1].word in _FLEET or _is_pirates(target):
        return True
    text = " ".join(t.word for t in target)
    return vocab.nations.exact(text) is not None and vocab.provinces.exact(text) is None


def _naval_from_attack(line: _Line, clauses: _Clauses, enemy: list[_Tok], vocab: Vocabulary) -> Order:
    """ "attack the Roman fleet in the Adriatic" is a naval battle."""
    sea = clauses.take("in")
    return _naval(line, clauses, enemy, sea, vocab)


def _read_naval(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    rest = list(rest)
    if rest and (rest[0].word in _BATTLE or _is_near(rest[0].word, _BATTLE)):
        rest = rest[1:]
    clauses = _Clauses(rest)
    enemy = clauses.take_lead() or clauses.take("against", "on", "with", "to")
    sea = clauses.take("in", "at")
    return _naval(line, clauses, enemy, sea, vocab)


def _read_sea(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "sea battle against the Romans in the Adriatic"; "sea" alone is just a word."""
    if not rest or rest[0].word not in _BATTLE:
        return None
    return _read_naval(line, rest, vocab)


def _naval(line: _Line, clauses: _Clauses, enemy: list[_Tok] | None, sea: list[_Tok] | None,
           vocab: Vocabulary) -> Order:
    enemy = _strip_words(enemy, _FLEET, front=False)
    shown_enemy = _show_enemy(line, enemy, vocab)
    template = f"naval battle against {shown_enemy} in {_show(line, sea, vocab.seas, vocab)}"
    missing = [] if enemy else ["against whom"]
    missing += [] if sea else ["in which sea"]
    _require(line, missing, template)
    _finish(line, clauses, template)
    return NavalBattle(_resolve_enemy(line, enemy, vocab), _resolve(line, sea, vocab.seas, vocab))


def _is_pirates(toks: Sequence[_Tok]) -> bool:
    return bool(toks) and all(t.word in _PIRATE_WORDS for t in toks)


def _show_enemy(line: _Line, enemy: list[_Tok] | None, vocab: Vocabulary) -> str:
    if enemy and _is_pirates(enemy):
        return PIRATES
    return _show(line, enemy, vocab.nations, vocab, "<nation or pirates>")


def _resolve_enemy(line: _Line, enemy: list[_Tok], vocab: Vocabulary) -> str:
    return PIRATES if _is_pirates(enemy) else _resolve(line, enemy, vocab.nations, vocab)


def _read_amphibious(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    rest = list(rest)
    if rest and (rest[0].word in _BATTLE or _is_near(rest[0].word, _BATTLE)):
        rest = rest[1:]
    clauses = _Clauses(rest)
    target = clauses.take_lead() or clauses.take("on", "against", "into", "at", "to")
    base = clauses.take("from")
    sea = clauses.take("through")
    return _amphibious(line, clauses, target, base, sea, vocab)


def _amphibious(line: _Line, clauses: _Clauses, target: list[_Tok] | None, base: list[_Tok] | None,
                sea: list[_Tok] | None, vocab: Vocabulary) -> Order:
    # "in" names whichever of the landing and the sea is still missing: "landing in Apulia ... via the
    # Adriatic" or "attack on Apulia ... in the Adriatic".
    if target is None:
        target = clauses.take("in")
    elif sea is None:
        sea = clauses.take("in")
    template = (f"amphibious attack on {_show(line, target, vocab.provinces, vocab)} "
                f"from {_show(line, base, vocab.provinces, vocab)} through {_show(line, sea, vocab.seas, vocab)}")
    missing = [] if target else ["which province you attack"]
    missing += [] if base else ["where you attack from"]
    missing += [] if sea else ["through which sea"]
    _require(line, missing, template)
    _finish(line, clauses, template)
    return Amphibious(
        _resolve(line, target, vocab.provinces, vocab),
        _resolve(line, base, vocab.provinces, vocab),
        _resolve(line, sea, vocab.seas, vocab),
    )


def _is_near(word: str, words: Iterable[str]) -> bool:
    return len(word) >= 4 and bool(difflib.get_close_matches(word, list(words), n=1, cutoff=NEAR_MISS_RATIO))


# ---------------------------------------------------------------------------------------------------
# The end of a turn

_TURN_WORDS = frozenset({"turn", "this", "for", "now", "my", "round", "me", "i", "m", "im", "here", "all", "with",
                         "orders", "actions", "that", "s", "it", "today"})
_ACTION_WORDS = frozenset({"actions", "action", "orders", "order", "moves", "move"})
_END_WHAT = frozenset({"turn", "round"}) | _ACTION_WORDS


def _read_pass(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    if all(t.word in _TURN_WORDS for t in rest):
        return Pass()
    raise _Reject(f"'{line.quote}': to end your turn write just: pass")


def _read_end(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "end turn", "end of turn", "end of my turn"; any other "end ..." is talk."""
    words = [t.word for t in rest]
    if words[:1] == ["of"]:
        words = words[1:]
    says_turn = bool(_END_WHAT & set(words))
    if says_turn and all(w in _TURN_WORDS or w in _ACTION_WORDS for w in words):
        return Pass()
    return None


def _read_done(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    return Pass() if all(t.word in _TURN_WORDS for t in rest) else None


def _read_no(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "no more actions (this turn)"; any other "no ..." is talk."""
    words = [t.word for t in rest]
    if words[:1] == ["more"] and words[1:2] and words[1] in _ACTION_WORDS and all(w in _TURN_WORDS for w in words[2:]):
        return Pass()
    return None


# ---------------------------------------------------------------------------------------------------
# Choices left by random events (they spend no action)

_DESTROY = frozenset({"destroy", "destroys", "destroying", "raze", "razes", "burn", "burns", "burning", "of"})
_EVENT_TEMPLATES = {
    "earthquake": "earthquake on {}",
    "great_blaze": "great blaze on {}",
    "defensive_artworks": "defensive artworks in {}",
}


def _event(line: _Line, event: str, rest: Sequence[_Tok], skip: frozenset[str], vocab: Vocabulary) -> Order:
    clauses = _Clauses(_strip_words(list(rest), skip) or [])
    where = _strip_words(clauses.take_lead(), skip) or clauses.take("on", "in", "at", "of")
    template = _EVENT_TEMPLATES[event].format(_show(line, where, vocab.provinces, vocab))
    _require(line, [] if where else ["which province"], template)
    _finish(line, clauses, template)
    return EventChoice(event, _resolve(line, where, vocab.provinces, vocab))


def _read_earthquake(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    return _event(line, "earthquake", rest, _DESTROY | _FORTIFICATION, vocab)


def _read_blaze(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    return _event(line, "great_blaze", rest, _DESTROY | _TEMPLE, vocab)


def _read_great(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "great blaze on Latium"; any other "great ..." ("great game!") is talk."""
    if not rest or not (rest[0].word == "blaze" or _is_near(rest[0].word, ("blaze",))):
        return None
    return _read_blaze(line, rest[1:], vocab)


def _read_burn(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order | None:
    """ "burn the temple in Latium"; "burn them all!" is talk."""
    if not rest or rest[0].word not in _TEMPLE:
        return None
    return _read_blaze(line, rest[1:], vocab)


def _read_destroy(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    what = rest[0].word if rest else ""
    if what in _FORTIFICATION:
        return _read_earthquake(line, rest[1:], vocab)
    if what in _TEMPLE:
        return _read_blaze(line, rest[1:], vocab)
    clauses = _Clauses(rest[1:])
    where = _show(line, clauses.take_lead() or clauses.take("in", "on", "at", "of"), vocab.provinces, vocab)
    raise _Reject(f"'{line.quote}': you can destroy a fortification (Earthquake) or a temple (Great Blaze) "
                  f"(write: destroy fortification in {where})")


_ARTWORKS = frozenset({"artworks", "artwork", "art", "works", "work", "fortification", "fortifications"})


def _read_defensive(line: _Line, rest: Sequence[_Tok], vocab: Vocabulary) -> Order:
    if not rest or rest[0].word not in _ARTWORKS:
        clauses = _Clauses(rest)
        where = _show(line, clauses.take("in", "on", "at"), vocab.provinces, vocab)
        raise _Reject(f"'{line.quote}': the event's choice is written: defensive artworks in {where}")
    return _event(line, "defensive_artworks", rest, _ARTWORKS, vocab)


_Reader = Callable[[_Line, Sequence[_Tok], Vocabulary], "Order | None"]
_READERS: dict[str, _Reader] = {
    "build": _read_build,
    "raise": _read_raise,
    "fortify": _read_fortify,
    "peace": _read_peace,
    "offer": _read_offer,
    "ally": _read_ally,
    "grain": _read_grain,
    "attack": _read_attack,
    "land": _read_land,
    "naval": _read_naval,
    "sea": _read_sea,
    "amphibious": _read_amphibious,
    "pass": _read_pass,
    "end": _read_end,
    "done": _read_done,
    "no": _read_no,
    "earthquake": _read_earthquake,
    "great": _read_great,
    "blaze": _read_blaze,
    "burn": _read_burn,
    "destroy": _read_destroy,
    "defensive": _read_defensive,
}
