"""Benchmark: the resident memory of one bot process holding many campaigns' folds (no Discord).

    .venv/bin/python bench/memory.py [--campaigns 1000]

Creates the campaigns in one service on one SQLite file, opens turn 1 in each on the real draws, and folds each
(the service keeps every fold in memory, as the bot does). Prints the process's RSS (VmRSS) before and after, and
per campaign. Target: 1,000 campaigns in 200 MB. Asserts nothing.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import long_campaigns as lc  # noqa: E402

TARGET_MB = 200.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service = lc.new_service(folder / "memory.db", lc.DATA_DIR)
        day = lc.turn_days(service)[0]
        service.state  # noqa: B018  (the service and its rules loaded)
        base = rss_mb()
        started = time.perf_counter()
        for i in range(args.campaigns):
            name = f"m{i}"
            lc.create(service, name)
            service.post("gm", f"/turn open {day}", name)
        for i in range(args.campaigns):
            service.folded(f"m{i}")
        folds = len(service._folds)  # noqa: SLF001  (what the process holds)
        after = rss_mb()
        print(f"{args.campaigns} campaigns created, turn 1 opened and folded in {time.perf_counter() - started:.0f} s; "
              f"{folds} folds held in memory")
        print(f"RSS: {base:.0f} MB with the service loaded, {after:.0f} MB with the campaigns "
              f"({(after - base) * 1024 / max(1, args.campaigns):.0f} KB a campaign)")
        print(f"target <= {TARGET_MB:.0f} MB: {'met' if after <= TARGET_MB else 'NOT met'}")


if __name__ == "__main__":
    main()
