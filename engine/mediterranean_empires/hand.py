"""Stratagem markers held under seal (9.0): what everyone may know of a hand, and what only the bot's fold knows.

A marker drawn is *sealed*: the public log holds the digest of ``{"marker", "pick"}`` (engine/secrets.py) in the
bot's ``secret.sealed`` event, and the bot's private store holds the content. So a hand is a list of entries
``{"seq": the sealing event, "digest", "pick": the pick's label, "marker": known or None, "revealed": bool}``:
the fold over the export sees ``marker`` None until the entry is revealed; the bot's fold (with its private store)
knows every marker. ``seq`` None is an *open* entry (a marker held face up: the examples of play set hands so).

``unseen`` is the multiset of markers nobody has shown: the pool and every sealed marker of both hands. Both
folds keep it alike, so every question about holdings is asked from public knowledge only (``might_hold``), and a
marker is used only once it is revealed (``claim``, ``spend``): the claim is checked against the digest sealed when
it was drawn.

A pick (``pick_index``): the bot's pick key (the salt of the seal on the game's first draw order, sealed before
any pick's public value exists) keys HMAC-SHA256 over the pick's public value; the index among the pool, sorted by
name, is engine/chance/derive.py's rule on that key. The public value alone says nothing of the marker.
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
from typing import Any

from engine import canonical
from engine.chance import derive, registry
from engine.events import Rejection
from engine.mediterranean_empires.context import Ctx
from engine.mediterranean_empires.oracle import NeedMarker
from engine.mediterranean_empires.state import State

# Drawn in the Stratagem Phase, these act at once (9.0, 12.0): the bot shows them in the sealing event.
IMMEDIATE = ("Plague", "The Pope", "Crusade")
# A pick's public value: one number in 1..PICK_SIDES under the pick's label (a drand or commit-reveal roll); on a
# source whose numbers are narrow, one of them (``Source.span``: a lottery campaign takes one number 1..90).
PICK_SIDES = 2**31
PICK_KEY_CONTENT = {"stratagem pick key": "the salt of this seal keys every stratagem pick of the game"}


def pick_sides(source: str) -> int:
    """The range of a pick's one number on the campaign's source (``book.source``)."""
    named = registry.get(source)
    return named.span if named is not None and named.span is not None else PICK_SIDES


def entries(st: State, side: str) -> list[dict[str, Any]]:
    return st.sides[side].hand


def count(st: State, side: str) -> int:
    return len(st.sides[side].hand)


def known(st: State, side: str) -> list[str]:
    """The markers this fold knows ``side`` holds (all of them in the bot's fold; the open ones in the export's)."""
    return [e["marker"] for e in st.sides[side].hand if e["marker"] is not None]


def knows_hand(st: State, side: str) -> bool:
    return all(e["marker"] is not None for e in st.sides[side].hand)


def knows_all(st: State) -> bool:
    return all(knows_hand(st, side) for side in st.sides)


def _sealed(st: State) -> list[dict[str, Any]]:
    return [e for s in st.sides.values() for e in s.hand if e["seq"] is not None and not e.get("revealed")]


def pool_size(st: State) -> int:
    return len(st.unseen) - len(_sealed(st))


def pool(st: State) -> list[str] | None:
    """The pool sorted by name, as the bot's fold knows it; None where a sealed marker is unknown."""
    if not knows_all(st):
        return None
    left = list(st.unseen)
    for e in _sealed(st):
        if e["marker"] not in left:  # a forged log: more sealed markers of a kind than there are
            raise Rejection(f"the {e['marker']} sealed for the pick {e['pick']} is not among the markers unseen")
        left.remove(e["marker"])
    return sorted(left)


def might_hold(st: State, side: str, kinds: tuple[str, ...]) -> bool:
    """Whether ``side`` may hold one of ``kinds``, from public knowledge alone: both folds answer alike, so a
    question asked on it tells the other player nothing the board does not."""
    hand = st.sides[side].hand
    if any(e["seq"] is None and e["marker"] in kinds for e in hand):
        return True
    return any(e["seq"] is not None for e in hand) and any(k in st.unseen for k in kinds)


def to_pool(st: State, marker: str) -> None:
    bisect.insort(st.unseen, marker)


def give(st: State, side: str, marker: str) -> None:
    """An open marker from the pool into a hand (examples of play, tests): everyone sees it."""
    st.unseen.remove(marker)
    st.sides[side].hand.append({"seq": None, "digest": None, "pick": "", "marker": marker, "revealed": True})


def seal(st: State, side: str, seq: int, digest: str, pick: str, marker: str | None) -> None:
    """A drawn marker into a hand under seal (it stays in ``unseen``)."""
    st.sides[side].hand.append({"seq": seq, "digest": digest, "pick": pick, "marker": marker, "revealed": False})


def take(st: State, side: str, entry: dict[str, Any]) -> str:
    """A revealed (or open) entry out of the hand: its marker is now in the open (the caller plays it or returns
    it to the pool)."""
    hand = st.sides[side].hand
    i = next(i for i, e in enumerate(hand) if e is entry or (entry["seq"] is not None and e["seq"] == entry["seq"]))
    gone = hand.pop(i)
    marker = str(entry["marker"])  # the export's fold learns it from the reveal, not from its own entry
    if gone["seq"] is not None and not gone.get("revealed"):
        if marker not in st.unseen:
            raise Rejection(f"the {marker} revealed is not among the markers unseen: it cannot have been held")
        st.unseen.remove(marker)
    return marker


def candidates(st: State, side: str, kinds: tuple[str, ...], skip: set[int]) -> list[dict[str, Any]]:
    """Sealed entries of ``side`` this fold knows to be one of ``kinds`` (none in the export's fold)."""
    return [e for e in st.sides[side].hand if e["seq"] is not None and e["seq"] not in skip and e["marker"] in kinds]


def choose_reveal(st: State, found: list[dict[str, Any]], label: str) -> dict[str, Any]:
    """Which of the seat's markers of the kind claimed the bot opens. Opening the first one drawn would tell the
    other player that the markers drawn before it are of other kinds; a choice keyed by the pick key (unknown to the
    players) tells nothing definite of them (any marker of that kind held is a valid reveal: no one re-checks it)."""
    key = st.pick_key.get("salt") if st.pick_key else None
    if key is None or len(found) == 1:
        return found[0]
    return found[pick_index(str(key), label, [len(found)], len(found))]


def pick_index(key_hex: str, label: str, values: list[int], n: int) -> int:
    """0-based index in the sorted pool of ``n`` markers: derive(HMAC-SHA256(pick key, public value), label)."""
    message = canonical.dumps({"label": label, "values": list(values)}).encode()
    keyed = hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).digest()
    return derive.values(keyed, label, 1, 1, n)[0] - 1


def claim(ctx: Ctx, side: str, kinds: tuple[str, ...]) -> str:
    """A marker of one of ``kinds`` out of ``side``'s hand, backed by its reveal (the order waits for it: the
    oracle's ``NeedMarker``); refused where this fold knows the hand holds none (the bot's own fold, open hands).
    Claim before any die of the order: a refusal then falls on the player's own order or answer."""
    st = ctx.state
    try:
        entry = ctx.oracle.claim(st.sides[side].hand, side, kinds)
    except NeedMarker:
        skip = {r["seq"] for r in ctx.oracle.revealed}
        if knows_hand(st, side) and not candidates(st, side, kinds, skip):
            raise Rejection(f"Player {side} holds no {' or '.join(kinds)} stratagem marker to play",
                          hidden_of=ctx.seat(side)) from None
        raise
    return take(st, side, entry)


def check_held(ctx: Ctx, side: str, kinds: tuple[str, ...], wanted: int) -> None:
    """Before claiming ``wanted`` markers in one order: where this fold knows the hand, refuse at once if it holds
    fewer (the order is the player's; a refusal after the first reveal would fall on the bot's reveal)."""
    st = ctx.state
    if wanted > 0 and knows_hand(st, side):
        held = sum(1 for e in st.sides[side].hand if e["marker"] in kinds)
        if held < wanted:
            raise Rejection(f"Player {side} holds {held} {' or '.join(kinds)} stratagem marker(s), not {wanted}",
                          hidden_of=ctx.seat(side))


def spend(ctx: Ctx, side: str, kinds: tuple[str, ...]) -> str:
    """A claimed marker that goes back to the pool at once."""
    marker = claim(ctx, side, kinds)
    to_pool(ctx.state, marker)
    return marker
