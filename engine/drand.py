"""drand quicknet: public randomness every 3 seconds, checked offline with the network's public key.

quicknet (League of Entropy mainnet, chain hash 52db9ba7…c84e971) runs the scheme "bls-unchained-g1-rfc9380":
round r is signed with BLS12-381, signatures on G1 (48 bytes compressed), the group public key on G2 (96 bytes);
the signed message is SHA-256 of the round as 8 big-endian bytes (unchained: no previous signature), hashed to
G1 by RFC 9380 with the DST below. The beacon's randomness is SHA-256(signature). Numbers are drawn from that
randomness with the method of engine/commit_reveal.py (HMAC stream, 4-byte words, rejection sampling), keyed by
the randomness instead of a secret seed.

Verification needs a pairing: it uses py_ecc (pure Python, so slow: see bench/randomness.py).
"""
from __future__ import annotations

import hashlib

from engine import commit_reveal

CHAIN_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
PUBLIC_KEY = (
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc2"
    "2b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
)
SCHEME = "bls-unchained-g1-rfc9380"
GENESIS = 1692803367
PERIOD = 3
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"


def round_at(unix_time: float) -> int:
    """The latest round published at that moment (round 1 at genesis; 0 before it)."""
    if unix_time < GENESIS:
        return 0
    return int((unix_time - GENESIS) // PERIOD) + 1


def time_of(round_number: int) -> int:
    if round_number < 1:
        raise ValueError("drand rounds start at 1")
    return GENESIS + (round_number - 1) * PERIOD


def message(round_number: int) -> bytes:
    return hashlib.sha256(round_number.to_bytes(8, "big")).digest()


def randomness(signature_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(signature_hex)).hexdigest()


def numbers(signature_hex: str, label: str, count: int, low: int, high: int) -> list[int]:
    """``count`` unbiased integers in low..high from a beacon, for the use named by ``label``."""
    return commit_reveal.uniform(bytes.fromhex(randomness(signature_hex)), label, count, low, high)


def verify_beacon(round_number: int, signature_hex: str, public_key_hex: str = PUBLIC_KEY) -> bool:
    """True when the signature is the network's BLS signature of that round: e(sig, g2) == e(H(m), pk)."""
    # Imported here: only verification needs the pairing library, and it is slow to import.
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import decompress_G1, decompress_G2
    from py_ecc.optimized_bls12_381 import (
        FQ12, G2, curve_order, final_exponentiate, is_inf, multiply, neg, pairing,
    )

    try:
        signature = bytes.fromhex(signature_hex)
        key = bytes.fromhex(public_key_hex)
    except ValueError:
        return False
    if len(signature) != 48 or len(key) != 96 or round_number < 1:
        return False
    try:
        sig_point = decompress_G1(int.from_bytes(signature, "big"))  # type: ignore[arg-type]
        key_point = decompress_G2((int.from_bytes(key[:48], "big"), int.from_bytes(key[48:], "big")))  # type: ignore[arg-type]
    except (ValueError, AssertionError):
        return False
    if is_inf(sig_point) or is_inf(key_point):
        return False
    # A point off the prime-order subgroup could satisfy the equation for a forged message: refuse it.
    if not is_inf(multiply(sig_point, curve_order)) or not is_inf(multiply(key_point, curve_order)):
        return False
    hashed = hash_to_G1(message(round_number), DST, hashlib.sha256)
    product = pairing(G2, neg(sig_point), final_exponentiate=False) * pairing(key_point, hashed, final_exponentiate=False)
    return final_exponentiate(product) == FQ12.one()
