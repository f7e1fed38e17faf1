"""Benchmark: how the cost of a replay and of one post grows with a campaign's length and its map's size.

    .venv/bin/python bench/growth.py [--turns 15,100,500] [--provinces 38,500] [--posts 20]

One Mare Nostrum campaign is played on (bench/long_campaigns.py: rules that never end, synthetic draws from a fixed
seed between the recorded months) by the scripted players of tests/bot/campaign_play.py; at each checkpoint it
prints the time to replay the whole log, and the time of one post through the service with its fold in memory
(the GM locking and unlocking the orders, each one event). Then the same at 15 turns on the stock map (38
provinces) and on one grown to 500. Prints the fitted log-log slope of each cost: about 1 for a replay (every event
once) is linear, about 0 for a post is "the same at turn 1 and turn 500". Costs are CPU time of this process
(steadier than the wall clock where other work shares the machine; it leaves out a commit's wait on the disk, which
WAL with synchronous=NORMAL makes rare). Asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import long_campaigns as lc  # noqa: E402

from engine.events import Event  # noqa: E402
from engine.log import replay  # noqa: E402


# CPU time of this process (``time.process_time``): on a machine shared with other work the wall clock swung a
# replay's figure by 3x between runs (2026-11-24), which bent the fitted slopes either way.
CLOCK = time.process_time


def post_cost(service: lc.Legatus, campaign: str, posts: int) -> float:
    """The median time of one post, in ms: the GM locks and unlocks the orders in turn."""
    service.state(campaign)  # the fold is in memory, as in a running bot
    samples = []
    for i in range(posts):
        text = "/gm lock growth benchmark" if i % 2 == 0 else "/gm unlock growth benchmark"
        start = CLOCK()
        reply = service.post("gm", text, campaign)
        samples.append(CLOCK() - start)
        assert reply.ok, reply.render()
    if posts % 2:
        service.post("gm", "/gm unlock growth benchmark", campaign)
    return statistics.median(samples) * 1000


def replay_cost(service: lc.Legatus, campaign: str, repeat: int) -> tuple[float, int]:
    events = [Event.from_dict(json.loads(line)) for line in service.export(campaign).splitlines()]
    ruleset = service.ruleset_of(campaign)
    samples = []
    for _ in range(repeat):
        start = CLOCK()
        replay(ruleset, events)
        samples.append(CLOCK() - start)
    return statistics.median(samples) * 1000, len(events)


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of log(cost) against log(size)."""
    xs, ys = [math.log(x) for x, _ in points], [math.log(y) for _, y in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def verdict(name: str, points: list[tuple[float, float]], limit: float, wording: str) -> None:
    if len(points) < 2:
        print(f"{name}: one point only, no slope")
        return
    s = slope(points)
    print(f"{name}: log-log slope {s:.2f} -> {wording if s <= limit else 'WORSE than ' + wording} (limit {limit})")


def by_turns(checkpoints: list[int], posts: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service = lc.new_service(folder / "growth.db", lc.long_rules(folder), synthetic_days=max(checkpoints) + 40)
        lc.create(service, "long")
        player = lc.Player(service, "long")
        replays: list[tuple[float, float]] = []
        post_points: list[tuple[float, float]] = []
        started = time.perf_counter()
        for target in sorted(checkpoints):
            while player.turn < target:
                if not player.play_turn():
                    print(f"the campaign stopped at turn {player.turn} (over or out of draws)")
                    break
            ms_post = post_cost(service, "long", posts)
            ms_replay, events = replay_cost(service, "long", 3 if events_guess(player.turn) < 5000 else 1)
            print(f"turn {player.turn:>4}: {events:>6} events; replay {ms_replay:9.1f} ms "
                  f"({ms_replay * 1000 / events:.0f} us/event); one post {ms_post:6.2f} ms (median of {posts}) "
                  f"[played in {time.perf_counter() - started:.0f} s so far]")
            replays.append((events, ms_replay))
            post_points.append((player.turn, ms_post))
            if player.turn < target:
                break
        verdict("replay against events", replays, 1.15, "linear or better")
        verdict("one post against turns", post_points, 0.25, "flat (the same at every turn)")


def events_guess(turns: int) -> int:
    return turns * 27


def by_provinces(sizes: list[int], turns: int, posts: int) -> None:
    replays: list[tuple[float, float]] = []
    post_points: list[tuple[float, float]] = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            data = lc.long_rules(folder, extra_provinces=max(0, size - 38))
            service = lc.new_service(folder / "grid.db", data, synthetic_days=turns + 40)
            lc.create(service, "grid")
            provinces = len(service.ruleset_of("grid").rules.map.provinces)
            player = lc.Player(service, "grid")
            while player.turn < turns and player.play_turn():
                pass
            ms_post = post_cost(service, "grid", posts)
            ms_replay, events = replay_cost(service, "grid", 3)
            print(f"{provinces:>4} provinces, turn {player.turn}: {events} events; replay {ms_replay:8.1f} ms; "
                  f"one post {ms_post:6.2f} ms")
            replays.append((provinces, ms_replay / events))
            post_points.append((provinces, ms_post))
    verdict("replay per event against provinces", replays, 1.15, "linear or better")
    verdict("one post against provinces", post_points, 1.15, "linear or better")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", default="15,100,500")
    parser.add_argument("--provinces", default="38,500")
    parser.add_argument("--posts", type=int, default=20)
    args = parser.parse_args()
    turns = [int(t) for t in args.turns.split(",") if t]
    sizes = [int(p) for p in args.provinces.split(",") if p]
    if turns:
        by_turns(turns, args.posts)
    if sizes:
        by_provinces(sizes, 15, args.posts)


if __name__ == "__main__":
    main()
