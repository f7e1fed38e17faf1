"""Reading the end of a turn: "pass", "end turn", "done", "no more actions"; anything else after those words is talk."""
from __future__ import annotations

from collections.abc import Sequence

from engine.mare_nostrum.order_slots import Vocabulary
from engine.mare_nostrum.order_words import Line, Reject, Tok
from engine.mare_nostrum.orders import Order, Pass

_TURN_WORDS = frozenset({"turn", "this", "for", "now", "my", "round", "me", "i", "m", "im", "here", "all", "with",
                         "orders", "actions", "that", "s", "it", "today"})
_ACTION_WORDS = frozenset({"actions", "action", "orders", "order", "moves", "move"})
_END_WHAT = frozenset({"turn", "round"}) | _ACTION_WORDS


def read_pass(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order:
    if all(t.word in _TURN_WORDS for t in rest):
        return Pass()
    raise Reject(f"'{line.quote}': to end your turn write just: pass")


def read_end(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "end turn", "end of turn", "end of my turn"; any other "end ..." is talk."""
    words = [t.word for t in rest]
    if words[:1] == ["of"]:
        words = words[1:]
    says_turn = bool(_END_WHAT & set(words))
    if says_turn and all(w in _TURN_WORDS or w in _ACTION_WORDS for w in words):
        return Pass()
    return None


def read_done(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    return Pass() if all(t.word in _TURN_WORDS for t in rest) else None


def read_no(line: Line, rest: Sequence[Tok], vocab: Vocabulary) -> Order | None:
    """ "no more actions (this turn)"; any other "no ..." is talk."""
    words = [t.word for t in rest]
    if words[:1] == ["more"] and words[1:2] and words[1] in _ACTION_WORDS and all(w in _TURN_WORDS for w in words[2:]):
        return Pass()
    return None
