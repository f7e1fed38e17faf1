"""Benchmark: verify a 15-turn campaign against the public draws, and try every single-number tamper.

    .venv/bin/python bench/verify.py [LOG]

Prints figures; asserts nothing (the tests check correctness). Without LOG it plays the scripted campaign of
tests/bot/campaign_play.py first.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "bot"))

from bot.cli import read_log  # noqa: E402
from bot.service.legatus import DATA_DIR  # noqa: E402
from engine.lotto import parse_archive  # noqa: E402
from engine.rulesets import load_ruleset  # noqa: E402
from engine.verify import verify  # noqa: E402

LOTTO = REPO / "tests" / "data" / "lotto"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if len(sys.argv) > 1:
            log = Path(sys.argv[1])
        else:
            from campaign_play import play_full_campaign

            service, _ = play_full_campaign(Path(tmp) / "bench.db")
            log = Path(tmp) / "bench.log"
            log.write_text(service.export(), encoding="utf-8")
        events = read_log(log)
    ruleset = load_ruleset(str(events[0].data["ruleset"]), DATA_DIR)
    public: dict[str, dict[str, list[int]]] = {}
    for path in sorted(LOTTO.glob("*.txt")):
        for draw in parse_archive(path.read_text(encoding="utf-8")).draws:
            public[draw.date.isoformat()] = {w: list(n) for w, n in draw.numbers.items()}
    samples = []
    for _ in range(10):
        start = time.perf_counter()
        result = verify(ruleset, events, public)
        samples.append(time.perf_counter() - start)
    print(f"verify a {len(events)}-event campaign ({result.rolls} rolls, {result.draws_checked} draws): "
          f"median {statistics.median(samples) * 1000:.1f} ms, min {min(samples) * 1000:.1f} ms; clean: {result.ok}")
    days = sorted({str(e.data["date"]) for e in events if e.kind == "draw.recorded"})
    tried = caught = 0
    start = time.perf_counter()
    for day in days:
        for wheel, numbers in public[day].items():
            for pos in range(5):
                tampered = {d: {w: list(n) for w, n in ws.items()} for d, ws in public.items()}
                tampered[day][wheel][pos] = next(n for n in range(1, 91) if n not in numbers)
                tried += 1
                caught += not verify(ruleset, events, tampered).ok
    print(f"single-number tampers of the {len(days)} recorded draws: {caught} of {tried} caught "
          f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
