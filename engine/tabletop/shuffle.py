"""A shuffle: a permutation of a pile derived from a public value, keyed where the order must stay hidden.

The cards of a pile are sorted by name, then shuffled Fisher–Yates from the last position down: for i = n−1 … 1,
j = engine/chance/derive.py's rule under key K and label ``"<P>/<i>"``, one value in 0..i; positions i and j swap.
Position 0 is the top of the pile. P is ``"<L>.<p>"`` for the p-th pile of the shuffle (0 the top one: a deck
stacked by turn has a pile per turn, each shuffled alone, stacked in order).

K comes from the shuffle's roll (label L, public values v, bound before they existed like any roll):

* an open deck (its order may be known by all once the value is public): K = SHA-256(canonical {"label": L,
  "values": v});
* a hidden deck: K = HMAC-SHA256(key = S, msg = the same canonical JSON), S the campaign's deck key: the salt of
  a ``secret.sealed`` the bot appended before the roll was bound (its digest is in the chain, S in the private
  store), revealed at the game's end. Nobody can choose the order (S was fixed before v existed, and v is public
  chance); nobody without S can compute it from the log; anyone re-derives it once S is revealed.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from engine import canonical
from engine.chance import derive, registry

# The public value of a shuffle: on a source whose numbers are narrow (its ``span``: the lottery's 1..90), enough of
# them for at least 2^32 outcomes (five on the lottery, about 2^32.5), so an operator cannot pick a key that favours
# one order whatever the draw; elsewhere two values in 1..2^31.
OUTCOMES = 2**32
OTHER_VALUES = (1, 2**31, 2)


def roll_shape(source: str) -> tuple[int, int, int]:
    """(lo, hi, count) of a shuffle's roll on the campaign's source of chance (``book.source``)."""
    named = registry.get(source)
    span = named.span if named is not None else None
    return OTHER_VALUES if span is None else (1, span, numbers_for(span))


def numbers_for(span: int) -> int:
    """How many numbers of 1..``span`` make at least OUTCOMES outcomes (counted exactly, in whole numbers)."""
    if span < 2:
        raise ValueError(f"a source's span is at least 2 numbers, not {span}")
    count = 1
    while span**count < OUTCOMES:
        count += 1
    return count


def shuffle_key(label: str, values: Sequence[int], deck_key: str | None) -> bytes:
    """K for the roll ``label`` with public ``values``: keyed by the deck key (hex) when the deck is hidden."""
    message = canonical.dumps({"label": label, "values": list(values)}).encode()
    if deck_key is None:
        return hashlib.sha256(message).digest()
    return hmac.new(bytes.fromhex(deck_key), message, hashlib.sha256).digest()


def permute(cards: Sequence[str], key: bytes, label: str) -> list[str]:
    """``cards`` shuffled (sorted first, so the multiset alone fixes the result): the top first."""
    pile = sorted(cards)
    for i in range(len(pile) - 1, 0, -1):
        j = derive.values(key, f"{label}/{i}", 1, 0, i)[0]
        pile[i], pile[j] = pile[j], pile[i]
    return pile
