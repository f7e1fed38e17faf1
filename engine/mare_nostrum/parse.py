"""Reading a player's post: one order per line, in plain English, into ``orders.Order`` values.

The parser only checks the form of a line and the names in it; whether the order is legal (adjacency,
ownership, turn order, actions left) is the rules' business. A post mixes orders with table talk, so
a line is only answered when it looks like an order attempt: its first word is an order keyword, a
unique beginning of one, or a near miss of one. Everything else is left alone.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from engine.mare_nostrum.order_slots import Vocabulary
from engine.mare_nostrum.order_words import HEADS, TOKEN, Head, Line, Reject, Tok, classify, norm_word, tokens
from engine.mare_nostrum.orders import Order
from engine.mare_nostrum.read_battles import read_amphibious, read_attack, read_land, read_naval, read_sea
from engine.mare_nostrum.read_builds import read_build, read_fortify, read_raise
from engine.mare_nostrum.read_diplomacy import read_ally, read_grain, read_offer, read_peace
from engine.mare_nostrum.read_events import (
    read_blaze,
    read_burn,
    read_defensive,
    read_destroy,
    read_earthquake,
    read_great,
)
from engine.mare_nostrum.read_turn_end import read_done, read_end, read_no, read_pass

__all__ = ["ParsedLine", "Vocabulary", "parse_line", "parse_post"]


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
# Reading a line

# A sentence end cuts off commentary ("Attack Apulia from Campania. They won't see it coming!").
# Periods only count after a real word, so list markers ("1.") and abbreviations ("Mt.") survive.
_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{3})\.+(?=\s|$)|[!?;(\[{]|\s[-\u2013\u2014]+\s|\s--")
_SEPARATORS = re.compile(r"[,&+]")

_FILLERS = frozenset({"the", "a", "an", "my", "our"})
_POLITE = frozenset({"please", "pls", "plz", "kindly", "thanks", "thank", "you", "thx", "ty", "cheers", "sir"})
_LEADING_POLITE = frozenset({"please", "pls", "plz", "kindly"})
_ITEM_WORDS = frozenset({"action", "order", "move", "step"})

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


def _read(written: str, vocab: Vocabulary) -> Order | str | None:
    text = written if written.isascii() else unicodedata.normalize("NFC", written)
    if _plainly_talk(text):
        return None
    text, after = _cut_sentence(text)
    toks = _strip_edges(tokens(text))
    if not toks:
        return None
    toks = _drop_label(text, toks)
    head = classify(toks[0].word)
    if head is None:
        return None
    line = Line(text, [t for t in toks if t.word not in _FILLERS] or toks)
    if head.how == "near":
        return _read_near_miss(line, head, toks[0], vocab)
    try:
        _check_single(line, head.family, after)
        return _read_order(line, head.family, vocab)
    except Reject as reject:
        # A beginning of a keyword that does not make an order is more likely a word of table talk.
        if head.how == "prefix" and not _mentions_names(line, vocab):
            return None
        return str(reject)


def _plainly_talk(text: str) -> bool:
    """Most table talk is told by its first word alone, without reading the rest of the line."""
    first = TOKEN.search(text)
    if first is None:
        return True
    word = norm_word(first.group())
    if word.isdigit() or word in _LEADING_POLITE or word in _ITEM_WORDS or ":" in text:
        return False
    return classify(word) is None


def _cut_sentence(text: str) -> tuple[str, str]:
    match = _SENTENCE_END.search(text)
    if match is None:
        return text, ""
    return text[: match.start()], text[match.end() :]


def _strip_edges(toks: list[Tok]) -> list[Tok]:
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


def _drop_label(text: str, toks: list[Tok]) -> list[Tok]:
    """"Romans: attack Apulia from Latium" or "First action: build temple in Latium" -> the order after the label."""
    if classify(toks[0].word) is not None:
        return toks
    colon = text.find(":", toks[0].start)
    if colon < 0:
        return toks
    after = [t for t in toks if t.start > colon]
    if after and len(toks) - len(after) <= 3 and after[0].word in HEADS:
        return after
    return toks


def _read_near_miss(line: Line, head: Head, typed: Tok, vocab: Vocabulary) -> str | None:
    """A misspelt keyword is an order attempt only when the rest of the line reads as that order."""
    try:
        order = _read_order(line, head.family, vocab)
    except Reject:
        return None
    if order is None:
        return None
    return f"unknown order '{line.span([typed])}': did you mean '{head.keyword}'?"


def _mentions_names(line: Line, vocab: Vocabulary) -> bool:
    words = vocab.words
    return any(t.word in words for t in line.toks[1:])


def _check_single(line: Line, family: str, after: str) -> None:
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
    next_toks = _strip_edges(tokens(after))
    if next_toks and next_toks[0].word in _STRONG_HEADS:
        second = after[next_toks[0].start : next_toks[-1].end]
        _reject_two(line.quote, second, f"{line.quote}. {second}")


def _reject_two(first: str, second: str, quote: str) -> NoReturn:
    raise Reject(f"'{quote}': one order per line, please: write '{first}' and '{second}' on separate lines")


def _read_order(line: Line, family: str, vocab: Vocabulary) -> Order | None:
    reader = _READERS[family]
    return reader(line, line.toks[1:], vocab)


_Reader = Callable[[Line, Sequence[Tok], Vocabulary], "Order | None"]
_READERS: dict[str, _Reader] = {
    "build": read_build,
    "raise": read_raise,
    "fortify": read_fortify,
    "peace": read_peace,
    "offer": read_offer,
    "ally": read_ally,
    "grain": read_grain,
    "attack": read_attack,
    "land": read_land,
    "naval": read_naval,
    "sea": read_sea,
    "amphibious": read_amphibious,
    "pass": read_pass,
    "end": read_end,
    "done": read_done,
    "no": read_no,
    "earthquake": read_earthquake,
    "great": read_great,
    "blaze": read_blaze,
    "burn": read_burn,
    "destroy": read_destroy,
    "defensive": read_defensive,
}
