"""Benchmark: posts per second one process answers through the service (no Discord), many campaigns on one file.

    .venv/bin/python bench/throughput.py [--campaigns 20] [--posts 2000] [--mode both|single|together] [--profile]

Every campaign is a Mare Nostrum game of six players on the real draws, at turn 1. Posts go round the campaigns:
the player whose turn it is passes (the turn moves on; once all have passed the GM closes the turn and opens the
next), a player out of turn gives an order (refused: not their turn), and the GM locks and unlocks the orders (one post).
The service keeps every fold in memory, as a running bot does.

Two ways posts arrive, each on a fresh file:
- ``single``: one post at a time, each answered (committed) before the next is read: ``Legatus.post``, as the
  command line and a quiet bot post. Bounded by a transaction per post (session, BEGIN IMMEDIATE, COMMIT).
- ``together``: a round of posts, one per campaign, arrives at once and is applied in one transaction
  (``Legatus.post_many``, each post in its own savepoint), as the bot's post queue (bot/service/post_queue.py)
  does with a burst of Discord messages.

Figures (2026-11-23, 2 shared cores, load ~2-4, three runs each, interleaved): before (one ORM transaction per
post) 291-302 posts/s; now ``single`` 477-756 (median 558), ``together`` 957-1381 (median 1055). Where a post's
time went before: ORM round trips (finding the campaign, reading the log's tail, the sealed store, the stored
draw dates once per event, flushing ORM rows: ~60%), ``summary`` with its headline three times per post, and the
state's deep copy per event. Now a transaction's fixed cost (a session, BEGIN IMMEDIATE, COMMIT: ~0.45 ms of
SQLAlchemy) bounds ``single``; ``together`` pays it once per round, and the rules' own work (the copy, the
summary once per post) is most of what is left.

Prints posts/s over the timed posts only (the script's own reading of whose turn it is is left out), and posts per
CPU second (``time.process_time``: steadier than the wall clock on a shared machine). ``--profile`` prints the top
costs (cProfile). Asserts nothing.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import long_campaigns as lc  # noqa: E402

TARGET = 1000.0


def next_post(service: Any, name: str, i: int, turn: dict[str, int], days: list[str]) -> tuple[str, str, str]:
    """The ``i``-th post of the run, in campaign ``name``: (author, text, kind)."""
    players = {player: nation for nation, player in lc.PLAYERS.items()}
    ruleset, state = service.folded(name)  # from memory: not timed
    acting = ruleset.to_act(state)
    if i % 5 == 4:
        return "gm", "/gm lock throughput\n/gm unlock throughput", "gm"
    if acting:
        nation = acting[0]
        if i % 5 == 3:
            other = next(p for p, n in players.items() if n != nation and state.nations[n].alive)
            return other, f"build fortification in {state.owned(players[other])[0]}", "out of turn"
        return lc.PLAYERS[nation], "pass", "pass"
    if state.phase == "battles":
        fight = next((b for b in state.battles if b.status == "to_fight" and b.province), None)
        return "gm", f"/battle {fight.province} winner defender" if fight else "/turn close", "gm"
    turn[name] += 1
    return "gm", f"/turn open {days[turn[name] - 1]}", "gm"


def run(mode: str, campaigns: int, posts: int, profile: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service = lc.new_service(folder / "throughput.db", lc.long_rules(folder), synthetic_days=200)
        days = lc.turn_days(service)
        names = [f"c{i}" for i in range(campaigns)]
        turn = dict.fromkeys(names, 1)
        for name in names:
            lc.create(service, name)
            service.post("gm", f"/turn open {days[0]}", name)
        profiler = cProfile.Profile() if profile else None
        wall = cpu = 0.0
        counts = {"pass": 0, "out of turn": 0, "gm": 0, "refused": 0}
        together = mode == "together"
        if together:
            from bot.service.legatus import PostRequest
        i = 0
        while i < posts:
            # A round: the next post of each campaign (all of them together, or one after the other).
            round_ = []
            for name in names[: posts - i] if together else [names[i % len(names)]]:
                author, text, kind = next_post(service, name, i, turn, days)
                round_.append((author, text, kind, name))
                i += 1
            if profiler:
                profiler.enable()
            start, start_cpu = time.perf_counter(), time.process_time()
            if together:
                replies = service.post_many([PostRequest(a, t, n) for a, t, _, n in round_])
            else:
                replies = [service.post(a, t, n) for a, t, _, n in round_]
            wall += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            if profiler:
                profiler.disable()
            for (author, text, kind, _), reply in zip(round_, replies):
                counts[kind] += 1
                if not reply.ok:
                    counts["refused"] += 1
                    if kind != "out of turn":  # only an order out of turn is meant to be refused
                        print(f"unexpectedly refused: {author}: {text!r} -> {reply.render()[:300]}")
        rate = posts / wall
        print(f"{mode:>8}: {posts} posts over {campaigns} campaigns on one SQLite file: {rate:.0f} posts/s "
              f"({wall * 1000 / posts:.2f} ms a post; {posts / cpu:.0f} posts per CPU second; {counts})")
        if profiler:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
            print(out.getvalue())
        return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=20)
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--mode", choices=("both", "single", "together"), default="both")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    modes = ("single", "together") if args.mode == "both" else (args.mode,)
    rates = {mode: run(mode, args.campaigns, args.posts, args.profile) for mode in modes}
    for mode, rate in rates.items():
        print(f"target >= {TARGET:.0f} posts/s ({mode}): {'met' if rate >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
