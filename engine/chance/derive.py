"""Values from a public random value (a drand beacon's randomness, a revealed seed): one rule for every game.

For a roll with label L, ``count`` values in lo..hi (n = hi - lo + 1 values) from the key K (the 32 bytes of the
beacon's randomness, or the seed's bytes):
  for counter = 0, 1, 2, ...: digest = HMAC-SHA256(key=K, msg=UTF-8 of f"{L}#{counter}");
  read the digest as eight 4-byte big-endian unsigned integers x, in order;
  keep x only if x < 2**32 - (2**32 mod n) (rejection sampling: no modulo bias); the value is lo + x mod n.
The values of one roll are the successive kept values of that one stream: distinct labels give independent
streams, and nobody can choose a label's values before the key is public.

Worked example (anyone can redo it with ``openssl dgst -sha256 -hmac``): see docs/randomness.md.
"""
from __future__ import annotations

from engine.commit_reveal import uniform


def values(key: bytes, label: str, count: int, lo: int, hi: int) -> list[int]:
    return uniform(key, label, count, lo, hi)
