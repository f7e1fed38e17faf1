"""drand quicknet, offline: round times, randomness, numbers, and BLS verification of real recorded beacons.

The beacons are real, copied from the tests of noislabs/drand-verify (src/verify.rs): quicknet round 123
(https://api3.drand.sh/52db9ba7…c84e971/public/123), and three rounds of a test network with the same scheme
(bls-unchained-g1-rfc9380, G1/G2 swapped) published by drand's Yolan Romailler.
"""
from __future__ import annotations

import pytest

from engine import drand

ROUND_123 = "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"
RFC_TEST_KEY = (
    "a1ee12542360bf75742bcade13d6134e7d5283d9eb782887c47d3d9725f05805d37b0106b7f744395bf82c175dd7434a169e998f188a657a"
    "030d588892c0cd2c01f996aaf331c4d8bc5b9734bbe261d09e7d2d39ef88b635077f262bd7bbb30f"
)
RFC_TEST_ROUNDS = {
    3: "b98dae74f6a9d2ec79d75ba273dcfda86a45d589412860eb4c0fd056b00654dbf667c1b6884987c9aee0d43f8ba9db52",
    4: "962c2b2969e8f3351cf5cc457b04ecbf0c65bd79f4c1ee3bd0205f581368aaaa0cdeb1531a0709d39ef06a8ba1e1bb93",
    6: "a054dafb27a4a4fb9e06b17b30da3e0c7b13b4ca8e1dec3c6775f81758587029aa358523f2e7e62204018347db7cbd1c",
}


def test_chain_info() -> None:
    assert drand.CHAIN_HASH == "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
    assert drand.PUBLIC_KEY.startswith("83cf0f2896adee7e") and drand.PUBLIC_KEY.endswith("eae8991ef5ece45a")
    assert len(bytes.fromhex(drand.PUBLIC_KEY)) == 96


def test_round_times() -> None:
    assert drand.time_of(1) == 1692803367 and drand.time_of(123) == 1692803367 + 122 * 3
    assert drand.round_at(1692803367) == 1 and drand.round_at(1692803369.9) == 1 and drand.round_at(1692803370) == 2
    assert drand.round_at(1692803366) == 0
    for r in (1, 123, 10_000_000):
        assert drand.round_at(drand.time_of(r)) == r
    with pytest.raises(ValueError):
        drand.time_of(0)


def test_randomness_and_numbers() -> None:
    assert drand.randomness(ROUND_123) == "fb8f7bc29bf24db51871ec8c79f3a1e4bd0557bc0dfcee9ed1d924e69d1c60dc"
    dice = drand.numbers(ROUND_123, "turn 1 siege", 5, 1, 6)
    assert dice == drand.numbers(ROUND_123, "turn 1 siege", 5, 1, 6) and set(dice) <= set(range(1, 7))
    from engine import commit_reveal

    key = bytes.fromhex(drand.randomness(ROUND_123))
    assert dice == commit_reveal.dice(key, "turn 1 siege", 5, 6)  # the same method as commit-reveal


def test_a_real_quicknet_beacon_verifies() -> None:
    assert drand.verify_beacon(123, ROUND_123, drand.PUBLIC_KEY)
    assert drand.verify_beacon(123, ROUND_123)


def test_wrong_round_key_or_signature_fails() -> None:
    assert not drand.verify_beacon(124, ROUND_123)
    assert not drand.verify_beacon(123, ROUND_123, RFC_TEST_KEY)
    assert not drand.verify_beacon(123, RFC_TEST_ROUNDS[3])  # a valid point, but another round's signature
    flipped = ROUND_123[:-2] + f"{int(ROUND_123[-2:], 16) ^ 1:02x}"
    assert not drand.verify_beacon(123, flipped)
    assert not drand.verify_beacon(123, ROUND_123[:-2])
    assert not drand.verify_beacon(123, "zz" * 48)
    assert not drand.verify_beacon(0, ROUND_123)


@pytest.mark.parametrize("round_number", sorted(RFC_TEST_ROUNDS))
def test_the_scheme_on_another_real_network(round_number: int) -> None:
    assert drand.verify_beacon(round_number, RFC_TEST_ROUNDS[round_number], RFC_TEST_KEY)
