"""Trading in the Mediterranean's trading window under load: six civilizations through the service on a SQLite
file, N offers (default 200) in one live window, each answered (accept or decline, in turn), one post each. Prints
the p50/p99 time of one offer and of one answer (the issue's target: p99 <= 1 s on this machine), and how the last
50 compare with the first 50 (a post's cost must not grow with the window's offers).

    python bench/trading_mediterranean_window.py [OFFERS]
"""
from __future__ import annotations

import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from tests.fixture_paths import REPO  # noqa: E402
from trading_window import offer_and_answer  # noqa: E402  (this script's folder is on the path: the same timing)

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
        offer_and_answer(service, CAMPAIGN, PLAYERS, offers, "1 vp for 1 vp", " by 6 players")


if __name__ == "__main__":
    main()
