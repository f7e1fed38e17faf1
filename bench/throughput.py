"""Benchmark: posts per second one process answers through the service (no Discord), many campaigns on one file.

    .venv/bin/python bench/throughput.py [--campaigns 20] [--posts 2000] [--profile]

Every campaign is a Mare Nostrum game of six players on the real draws, at turn 1. Posts go round the campaigns:
the player whose turn it is passes (the turn moves on; once all have passed the GM closes the turn and opens the
next), a player out of turn gives an order (refused: not their turn), and the GM locks and unlocks the orders (one post).
The service keeps every fold in memory, as a running bot does. Prints posts/s over the timed posts only (the
script's own reading of whose turn it is is left out). ``--profile`` prints the top costs (cProfile). Asserts
nothing.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

import long_campaigns as lc  # noqa: E402

TARGET = 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=20)
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        service = lc.new_service(folder / "throughput.db", lc.long_rules(folder), synthetic_days=200)
        days = lc.turn_days(service)
        names = [f"c{i}" for i in range(args.campaigns)]
        turn = dict.fromkeys(names, 1)
        for name in names:
            lc.create(service, name)
            service.post("gm", f"/turn open {days[0]}", name)
        players = {player: nation for nation, player in lc.PLAYERS.items()}
        profiler = cProfile.Profile() if args.profile else None
        spent, counts = 0.0, {"pass": 0, "out of turn": 0, "gm": 0, "refused": 0}
        for i in range(args.posts):
            name = names[i % len(names)]
            ruleset, state = service.folded(name)  # from memory: not timed
            acting = ruleset.to_act(state)
            if i % 5 == 4:
                author, text, kind = "gm", "/gm lock throughput\n/gm unlock throughput", "gm"
            elif acting:
                nation = acting[0]
                if i % 5 == 3:
                    other = next(p for p, n in players.items() if n != nation and state.nations[n].alive)
                    author, text, kind = other, f"build fortification in {state.owned(players[other])[0]}", "out of turn"
                else:
                    author, text, kind = lc.PLAYERS[nation], "pass", "pass"
            elif state.phase == "battles":
                fight = next((b for b in state.battles if b.status == "to_fight" and b.province), None)
                text = f"/battle {fight.province} winner defender" if fight else "/turn close"
                author, kind = "gm", "gm"
            else:
                turn[name] += 1
                author, text, kind = "gm", f"/turn open {days[turn[name] - 1]}", "gm"
            if profiler:
                profiler.enable()
            start = time.perf_counter()
            reply = service.post(author, text, name)
            spent += time.perf_counter() - start
            if profiler:
                profiler.disable()
            counts[kind] += 1
            if not reply.ok:
                counts["refused"] += 1
                if kind != "out of turn":  # only an order out of turn is meant to be refused
                    print(f"unexpectedly refused: {author}: {text!r} -> {reply.render()[:300]}")
        rate = args.posts / spent
        print(f"{args.posts} posts over {args.campaigns} campaigns on one SQLite file: {rate:.0f} posts/s "
              f"({spent * 1000 / args.posts:.2f} ms a post; {counts})")
        print(f"target >= {TARGET:.0f} posts/s: {'met' if rate >= TARGET else 'NOT met'}")
        if profiler:
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
            print(out.getvalue())


if __name__ == "__main__":
    main()
