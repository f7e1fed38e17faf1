"""Trading in the Mediterranean's trading window under load: six civilizations through the service on a SQLite
file, N offers (default 200) in one live window, each answered (accept or decline, in turn), one post each. Prints
the p50/p99 time of one offer and of one answer (the issue's target: p99 <= 1 s on this machine), and how the last
50 compare with the first 50 (a post's cost must not grow with the window's offers).

    python bench/trading_mediterranean_window.py [OFFERS]
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from tests.fixture_paths import REPO  # noqa: E402
from trading_window import quantile  # noqa: E402  (this script's folder is on the path: the same quantile)

PLAYERS = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan", "Eve": "eve", "Fay": "fay"}
CAMPAIGN = "trading"


def main() -> None:
    offers = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with tempfile.TemporaryDirectory() as folder:
        service = Legatus(open_engine(Path(folder) / "bench.db"),
                          clock=FixedClock(datetime(2026, 11, 1, 12, tzinfo=timezone.utc)))
        service.import_draws((REPO / "tests" / "data" / "lotto" / "draws-2023-01.txt").read_text(encoding="utf-8"),
                             "draws-2023-01.txt")
        created = service.create_campaign(CAMPAIGN, "trading-mediterranean", "gm", PLAYERS, randomness="lottery",
                                          options=["live"])
        assert created.changed, created.render()
        for _ in range(20):  # the deck key sealed, the twelve decks shuffled on January 2023's draws, the goods dealt
            service.post("ann", "/status", CAMPAIGN)
            if service.summary(CAMPAIGN).phase == "civic":
                break
        assert service.summary(CAMPAIGN).phase == "civic", service.status(CAMPAIGN)
        for user in PLAYERS.values():
            assert service.post(user, "done", CAMPAIGN).ok
        assert service.summary(CAMPAIGN).phase == "trading", service.status(CAMPAIGN)
        users, seats = list(PLAYERS.values()), list(PLAYERS)
        offer_times, answer_times = [], []
        for i in range(offers):
            by, to = i % 6, (i + 1) % 6
            started = time.perf_counter()
            reply = service.post(users[by], f"offer 1 vp for 1 vp to {seats[to]}", CAMPAIGN)
            offer_times.append(time.perf_counter() - started)
            assert reply.ok, reply.render()
            started = time.perf_counter()
            reply = service.post(users[to], f"{'accept' if i % 2 else 'decline'} {i + 1}", CAMPAIGN)
            answer_times.append(time.perf_counter() - started)
            assert reply.ok, reply.render()
    for name, times in (("offer", offer_times), ("answer", answer_times)):
        print(f"{name}: p50 {statistics.median(times) * 1000:.0f} ms, p99 {quantile(times, 0.99) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms")
    both = [a + b for a, b in zip(offer_times, answer_times)]
    print(f"{offers} offers and answers by 6 players: first 50 pairs mean {statistics.mean(both[:50]) * 1000:.0f} ms, "
          f"last 50 {statistics.mean(both[-50:]) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
