"""Posts under load: N processes (default 8) × M posts (default 15) on one SQLite file, each post a GM roll
appending events. Prints the failures (must be 0), the events gained (must be N × M rolls) and the p50/p99 time
of one post.

    python bench/concurrency.py [PROCESSES] [POSTS]
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot.inputs.concurrent_posts import run, setup  # noqa: E402


def main() -> None:
    processes = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    posts = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        setup(db)
        started = time.perf_counter()
        results = run(db, processes, posts)
        wall = time.perf_counter() - started
    times = sorted(t for _, _, t in results)
    failed = sum(1 for ok, _, _ in results if not ok)
    p50 = statistics.median(times)
    p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
    print(f"{processes} processes x {posts} posts on one SQLite file: {len(results)} posts, {failed} failed, "
          f"wall {wall:.1f}s")
    print(f"one post: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
