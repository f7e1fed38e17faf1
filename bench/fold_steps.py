"""Benchmark: the fold's cost of one Mare Nostrum event, early and late in a long campaign, by kind of event.

    .venv/bin/python bench/fold_steps.py [--turns 500] [--log saved.jsonl] [--save saved.jsonl]

One campaign is played on by the scripted players (bench/long_campaigns.py; about five minutes for 500 turns), or
a log saved before is read (``--log``, with the rules data beside it in ``data/``: ``--save`` writes both). Then,
with the engine alone (no service, no database): the whole replay, and one event stepped with the copy a post makes
(``engine.log.step``) for every event of the first ten turns, ten turns in the middle and the last ten, median per
kind of event and overall, with the fitted log-log slope of the overall median against the turn (about 0 is "the
same at turn 1 and turn 500"). Also prints the hashes of the final head, public view and ledger, so two versions
of the engine can be checked to fold a log alike. CPU time of this process. Asserts nothing.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import long_campaigns as lc  # noqa: E402

from engine import canonical  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.log import Folded, replay, start, step  # noqa: E402
from engine.mare_nostrum.ruleset import MareNostrum  # noqa: E402

CLOCK = time.process_time


def play(turns: int, save: Path | None) -> tuple[list[Event], MareNostrum]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data = lc.long_rules(folder)
        service = lc.new_service(folder / "steps.db", data, synthetic_days=turns + 40)
        lc.create(service, "long")
        player = lc.Player(service, "long")
        while player.turn < turns and player.play_turn():
            pass
        text = service.export("long")
        ruleset = MareNostrum.load(data)
        if save is not None:
            save.write_text(text, encoding="utf-8")
            shutil.copytree(data, save.parent / "data", dirs_exist_ok=True)
    return [Event.from_dict(json.loads(line)) for line in text.splitlines()], ruleset


def windows(last_turn: int) -> list[tuple[int, int]]:
    middle = max(1, last_turn // 2 - 9)
    return sorted({(1, min(10, last_turn)), (middle, middle + 9), (max(1, last_turn - 9), last_turn)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--save", type=Path)
    args = parser.parse_args()
    if args.log:
        events = [Event.from_dict(json.loads(line)) for line in args.log.read_text(encoding="utf-8").splitlines()]
        ruleset = MareNostrum.load(args.log.parent / "data")
    else:
        events, ruleset = play(args.turns, args.save)
    samples = []
    for _ in range(3):
        began = CLOCK()
        folded = replay(ruleset, events)
        samples.append(CLOCK() - began)
    best = min(samples)
    last_turn = folded.state.turn
    print(f"{len(events)} events to turn {last_turn}: replay {best * 1000:.0f} ms "
          f"({best * 1e6 / len(events):.1f} us/event, best of 3)")
    print(f"head {folded.last_seq}:{folded.head[:16]}  view "
          f"{hashlib.sha256(canonical.dumps(ruleset.public_view(folded.state)).encode()).hexdigest()[:16]}  ledger "
          f"{hashlib.sha256(json.dumps(ruleset.ledger(folded.state), sort_keys=True).encode()).hexdigest()[:16]}")
    spans = windows(last_turn)
    costs: dict[tuple[int, int], dict[str, list[float]]] = {span: {} for span in spans}
    current: Folded
    current, _ = start(ruleset, events[0])
    for event in events[1:]:
        span = next((s for s in spans if s[0] <= current.state.turn <= s[1]), None)
        began = CLOCK()
        current, _ = step(ruleset, current, event)
        if span is not None:
            costs[span].setdefault(event.kind, []).append(CLOCK() - began)
    points = []
    for span in spans:
        every = [c for kind in costs[span].values() for c in kind]
        if not every:
            continue
        kinds = ", ".join(f"{kind} {statistics.median(c) * 1e6:.0f}" for kind, c in sorted(costs[span].items()))
        print(f"turns {span[0]:>3}-{span[1]:<3}: {len(every):>4} events, one step median "
              f"{statistics.median(every) * 1e6:.0f} us ({kinds})")
        points.append(((span[0] + span[1]) / 2, statistics.median(every)))
    if len(points) > 1:
        import math
        xs, ys = [math.log(x) for x, _ in points], [math.log(y) for _, y in points]
        mx, my = statistics.mean(xs), statistics.mean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        print(f"one step against turns: log-log slope {slope:.2f} (0: the same at every turn)")


if __name__ == "__main__":
    main()
