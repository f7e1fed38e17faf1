"""Benchmark: verify drand quicknet beacons offline (BLS in pure Python), and derive commit-reveal rolls.

    .venv/bin/python bench/randomness.py [--rounds N] [--rolls N]

Only one real quicknet beacon is pinned in the tests (round 123), so the verification loop checks that
beacon N times: the cost of a BLS verification does not depend on which round it is. Prints figures; asserts
only that every verification succeeds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import commit_reveal, drand  # noqa: E402

ROUND, SIGNATURE = 123, "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=1000)
    p.add_argument("--rolls", type=int, default=1000)
    args = p.parse_args()

    assert drand.verify_beacon(ROUND, SIGNATURE)  # warm up: imports and caches out of the timing
    start = time.perf_counter()
    for _ in range(args.rounds):
        assert drand.verify_beacon(ROUND, SIGNATURE)
    spent = time.perf_counter() - start
    print(f"drand: {args.rounds} BLS verifications in {spent:.1f} s ({spent / args.rounds * 1000:.0f} ms each, py_ecc)")

    seed = b"bench seed"
    start = time.perf_counter()
    for i in range(args.rolls):
        commit_reveal.dice(seed, f"turn {i // 10} roll {i}", 2, 6)
    spent = time.perf_counter() - start
    print(f"commit-reveal: {args.rolls} rolls (2d6 each) in {spent * 1000:.1f} ms ({spent / args.rolls * 1e6:.1f} us each)")
    start = time.perf_counter()
    for i in range(args.rolls):
        drand.numbers(SIGNATURE, f"roll {i}", 2, 1, 6)
    spent = time.perf_counter() - start
    print(f"drand numbers: {args.rolls} rolls (2d6 each) from a beacon in {spent * 1000:.1f} ms")


if __name__ == "__main__":
    main()
