"""A trading window under load: Market Day (tests/games/market_day) through the service on a SQLite file, its
three seats making N offers (default 200) and answering each (accept or decline, in turn), one post each. Prints
the p50/p99 time of one post, offers and answers apart, and how the last 50 compare with the first 50 (a post's
cost must not grow with the window's offers).

    python bench/trading_window.py [OFFERS]
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["LEGATUS_RULESETS"] = "market-day=tests.games.market_day:load"

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from tests.fixture_paths import REPO  # noqa: E402

PLAYERS = {"North": "ann", "South": "bob", "East": "cat"}


def quantile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def offer_and_answer(service: Legatus, campaign: str, players: dict[str, str], offers: int, swap: str,
                     who: str) -> None:
    """``offers`` offers, each from a seat to the next in turn and answered by it (accept and decline in turn), one
    post each, timed through the service; prints p50/p99/max of each, and the first and last 50 pairs' means."""
    users, seats = list(players.values()), list(players)
    offer_times, answer_times = [], []
    for i in range(offers):
        by, to = i % len(seats), (i + 1) % len(seats)
        started = time.perf_counter()
        reply = service.post(users[by], f"offer {swap} to {seats[to]}", campaign)
        offer_times.append(time.perf_counter() - started)
        assert reply.ok, reply.render()
        started = time.perf_counter()
        reply = service.post(users[to], f"{'accept' if i % 2 else 'decline'} {i + 1}", campaign)
        answer_times.append(time.perf_counter() - started)
        assert reply.ok, reply.render()
    for name, times in (("offer", offer_times), ("answer", answer_times)):
        print(f"{name}: p50 {statistics.median(times) * 1000:.0f} ms, p99 {quantile(times, 0.99) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms")
    both = [a + b for a, b in zip(offer_times, answer_times)]
    print(f"{offers} offers and answers{who}: first 50 pairs mean {statistics.mean(both[:50]) * 1000:.0f} ms, "
          f"last 50 {statistics.mean(both[-50:]) * 1000:.0f} ms")


def main() -> None:
    offers = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    from datetime import datetime, timezone

    with tempfile.TemporaryDirectory() as folder:
        service = Legatus(open_engine(Path(folder) / "bench.db"),
                          clock=FixedClock(datetime(2026, 11, 1, 12, tzinfo=timezone.utc)))
        service.import_draws((REPO / "tests" / "data" / "lotto" / "draws-2023-01.txt").read_text(encoding="utf-8"),
                             "draws-2023-01.txt")
        service.create_campaign("market", "market-day", "gm", PLAYERS, randomness="lottery")
        service.post("ann", "/status", "market")  # the deck key sealed, the goods dealt
        assert service.summary("market").phase == "market", service.status("market")
        offer_and_answer(service, "market", PLAYERS, offers, "1 money for 1 money", "")


if __name__ == "__main__":
    main()
