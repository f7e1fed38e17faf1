"""Commit–reveal randomness: the bot commits to a secret seed before the first roll and reveals it at the end.

Before any roll the bot publishes ``commitment(seed)`` = SHA-256(seed), hex. Every roll is named by a label
(e.g. "turn 3 siege of Numantia") and derived from HMAC-SHA256(seed, label) alone, so once the seed is
revealed anyone can check it matches the commitment and recompute every roll.

The method, for a roll in low..high (n = high - low + 1 values):
  for counter = 0, 1, 2, ...: digest = HMAC-SHA256(key=seed, msg=UTF-8 of f"{label}#{counter}");
  read the digest as eight 4-byte big-endian unsigned integers x, in order;
  accept x only if x < 2**32 - (2**32 mod n) (rejection sampling: no modulo bias), giving low + x mod n.
Several dice under one label are the successive accepted values of that one stream, so ``roll(seed, label,
1, 6)`` is the first die of ``dice(seed, label, count, 6)``.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

SPACE = 2**32


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def verify_reveal(seed: bytes, commitment_hex: str) -> bool:
    return hmac.compare_digest(commitment(seed), commitment_hex.strip().lower())


def words(key: bytes, label: str) -> Iterator[int]:
    """The endless stream of 4-byte big-endian integers HMAC(key, 'label#0'), HMAC(key, 'label#1'), ..."""
    counter = 0
    while True:
        digest = hmac.new(key, f"{label}#{counter}".encode(), hashlib.sha256).digest()
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i:i + 4], "big")
        counter += 1


def uniform(key: bytes, label: str, count: int, low: int, high: int) -> list[int]:
    """``count`` unbiased integers in low..high from the stream of ``label``."""
    n = high - low + 1
    if n < 1 or n > SPACE:
        raise ValueError(f"the range {low}..{high} must hold 1 to 2**32 values")
    if count < 0:
        raise ValueError("count must not be negative")
    limit = SPACE - SPACE % n
    out: list[int] = []
    stream = words(key, label)
    while len(out) < count:
        x = next(stream)
        if x < limit:
            out.append(low + x % n)
    return out


def roll(seed: bytes, label: str, low: int, high: int) -> int:
    return uniform(seed, label, 1, low, high)[0]


def dice(seed: bytes, label: str, count: int, sides: int) -> list[int]:
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return uniform(seed, label, count, 1, sides)


def key(seed_text: str) -> bytes:
    """The bytes of a campaign's seed as Legatus stores and reveals it (hex text): its UTF-8, as typed.

    So ``commitment(key(seed))`` is what ``printf %s SEED | sha256sum`` prints.
    """
    return seed_text.encode("utf-8")
