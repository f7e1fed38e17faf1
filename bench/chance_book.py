"""Benchmark: the chance book through its sources (engine/chance/book.py, engine/chance/sources/): what a game pays
after every event (``needs``) and when a public value arrives (``settle``), with many rolls still pending.

    .venv/bin/python bench/chance_book.py [--pending N]

Target: ``needs`` on a book with 1,000 pending rolls <= 2 ms, whatever the source (a game asks after every event);
``ask`` with 5,000 keys already handed out <= 0.1 ms (a used key is looked up, not scanned for: a campaign's 500th
turn asks as cheaply as its first).
Prints figures and whether the target is met; asserts only that every roll settles. Finishes in a few seconds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.chance import book as chance  # noqa: E402
from engine.events import Event  # noqa: E402

DATES = tuple(f"2023-{month:02d}-{day:02d}" for month in range(1, 13) for day in range(1, 29))
RANDOMNESS = "ab" * 32


def verdict(spent: float, target: float) -> str:
    return "within target" if spent <= target else "OVER TARGET"


def pending_book(source: str, pending: int) -> tuple[chance.ChanceBook, Event]:
    book = chance.new_book(source, {})
    offered = Event(seq=1, kind="roll", actor="gm", data={}, draws=(*DATES, "drand:100"))
    for i in range(pending):
        chance.ask(book, offered, f"roll {i}", 1, 6, 2)
    return book, offered


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--pending", type=int, default=1000, help="rolls pending in the book")
    args = p.parse_args()
    for source in ("drand", "commit-reveal", "lottery"):
        book, offered = pending_book(source, args.pending)
        times = []
        for _ in range(20):  # the median: robust to a busy machine
            start = time.perf_counter()
            chance.needs(book)
            times.append(time.perf_counter() - start)
        spent = statistics.median(times)
        print(f"{source}: needs with {args.pending} rolls pending in {spent * 1000:.2f} ms "
              f"(target 2 ms for 1,000: {verdict(spent * 1000 / max(args.pending, 1), 0.002)})")
    for source in ("drand", "lottery"):
        book, offered = pending_book(source, 0)
        many = Event(seq=1, kind="roll", actor="gm", data={},
                     draws=(*DATES, *(f"2024-{m:02d}-{d:02d}" for m in range(1, 13) for d in range(1, 29)), "drand:100"))
        for i in range(5000):
            book.used.append(f"old key {i}")
        times = []
        for i in range(50):
            start = time.perf_counter()
            chance.ask(book, many, f"new roll {i}", 1, 6)
            times.append(time.perf_counter() - start)
        spent = statistics.median(times)
        print(f"{source}: ask with {len(book.used)} keys handed out in {spent * 1000:.3f} ms "
              f"(target 0.1 ms: {verdict(spent, 0.0001)})")
    book, offered = pending_book("drand", args.pending)
    chance.record(book, Event(seq=2, kind="beacon.recorded", actor="bot", data={"round": 100, "randomness": RANDOMNESS}))
    start = time.perf_counter()
    settled = chance.settle(book, offered)
    spent = time.perf_counter() - start
    assert len(settled) == args.pending and not book.pending()
    print(f"drand: {args.pending} rolls of 2d6 settled from one beacon in {spent * 1000:.1f} ms")


if __name__ == "__main__":
    main()
