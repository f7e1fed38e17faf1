"""Sealed content: what one seat knows now and everyone may check later (sealed orders, bids, a hand).

The public log carries only ``digest(content, salt)``: SHA-256 of the canonical JSON of the content and a salt
the shell drew (so a short content, a bid of 3, cannot be guessed from its digest). The shell keeps the content
and salt in its private store and shows them to their seat only. When the game says the content is due (all
sealed orders are in, a marker is played, the game is over) the shell appends a ``secret.revealed`` event with
the content and the salt, and the ruleset checks them against the digest sealed earlier: whoever holds the log
can then recompute the digest, so nothing sealed can be changed after the fact.
"""
from __future__ import annotations

import hmac
from typing import Any

from engine import canonical
from engine.events import Rejection

REVEALED = "secret.revealed"
# The bot seals content of its own (a stratagem marker drawn): data {"key", "sealed": digest, ...public part}.
SEALED = "secret.sealed"
MIN_SALT_HEX = 32  # 128 bits: a digest of a small content cannot be searched


def digest(content: dict[str, Any], salt: str) -> str:
    return canonical.sha256_hex(canonical.dumps({"content": content, "salt": salt}))


def check(content: Any, salt: Any, sealed: str) -> dict[str, Any]:
    """The content, if it and its salt are the ones sealed as ``sealed``; else a Rejection naming the problem."""
    if not isinstance(content, dict):
        raise Rejection("a revealed secret must be a JSON object")
    if not isinstance(salt, str) or len(salt) < MIN_SALT_HEX or any(c not in "0123456789abcdef" for c in salt):
        raise Rejection(f"a revealed secret needs its salt ({MIN_SALT_HEX}+ lowercase hex digits)")
    if not hmac.compare_digest(digest(content, salt), sealed):
        raise Rejection(f"the revealed content does not match the digest sealed earlier ({sealed[:12]}…): refused")
    return content
