"""The drand source's beacon record (engine/chance/sources/drand.py ``record_beacon``): only a round number with
64 lowercase hex digits is kept; anything else is refused whole and leaves the beacons as they were."""
from __future__ import annotations

import pytest

from engine.chance.sources import drand
from engine.events import Rejection

RANDOMNESS = "0123456789abcdef" * 4


@pytest.mark.parametrize("wrong", ["X", "g", "A", " "])
def test_randomness_with_one_digit_that_is_not_lowercase_hex_is_refused(wrong: str) -> None:
    beacons = {"7": RANDOMNESS}
    with pytest.raises(Rejection) as refused:
        drand.record_beacon(beacons, {"round": 9, "randomness": RANDOMNESS[:63] + wrong})
    assert refused.value.reason == "beacon.recorded needs a round number and its randomness (64 lowercase hex digits)"
    assert beacons == {"7": RANDOMNESS}


def test_every_lowercase_hex_digit_is_kept_under_its_round() -> None:
    beacons: dict[str, str] = {}
    drand.record_beacon(beacons, {"round": 9, "randomness": RANDOMNESS})
    drand.record_beacon(beacons, {"round": "9", "randomness": RANDOMNESS})  # the same beacon again: no change
    assert beacons == {"9": RANDOMNESS}
