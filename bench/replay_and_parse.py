"""Benchmark: replay a 15-turn campaign log, and parse 10,000 order lines. Prints figures; asserts nothing.

    .venv/bin/python bench/replay_and_parse.py [LOG]

Without LOG it plays the scripted campaign of tests/bot/campaign_play.py on the real 2023 and 2026 draws
into a temporary database first, then exports its log.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.cli import read_log  # noqa: E402
from bot.service.legatus import DATA_DIR  # noqa: E402
from engine.log import replay  # noqa: E402
from engine.mare_nostrum.parse import parse_post  # noqa: E402
from engine.rulesets import load_ruleset  # noqa: E402


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def report(label: str, samples: list[float], unit: str = "ms") -> None:
    scale = 1000.0
    print(
        f"{label}: median {statistics.median(samples) * scale:.1f} {unit}, "
        f"min {min(samples) * scale:.1f} {unit}, max {max(samples) * scale:.1f} {unit} ({len(samples)} runs)"
    )


def make_log(tmp: Path) -> Path:
    sys.path.insert(0, str(REPO / "tests" / "bot"))
    from tests.bot.campaign_play import play_full_campaign  # type: ignore[import-not-found]

    service, _ = play_full_campaign(tmp / "bench.db")
    log = tmp / "bench.log"
    log.write_text(service.export(), encoding="utf-8")
    return log


def main() -> None:
    with tempfile.TemporaryDirectory() as tmpdir:
        log = Path(sys.argv[1]) if len(sys.argv) > 1 else make_log(Path(tmpdir))
        events = read_log(log)
        ruleset = load_ruleset(str(events[0].data["ruleset"]), DATA_DIR)
        folded = replay(ruleset, events)
        print(f"log: {len(events)} events, {log.stat().st_size} bytes, turn {folded.state.turn}, winner {folded.state.winner}")
        report("replay of the whole log", timed(lambda: replay(ruleset, events), 10))
        tracemalloc.start()
        replay(ruleset, events)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"replay peak memory: {peak / 1e6:.1f} MB")

    vocab = ruleset.vocabulary  # type: ignore[attr-defined]
    samples = [
        "build fortification in Latium", "attack Etruria from Latium", "raise a fleet in the Tyrrhenian Sea",
        "peace treaty with the Gauls", "alliance with Samnites against Apulia", "grain distribution",
        "naval battle against Romans in Mare Tyrrhenum", "amphibious attack on Sicilia from Bruttium through Mare Siculum",
        "pass", "build temple in Latum", "we should talk about the Gauls", "atack Etruria from Latium",
    ]
    lines = "\n".join(samples[i % len(samples)] + ("" if i % 7 else " please") for i in range(10_000))
    report("parse 10,000 order lines", timed(lambda: parse_post(lines, vocab), 5))


if __name__ == "__main__":
    main()
