"""Benchmark: a whole game of Mediterranean Empires. Prints figures; asserts nothing.

    .venv/bin/python bench/mediterranean_empires.py [LOG]

Without LOG it first plays the scripted seven-turn game of tests/games/mediterranean_empires_players.py through
the console and the service (drand beacons from a relay on 127.0.0.1) into a temporary database, and times that
too. Then, on the exported log:

* resolve: the fold the service does as a game is played, one ``engine.log.step`` per event (each ``apply`` on a
  copy of the state, parked orders played again from their start when their roll or answer comes);
* replay: ``engine.log.replay`` of the whole log (the fold of verify, of a restart, of the ledger CLI);
* verify: ``engine.verify.verify`` with the beacons checked against the chain.

Figures on the 2-core development machine (shared with other work, so ±20%), the scripted game of 723 events, before
and after the state's copy stopped falling back to ``copy.deepcopy`` for the chance book, the views read area
control in one pass over the units and a new order kept a copy of its starting state only when it parks (both runs
back to back, load average 1):

    played through the console   5.6 s (9.5 ms per post)   ->  3.2 s (5.3 ms per post)
    resolve, event by event      2482 ms (291 events/s)    ->   578 ms (1,251 events/s)
    replay                        529 ms (1,366 events/s)  ->   142 ms (5,102 events/s)
    verify                       2312 ms (313 events/s)    ->   842 ms (859 events/s)
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.cli import read_log  # noqa: E402
from bot.service.legatus import DATA_DIR  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.log import Folded, replay, start, step  # noqa: E402
from engine.rulesets import load_ruleset  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402
from engine.verify import verify  # noqa: E402


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        out.append(time.perf_counter() - began)
    return out


def report(label: str, samples: list[float], events: int) -> None:
    median = statistics.median(samples)
    print(f"{label}: median {median * 1000:.1f} ms, min {min(samples) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms "
          f"({len(samples)} runs); {events / median:,.0f} events/s")


def resolve(ruleset: Ruleset, events: list[Event]) -> Folded:
    folded, _ = start(ruleset, events[0])
    for event in events[1:]:
        folded, _ = step(ruleset, folded, event)
    return folded


def play(tmp: Path) -> Path:
    from tests.games.mediterranean_empires_players import play_game, table

    with table(tmp / "bench.db") as t:
        began = time.perf_counter()
        play_game(t)
        took = time.perf_counter() - began
        log = tmp / "bench.log"
        log.write_text(t.service.export(), encoding="utf-8")
    print(f"played through the console: {len(t.transcript)} posts in {took:.1f} s "
          f"({took / len(t.transcript) * 1000:.1f} ms per post, beacon fetches on 127.0.0.1 included)")
    return log


def main() -> None:
    with tempfile.TemporaryDirectory() as tmpdir:
        log = Path(sys.argv[1]) if len(sys.argv) > 1 else play(Path(tmpdir))
        events = read_log(log)
        ruleset = load_ruleset(str(events[0].data["ruleset"]), DATA_DIR)
        folded = replay(ruleset, events)
        kinds: dict[str, int] = {}
        for e in events:
            kinds[e.kind] = kinds.get(e.kind, 0) + 1
        state = folded.state
        print(f"log: {len(events)} events ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
              f"{log.stat().st_size:,} bytes; game turn {state.turn}, {state.phase}, VP {state.vp}, winner {state.winner}")
        report("resolve the game, event by event (the service's fold)", timed(lambda: resolve(ruleset, events), 3), len(events))
        report("replay the log", timed(lambda: replay(ruleset, events), 5), len(events))
        report("verify the log", timed(lambda: verify(ruleset, events, {}), 3), len(events))


if __name__ == "__main__":
    main()
