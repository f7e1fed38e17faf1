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


# --- issue 32: the edges of every helper, word for word -----------------------------------------------------------

RANDOMNESS = "ab" * 32


def test_uniform_takes_one_to_2_to_the_32_values_and_no_negative_count() -> None:
    assert cr.uniform(SEED, "x", 0, 1, 6) == []
    assert cr.uniform(SEED, "x", 3, 5, 5) == [5, 5, 5]
    whole = cr.uniform(SEED, "x", 2, 0, 2**32 - 1)  # n = 2**32: every word is kept, as it is
    stream = cr.words(SEED, "x")
    assert whole == [next(stream), next(stream)]
    for low, high in ((0, 2**32), (6, 5)):
        with pytest.raises(ValueError) as refused:
            cr.uniform(SEED, "x", 1, low, high)
        assert str(refused.value) == f"the range {low}..{high} must hold 1 to 2**32 values"
    with pytest.raises(ValueError) as refused:
        cr.uniform(SEED, "x", -1, 1, 6)
    assert str(refused.value) == "count must not be negative"
    with pytest.raises(ValueError) as refused:
        cr.dice(SEED, "x", 1, 0)
    assert str(refused.value) == "a die needs at least one side"
    assert cr.dice(SEED, "x", 2, 1) == [1, 1]


def test_the_stream_is_hmac_of_label_and_counter_read_in_4_byte_words() -> None:
    stream = cr.words(SEED, "lbl")
    first = hmac.new(SEED, b"lbl#0", hashlib.sha256).digest()
    second = hmac.new(SEED, b"lbl#1", hashlib.sha256).digest()
    expected = [int.from_bytes(d[i:i + 4], "big") for d in (first, second) for i in range(0, 32, 4)]
    assert [next(stream) for _ in range(16)] == expected


@pytest.mark.parametrize(("label", "round_number"), [
    ("a@drand:12", "12"), ("a@drand:", None), ("a", None), ("a@drand:x", None), ("a@drand:1@drand:2", "2"),
])
def test_the_round_a_label_is_mixed_with(label: str, round_number: str | None) -> None:
    assert cr.mixing_round(label) == round_number


def test_labels_keys_and_rules() -> None:
    assert cr.with_round("x", "0012") == "x@drand:12" and cr.with_round("x", 7) == "x@drand:7"
    assert cr.key("seed é") == "seed é".encode()
    assert cr.mixed_key(SEED, RANDOMNESS) == hmac.new(SEED, b"drand|" + bytes.fromhex(RANDOMNESS), hashlib.sha256).digest()
    assert [cr.rule_of(c) for c in ({}, {"commit_reveal_rule": 1}, {"commit_reveal_rule": 2},
                                    {"commit_reveal_rule": 3}, {"commit_reveal_rule": True},
                                    {"commit_reveal_rule": "2"})] == [1, 1, 2, 2, 1, 1]


def test_a_labels_values_come_from_the_seed_or_from_the_seed_mixed_with_its_round() -> None:
    beacons = {"12": RANDOMNESS}
    assert cr.label_values(SEED, "a", 2, 1, 6, beacons) == cr.uniform(SEED, "a", 2, 1, 6)
    assert cr.label_values(SEED, "a@drand:13", 2, 1, 6, beacons) is None
    assert cr.label_values(SEED, "a@drand:12", 2, 1, 6, beacons) == \
        cr.uniform(cr.mixed_key(SEED, RANDOMNESS), "a@drand:12", 2, 1, 6)
    assert cr.round_values("a@drand:12", 2, 1, 6, RANDOMNESS) == \
        cr.uniform(bytes.fromhex(RANDOMNESS), "a@drand:12", 2, 1, 6)


def test_why_values_wait_or_are_refused_under_rule_2() -> None:
    beacons = {"12": RANDOMNESS}
    assert cr.waits_for_round("a", {}) is None
    assert cr.waits_for_round("a@drand:12", beacons) is None
    assert cr.waits_for_round("a@drand:13", beacons) == (
        "'a@drand:13' is mixed with drand round 13, whose beacon is not recorded yet: its values cannot exist "
        "before that round")
    right = cr.round_values("a@drand:12", 2, 1, 6, RANDOMNESS)
    assert cr.check_at_once("a@drand:12", right, 2, 1, 6, beacons) is None
    wrong = [right[0] % 6 + 1, right[1]]
    assert cr.check_at_once("a@drand:12", wrong, 2, 1, 6, beacons) == (
        f"'a@drand:12' is recorded as {wrong[0]}, {wrong[1]}, but drand round 12 gives {right[0]}, {right[1]} (the "
        "round's randomness alone is its key): refused")
    assert cr.check_at_once("a", right, 2, 1, 6, beacons) == (
        "'a' is mixed with no drand round: in this campaign every number comes from a drand round (commit_reveal_rule 2)")
    assert cr.check_at_once("a@drand:13", right, 2, 1, 6, beacons) == cr.waits_for_round("a@drand:13", beacons)


def test_a_word_equal_to_the_limit_is_refused() -> None:
    """The first word of "x" is 3878527394. For n = that word (range 0..n-1), 2**32 mod n = 2**32 - n, so the limit
    2**32 - (2**32 mod n) is the word itself: refused (x < limit), and the second word, 1386224700, is the value."""
    stream = cr.words(SEED, "x")
    first, second = next(stream), next(stream)
    assert (first, second) == (3878527394, 1386224700)
    assert cr.uniform(SEED, "x", 1, 0, first - 1) == [second]
