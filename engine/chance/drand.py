"""drand quicknet: public randomness every 3 seconds, checked offline with the network's public key.

quicknet (League of Entropy mainnet, chain hash 52db9ba7…c84e971) runs the scheme "bls-unchained-g1-rfc9380":
round r is signed with BLS12-381, signatures on G1 (48 bytes compressed), the group public key on G2 (96 bytes);
the signed message is SHA-256 of the round as 8 big-endian bytes (unchained: no previous signature), hashed to
G1 by RFC 9380 with the DST below. The beacon's randomness is SHA-256(signature).

Binding a roll: when a roll is announced at time t, it is bound to ``bind_round(t)``, the first round produced
strictly after t, whose value nobody (the bot included) can know at t. Settling it: fetch that round's signature
(bot/drand/), check it with ``check_beacon`` and derive the dice with ``numbers``/``dice``. Anyone can redo both
offline from the round, the signature and the pinned public key.

Deriving numbers, for a roll named by ``label`` in low..high (n = high - low + 1 values), from the beacon's 32
bytes of randomness R: for counter = 0, 1, 2, ...: digest = HMAC-SHA256(key=R, msg=UTF-8 of f"{label}#{counter}");
read the digest as eight 4-byte big-endian unsigned integers x, in order; accept x only if
x < 2**32 - (2**32 mod n) (rejection sampling, so every value is exactly equally likely), giving low + x mod n.
Several numbers under one label are the successive accepted values of that one stream. It is the method of
engine/commit_reveal.py, keyed by the public randomness instead of a secret seed. Labels must be unique per roll
within a round: two rolls with the same label and round get the same numbers.

Worked example, to recompute by hand: quicknet round 123 has the signature
b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92, so

    $ printf %s b75c69d0…3e0dfc92 | xxd -r -p | sha256sum
    fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc  -        (the randomness R)
    $ printf %s 'siege of Numantia, turn 3#0' | openssl dgst -sha256 -mac HMAC -macopt hexkey:fb8f7bc2…9d1c60dc
    SHA2-256(stdin)= 6f53acf350d44d122eedc2de0fcc316444b075a05d27637f645b5fdce57ad823

and 3d6 under the label "siege of Numantia, turn 3" reads the words 6f53acf3, 50d44d12, 2eedc2de
= 1867754739, 1356090642, 787333854; all are below 2**32 - (2**32 mod 6) = 4294967292, so the dice are
1 + x mod 6 = 4, 1, 1.

Verification uses blst (the audited C library, through the pyblst wheel): about 1 ms a beacon.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

import pyblst

from engine import commit_reveal

SCHEME = "bls-unchained-g1-rfc9380"
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
# The standard generator of G2, compressed (the fixed base point of BLS12-381; pyblst does not export it).
G2_GENERATOR = (
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
)
# Compressed encodings of the point at infinity: a "signature" or key equal to it would make the check trivial.
_G1_INFINITY = bytes([0xC0]) + bytes(47)
_G2_INFINITY = bytes([0xC0]) + bytes(95)


@dataclass(frozen=True)
class Chain:
    """The public facts of a drand chain that a beacon is checked against: pinned, never taken from a relay."""

    name: str
    hash: str
    public_key: str
    genesis: int
    period: int
    scheme: str = SCHEME

    def time_of(self, round_number: int) -> int:
        """Unix time at which the round is produced (round 1 at genesis)."""
        if round_number < 1:
            raise ValueError(f"drand rounds start at 1, not {round_number}")
        return self.genesis + (round_number - 1) * self.period

    def round_at(self, unix_time: float) -> int:
        """The latest round produced at that moment (0 before genesis)."""
        if unix_time < self.genesis:
            return 0
        return int((unix_time - self.genesis) // self.period) + 1

    def info_problems(self, info: object) -> list[str]:
        """What in a relay's /info answer differs from the pinned chain (empty when it matches).

        Only the fields that decide what a valid beacon is are compared: a relay serving another chain under
        this chain's hash must be refused before any of its beacons is used.
        """
        if not isinstance(info, Mapping):
            return [f"chain info is not a JSON object but {_short(info)}"]
        expected = {
            "hash": self.hash, "public_key": self.public_key, "genesis_time": self.genesis,
            "period": self.period, "schemeID": self.scheme,
        }
        problems = []
        for field, want in expected.items():
            got = info.get(field)
            if isinstance(want, str) and isinstance(got, str):
                same = got.lower() == want
            else:
                same = type(got) is type(want) and got == want
            if not same:
                problems.append(f"{field} is {_short(got)}, expected {_short(want)}")
        return problems


QUICKNET = Chain(
    name="quicknet",
    hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    public_key=(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc2"
        "2b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
    ),
    genesis=1692803367,
    period=3,
)
CHAIN_HASH = QUICKNET.hash
PUBLIC_KEY = QUICKNET.public_key
GENESIS = QUICKNET.genesis
PERIOD = QUICKNET.period


def round_at(unix_time: float, chain: Chain = QUICKNET) -> int:
    """The latest round published at that moment (round 1 at genesis; 0 before it)."""
    return chain.round_at(unix_time)


def time_of(round_number: int, chain: Chain = QUICKNET) -> int:
    return chain.time_of(round_number)


def bind_round(now: float, chain: Chain = QUICKNET, margin: float = 0.0) -> int:
    """The first round produced strictly after ``now + margin``: what a roll announced at ``now`` is bound to.

    Its signature does not exist yet at ``now``, so no one can know the roll when it is announced; a margin
    (seconds) leaves room for the announcement to be published before the round can be.
    """
    if margin < 0:
        raise ValueError("the margin must not be negative")
    moment = now + margin
    if moment < chain.genesis:
        return 1
    return chain.round_at(moment) + 1


def message(round_number: int) -> bytes:
    """What the network signs for a round: SHA-256 of the round as 8 big-endian bytes."""
    return hashlib.sha256(round_number.to_bytes(8, "big")).digest()


def randomness(signature_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(signature_hex)).hexdigest()


@dataclass(frozen=True)
class Beacon:
    """A verified beacon: the round, its BLS signature (hex) and its randomness, SHA-256(signature) (hex)."""

    round: int
    signature: str
    randomness: str


class BadBeacon(ValueError):
    """A signature that is not the chain's signature of that round; the message says why, in one line."""


@functools.lru_cache(maxsize=8)
def _public_key(public_key_hex: str) -> pyblst.BlstP2Element:
    # Parsing and the subgroup check of the key cost as much as the rest: do them once per key.
    try:
        raw = bytes.fromhex(public_key_hex)
    except ValueError:
        raise BadBeacon(f"the public key {_short(public_key_hex)} is not hex") from None
    if len(raw) != 96 or raw == _G2_INFINITY:
        raise BadBeacon(f"the public key {_short(public_key_hex)} is not a 96-byte compressed G2 point")
    try:
        return pyblst.BlstP2Element.uncompress(raw)  # also refuses points outside the prime-order subgroup
    except ValueError:
        raise BadBeacon(f"the public key {_short(public_key_hex)} is not a point of G2") from None


_G2 = pyblst.BlstP2Element.uncompress(bytes.fromhex(G2_GENERATOR))


def check_beacon(round_number: int, signature_hex: str, chain: Chain = QUICKNET) -> Beacon:
    """The verified beacon, or BadBeacon: e(signature, g2) must equal e(H(message(round)), public key)."""
    return _check(round_number, signature_hex, chain.public_key, chain.name)


def verify_beacon(round_number: int, signature_hex: str, public_key_hex: str = QUICKNET.public_key) -> bool:
    """True when the signature is the BLS signature of that round under that key."""
    try:
        _check(round_number, signature_hex, public_key_hex, "the given key")
    except BadBeacon:
        return False
    return True


def _check(round_number: int, signature_hex: str, public_key_hex: str, whose: str) -> Beacon:
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise BadBeacon(f"round {round_number!r} is not a drand round (a whole number from 1)")
    if not isinstance(signature_hex, str):
        raise BadBeacon(f"the signature {_short(signature_hex)} is not hex text")
    try:
        signature = bytes.fromhex(signature_hex)
    except ValueError:
        raise BadBeacon(f"the signature {_short(signature_hex)} is not hex") from None
    if len(signature) != 48 or signature == _G1_INFINITY:
        raise BadBeacon(f"the signature {_short(signature_hex)} is not a 48-byte compressed G1 point")
    key = _public_key(public_key_hex.lower())
    try:
        point = pyblst.BlstP1Element.uncompress(signature)  # refuses points off the curve or the subgroup
    except ValueError:
        raise BadBeacon(f"the signature {_short(signature_hex)} is not a point of G1") from None
    hashed = pyblst.BlstP1Element.hash_to_group(message(round_number), DST)
    if not pyblst.final_verify(pyblst.miller_loop(point, _G2), pyblst.miller_loop(hashed, key)):
        raise BadBeacon(f"the signature of round {round_number} does not verify under {whose}'s public key")
    normal = signature.hex()
    return Beacon(round_number, normal, hashlib.sha256(signature).hexdigest())


def _randomness_key(randomness_hex: str) -> bytes:
    try:
        key = bytes.fromhex(randomness_hex)
    except ValueError:
        raise ValueError(f"the randomness {_short(randomness_hex)} is not hex") from None
    if len(key) != 32:
        # A signature (48 bytes) passed by mistake would give other numbers than anyone re-checking expects.
        raise ValueError(f"the randomness must be 32 bytes (64 hex digits), not {len(key)} bytes: "
                         "pass the beacon's randomness, SHA-256 of its signature")
    return key


def numbers(randomness_hex: str, label: str, count: int, low: int, high: int) -> list[int]:
    """``count`` unbiased integers in low..high from a beacon's randomness, for the roll named by ``label``."""
    return commit_reveal.uniform(_randomness_key(randomness_hex), label, count, low, high)


def dice(randomness_hex: str, label: str, count: int, sides: int) -> list[int]:
    """``count`` dice of ``sides`` faces: ``numbers(randomness, label, count, 1, sides)``."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return numbers(randomness_hex, label, count, 1, sides)


def _short(value: object, limit: int = 24) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
