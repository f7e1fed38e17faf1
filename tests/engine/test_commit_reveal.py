"""Commit–reveal: pinned vectors (checked by hand from the HMAC digests), rejection, reveal, and a fairness check."""
from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from engine import commit_reveal as cr

SEED = b"legatus test seed 0001"


def test_commitment_and_reveal() -> None:
    assert cr.commitment(SEED) == "fbd2c76fd31ec2b6b18f6122179ed20b23b19ba673abc96d6b6ed8f2b46dcc99"
    assert cr.commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert cr.verify_reveal(SEED, "FBD2C76FD31EC2B6B18F6122179ED20B23B19BA673ABC96D6B6ED8F2B46DCC99")
    assert not cr.verify_reveal(b"legatus test seed 0002", cr.commitment(SEED))


def test_pinned_vectors() -> None:
    assert cr.roll(SEED, "turn 1 siege of Numantia", 1, 90) == 40
    assert cr.dice(SEED, "turn 1 storm", 5, 6) == [1, 1, 3, 3, 4]
    assert cr.dice(SEED, "turn 2 battle", 3, 20) == [18, 16, 12]
    assert cr.roll(SEED, "turn 1 storm", 1, 6) == cr.dice(SEED, "turn 1 storm", 1, 6)[0]


def test_the_method_by_hand() -> None:
    """The documented method, redone from the raw HMAC: 4-byte big-endian words, x mod n, rejection."""
    digest = hmac.new(SEED, b"turn 1 storm#0", hashlib.sha256).hexdigest()
    assert digest == "4bbcf48afa0d52e41b4bed74fac55e1624db29d9476823dd208b9d52ffc24db7"
    assert [int(digest[i:i + 8], 16) % 6 + 1 for i in range(0, 40, 8)] == cr.dice(SEED, "turn 1 storm", 5, 6)
    # A range of 3,000,000,000 refuses words >= 3e9: the first word of 'x#0' (3878527394) is refused.
    words = [int(hmac.new(SEED, b"x#0", hashlib.sha256).hexdigest()[i:i + 8], 16) for i in range(0, 64, 8)]
    assert words[:2] == [3878527394, 1386224700]
    assert cr.roll(SEED, "x", 1, 3_000_000_000) == 1 + 1386224700


def test_the_stream_runs_on_past_one_digest() -> None:
    many = cr.dice(SEED, "long", 20, 6)  # 20 dice need at least three digests (eight words each)
    assert len(many) == 20 and set(many) <= set(range(1, 7))
    assert many[:8] == cr.dice(SEED, "long", 8, 6)


def test_bad_ranges() -> None:
    with pytest.raises(ValueError):
        cr.roll(SEED, "x", 5, 4)
    with pytest.raises(ValueError):
        cr.dice(SEED, "x", 1, 0)
    assert cr.roll(SEED, "x", 7, 7) == 7


def test_ten_thousand_d6_are_fair_enough() -> None:
    faces = Counter(cr.dice(SEED, "fairness", 10_000, 6))
    assert set(faces) == set(range(1, 7))
    assert all(1500 <= count <= 1850 for count in faces.values()), faces
