"""drand quicknet, offline: round times, binding, randomness, numbers, and BLS verification of real recorded beacons.

The quicknet beacons and chain info are real (tests/engine/chance/data/quicknet_recorded.json says where each was
copied from); a genuine one is recognisable because it verifies under the pinned key. The "RFC test" rounds are
three rounds of a test network with the same scheme (bls-unchained-g1-rfc9380) published by drand's Yolan
Romailler, copied from the tests of noislabs/drand-verify (src/verify.rs).
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pyblst
import pytest

from engine import commit_reveal
from engine.chance import drand

RECORDED = json.loads((Path(__file__).parent / "data" / "quicknet_recorded.json").read_text())
BEACONS = {b["round"]: b for b in RECORDED["beacons"]}
ROUND_123 = BEACONS[123]["signature"]
RFC_TEST_KEY = (
    "a1ee12542360bf75742bcade13d6134e7d5283d9eb782887c47d3d9725f05805d37b0106b7f744395bf82c175dd7434a169e998f188a657a"
    "030d588892c0cd2c01f996aaf331c4d8bc5b9734bbe261d09e7d2d39ef88b635077f262bd7bbb30f"
)
RFC_TEST_ROUNDS = {
    3: "b98dae74f6a9d2ec79d75ba273dcfda86a45d589412860eb4c0fd056b00654dbf667c1b6884987c9aee0d43f8ba9db52",
    4: "962c2b2969e8f3351cf5cc457b04ecbf0c65bd79f4c1ee3bd0205f581368aaaa0cdeb1531a0709d39ef06a8ba1e1bb93",
    6: "a054dafb27a4a4fb9e06b17b30da3e0c7b13b4ca8e1dec3c6775f81758587029aa358523f2e7e62204018347db7cbd1c",
}
RFC_TEST_CHAIN = drand.Chain("rfc test", "00" * 32, RFC_TEST_KEY, genesis=1_000_000_000, period=3)


def test_pinned_quicknet_constants() -> None:
    q = drand.QUICKNET
    assert q.hash == "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
    assert q.public_key.startswith("83cf0f2896adee7e") and q.public_key.endswith("eae8991ef5ece45a")
    assert len(bytes.fromhex(q.public_key)) == 96
    assert (q.genesis, q.period, q.scheme) == (1692803367, 3, "bls-unchained-g1-rfc9380")
    assert drand.DST == b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"


def test_the_real_chain_info_matches_the_pins() -> None:
    assert drand.QUICKNET.info_problems(RECORDED["info"]) == []
    upper = {**RECORDED["info"], "public_key": RECORDED["info"]["public_key"].upper()}
    assert drand.QUICKNET.info_problems(upper) == []  # hex case is not a difference


@pytest.mark.parametrize("field, value, says", [
    ("hash", "dbd506d6ef76e5f386f41c651dcb808c5bcbd75471cc4eafa3f4df7ad4e4c493", "hash is 'dbd506d6ef"),
    ("public_key", RFC_TEST_KEY, "public_key is 'a1ee12542360"),
    ("genesis_time", 1692803368, "genesis_time is 1692803368, expected 1692803367"),
    ("period", 30, "period is 30, expected 3"),
    ("period", "3", "period is '3', expected 3"),
    ("schemeID", "pedersen-bls-chained", "schemeID is 'pedersen-bls-chained'"),
    ("schemeID", None, "schemeID is None"),
])
def test_chain_info_that_differs_is_named(field: str, value: object, says: str) -> None:
    info = {**RECORDED["info"], field: value}
    if value is None:
        del info[field]
    problems = drand.QUICKNET.info_problems(info)
    assert len(problems) == 1 and problems[0].startswith(says), problems


def test_chain_info_that_is_not_an_object() -> None:
    assert drand.QUICKNET.info_problems(["quicknet"]) == ["chain info is not a JSON object but ['quicknet']"]


def test_round_times() -> None:
    assert drand.time_of(1) == 1692803367 and drand.time_of(123) == 1692803367 + 122 * 3
    assert drand.round_at(1692803367) == 1 and drand.round_at(1692803369.9) == 1 and drand.round_at(1692803370) == 2
    assert drand.round_at(1692803366) == 0
    for r in (1, 123, 10_000_000):
        assert drand.round_at(drand.time_of(r)) == r
    with pytest.raises(ValueError, match="drand rounds start at 1, not 0"):
        drand.time_of(0)


def test_a_roll_is_bound_to_the_first_round_after_its_announcement() -> None:
    t123 = drand.time_of(123)
    assert drand.bind_round(t123) == 124  # round 123 exists at that instant: it cannot be the one
    assert drand.bind_round(t123 - 0.001) == 123
    assert drand.bind_round(t123 + 2.999) == 124
    assert drand.bind_round(t123, margin=3) == 125 and drand.bind_round(t123, margin=2.5) == 124
    assert drand.bind_round(0) == 1
    for now in (t123, t123 + 0.5, t123 + 1.7, 1_800_000_000.25):
        bound = drand.bind_round(now, margin=10)
        assert drand.time_of(bound) > now + 10 >= drand.time_of(bound) - drand.PERIOD
    with pytest.raises(ValueError):
        drand.bind_round(t123, margin=-1)


def test_other_chains_have_their_own_times() -> None:
    assert RFC_TEST_CHAIN.time_of(4) == 1_000_000_009 and RFC_TEST_CHAIN.round_at(1_000_000_009) == 4
    assert drand.bind_round(1_000_000_009, RFC_TEST_CHAIN) == 5


@pytest.mark.parametrize("round_number", sorted(BEACONS))
def test_real_quicknet_beacons_verify(round_number: int) -> None:
    recorded = BEACONS[round_number]
    beacon = drand.check_beacon(round_number, recorded["signature"])
    assert beacon == drand.Beacon(round_number, recorded["signature"], recorded["randomness"])
    assert drand.verify_beacon(round_number, recorded["signature"], drand.PUBLIC_KEY)
    assert drand.check_beacon(round_number, recorded["signature"].upper()) == beacon  # hex case is no difference


def test_randomness_is_sha256_of_the_signature() -> None:
    assert drand.randomness(ROUND_123) == "fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc"
    assert drand.randomness(ROUND_123) == hashlib.sha256(bytes.fromhex(ROUND_123)).hexdigest()


@pytest.mark.parametrize("round_number, signature, says", [
    (124, ROUND_123, "the signature of round 124 does not verify under quicknet's public key"),
    (123, BEACONS[3]["signature"], "the signature of round 123 does not verify"),  # a valid point, another round
    (123, ROUND_123[:-2] + f"{int(ROUND_123[-2:], 16) ^ 1:02x}", "is not a point of G1"),
    (123, ROUND_123[:-2], "is not a 48-byte compressed G1 point"),
    (123, "zz" * 48, "is not hex"),
    (123, "c0" + "00" * 47, "is not a 48-byte compressed G1 point"),  # the point at infinity
    (0, ROUND_123, "round 0 is not a drand round"),
    (True, ROUND_123, "round True is not a drand round"),
])
def test_a_wrong_round_or_signature_is_refused_with_the_reason(round_number: int, signature: str, says: str) -> None:
    with pytest.raises(drand.BadBeacon, match=says.replace("(", r"\(")):
        drand.check_beacon(round_number, signature)
    assert not drand.verify_beacon(round_number, signature)


def test_a_signature_off_the_prime_order_subgroup_is_refused() -> None:
    off_subgroup = _curve_point_outside_subgroup()
    with pytest.raises(drand.BadBeacon, match="is not a point of G1"):
        drand.check_beacon(123, off_subgroup)


def _curve_point_outside_subgroup() -> str:
    """The compressed encoding of the first x >= 1 for which x^3 + 4 is a square: on the curve, off the subgroup."""
    q = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
    x = 1
    while pow(x**3 + 4, (q - 1) // 2, q) != 1:
        x += 1
    y = pow(x**3 + 4, (q + 1) // 4, q)
    flags = 0x80 | (0x20 if y > q - y else 0)  # compressed, and which of y / -y
    raw = bytearray(x.to_bytes(48, "big"))
    raw[0] |= flags
    return raw.hex()


def test_a_wrong_key_is_refused() -> None:
    assert not drand.verify_beacon(123, ROUND_123, RFC_TEST_KEY)
    assert not drand.verify_beacon(123, ROUND_123, "zz" * 96)
    assert not drand.verify_beacon(123, ROUND_123, RFC_TEST_KEY[:-2])
    assert not drand.verify_beacon(123, ROUND_123, "c0" + "00" * 95)  # the point at infinity


@pytest.mark.parametrize("round_number", sorted(RFC_TEST_ROUNDS))
def test_the_scheme_on_another_real_network(round_number: int) -> None:
    assert drand.verify_beacon(round_number, RFC_TEST_ROUNDS[round_number], RFC_TEST_KEY)
    beacon = drand.check_beacon(round_number, RFC_TEST_ROUNDS[round_number], RFC_TEST_CHAIN)
    assert beacon.randomness == drand.randomness(RFC_TEST_ROUNDS[round_number])
    with pytest.raises(drand.BadBeacon, match="under rfc test's public key"):
        drand.check_beacon(round_number + 1, RFC_TEST_ROUNDS[round_number], RFC_TEST_CHAIN)


def test_a_key_made_here_signs_what_blst_verifies() -> None:
    # What the relay tests rely on: a G1 signature sk * H(m) made with blst checks under sk * g2.
    secret = 0x1234_5678_9ABC_DEF0_1357_9BDF
    key = pyblst.BlstP2Element.uncompress(bytes.fromhex(drand.G2_GENERATOR)).scalar_mul(secret).compress().hex()
    chain = drand.Chain("made here", "11" * 32, key, genesis=1_700_000_000, period=3)
    for r in (1, 2, 99):
        signature = pyblst.BlstP1Element.hash_to_group(drand.message(r), drand.DST).scalar_mul(secret).compress()
        assert drand.check_beacon(r, signature.hex(), chain).round == r
        assert not drand.verify_beacon(r + 1, signature.hex(), key)


def test_the_worked_example_of_the_docstring() -> None:
    randomness = drand.randomness(ROUND_123)
    assert randomness == BEACONS[123]["randomness"]
    assert drand.dice(randomness, "siege of Numantia, turn 3", 3, 6) == [4, 1, 1]
    assert "= 4, 1, 1" in (drand.__doc__ or "") and randomness in (drand.__doc__ or "")


def test_numbers_are_the_commit_reveal_method_keyed_by_the_randomness() -> None:
    randomness = BEACONS[123]["randomness"]
    dice = drand.dice(randomness, "turn 1 siege", 5, 6)
    assert dice == drand.numbers(randomness, "turn 1 siege", 5, 1, 6)
    assert dice == commit_reveal.dice(bytes.fromhex(randomness), "turn 1 siege", 5, 6)
    assert drand.numbers(randomness, "turn 1 siege", 2, 1, 6) == dice[:2]  # more dice extend the same stream
    assert drand.numbers(randomness, "turn 1 siege", 1, -3, -3) == [-3]


def test_numbers_refuse_a_signature_or_a_bad_range() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        drand.numbers(ROUND_123, "x", 1, 1, 6)  # the signature, not its randomness
    with pytest.raises(ValueError, match="not hex"):
        drand.numbers("xyz", "x", 1, 1, 6)
    with pytest.raises(ValueError, match="must hold 1 to 2\\*\\*32 values"):
        drand.numbers(BEACONS[123]["randomness"], "x", 1, 6, 1)
    with pytest.raises(ValueError, match="at least one side"):
        drand.dice(BEACONS[123]["randomness"], "x", 1, 0)


def test_dice_from_many_beacons_and_labels_are_uniform() -> None:
    # 6 real beacons x 500 labels x 4 dice = 12,000 d6: a chi-square with 5 degrees of freedom above 20.5
    # happens by chance once in a thousand; biased derivations (e.g. a byte mod 6) exceed it by far.
    counts: Counter[int] = Counter()
    for beacon in RECORDED["beacons"]:
        for i in range(500):
            counts.update(drand.dice(beacon["randomness"], f"battle {i}", 4, 6))
    expected = 12_000 / 6
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == set(range(1, 7)) and chi_square < 20.5, counts
    # Different labels and different beacons give different streams.
    assert drand.dice(BEACONS[1]["randomness"], "a", 8, 6) != drand.dice(BEACONS[1]["randomness"], "b", 8, 6)
    assert drand.dice(BEACONS[1]["randomness"], "a", 8, 6) != drand.dice(BEACONS[2]["randomness"], "a", 8, 6)


def test_a_large_range_is_unbiased_by_rejection() -> None:
    # With n = 3 * 2**30 values, a plain modulo would make low..2**30 twice as likely; rejection sampling keeps
    # each quarter of the range equally likely.
    randomness = BEACONS[123]["randomness"]
    n = 3 * 2**30
    values = drand.numbers(randomness, "big range", 3000, 0, n - 1)
    thirds = Counter(v * 3 // n for v in values)
    assert all(850 < thirds[k] < 1150 for k in range(3)), thirds
