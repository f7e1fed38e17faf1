"""Benchmark: verify drand quicknet beacons offline (BLS with blst), derive dice from them, commit-reveal rolls, and
the check of a rule-2 commit-reveal number against its round.

    .venv/bin/python bench/randomness.py [--rounds N] [--dice N] [--rolls N]

Targets: one verification <= 5 ms, 1,000 verifications <= 5 s; verify's own check of a recorded beacon (the pinned
chain, the signature, the randomness) costs the same. The verification loops cycle through the real
recorded quicknet beacons (tests/engine/chance/data/quicknet_recorded.json): the cost of a BLS verification does
not depend on the round. Prints figures, and whether each target is met; asserts only that every verification
succeeds. Finishes in a few seconds with the defaults.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import commit_reveal  # noqa: E402
from engine.chance import drand  # noqa: E402
from engine.verify import beacon_checker  # noqa: E402

RECORDED = ROOT / "tests" / "engine" / "chance" / "data" / "quicknet_recorded.json"


def verdict(spent: float, target: float) -> str:
    return "within target" if spent <= target else "OVER TARGET"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=1000, help="BLS verifications to time")
    p.add_argument("--dice", type=int, default=10_000, help="d6 to derive from one beacon")
    p.add_argument("--rolls", type=int, default=1000, help="commit-reveal rolls (2d6 each)")
    args = p.parse_args()
    beacons = [(b["round"], b["signature"]) for b in json.loads(RECORDED.read_text())["beacons"]]

    drand.check_beacon(*beacons[0])  # warm up: the public key is parsed and cached once
    singles = []
    for round_number, signature in beacons * 4:  # the median of single timings: robust to a busy machine
        start = time.perf_counter()
        drand.check_beacon(round_number, signature)
        singles.append(time.perf_counter() - start)
    one = statistics.median(singles)
    print(f"drand: one quicknet beacon verified in {one * 1000:.2f} ms (median of {len(singles)}; "
          f"target 5 ms: {verdict(one, 0.005)})")

    start = time.perf_counter()
    for i in range(args.rounds):
        round_number, signature = beacons[i % len(beacons)]
        drand.check_beacon(round_number, signature)
    spent = time.perf_counter() - start
    print(f"drand: {args.rounds} verifications in {spent:.2f} s ({spent / max(args.rounds, 1) * 1000:.2f} ms each; "
          f"target 5 s for 1,000: {verdict(spent * 1000 / max(args.rounds, 1), 5.0)})")

    # What `legatus verify` runs for each beacon.recorded: the pinned chain (quicknet), the signature, the randomness.
    check = beacon_checker([])
    recorded = [{"round": r, "signature": sig, "randomness": drand.randomness(sig)} for r, sig in beacons]
    start = time.perf_counter()
    for i in range(args.rounds):
        assert check(recorded[i % len(recorded)]) is None
    spent = time.perf_counter() - start
    print(f"verify: {args.rounds} recorded beacons checked against the pinned chain in {spent:.2f} s "
          f"({spent / max(args.rounds, 1) * 1000:.2f} ms each)")

    randomness = drand.randomness(beacons[0][1])
    start = time.perf_counter()
    per_label = 10
    for i in range(args.dice // per_label):
        drand.dice(randomness, f"battle {i}", per_label, 6)
    spent = time.perf_counter() - start
    print(f"drand dice: {args.dice} d6 from one beacon ({per_label} per label) in {spent * 1000:.1f} ms")

    seed = b"bench seed"
    start = time.perf_counter()
    for i in range(args.rolls):
        commit_reveal.dice(seed, f"turn {i // 10} roll {i}", 2, 6)
    spent = time.perf_counter() - start
    print(f"commit-reveal: {args.rolls} rolls (2d6 each) in {spent * 1000:.1f} ms "
          f"({spent / max(args.rolls, 1) * 1e6:.1f} us each)")

    # Rule 2: the game checks each recorded number against its round as it takes it (engine/commit_reveal.py).
    beacon = {"1": randomness}
    recorded = [(f"turn {i // 10} roll {i}@drand:1", commit_reveal.round_values(f"turn {i // 10} roll {i}@drand:1", 1,
                                                                              1, 90, randomness)) for i in range(args.rolls)]
    start = time.perf_counter()
    for label, values in recorded:
        assert commit_reveal.check_at_once(label, values, 1, 1, 90, beacon) is None
    spent = time.perf_counter() - start
    print(f"commit-reveal rule 2: {args.rolls} recorded numbers checked against their round in {spent * 1000:.1f} ms "
          f"({spent / max(args.rolls, 1) * 1e6:.1f} us each)")


if __name__ == "__main__":
    main()
