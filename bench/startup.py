"""Benchmark of a `legatus` command's whole-process time: start-up, the command, and the interpreter's exit.

    .venv/bin/python bench/startup.py [--runs 5] [--code PATH]

Prints figures; asserts nothing. Measured in the same run, each as the median of ``--runs`` processes (after
one untimed run that fills the bytecode cache):

- a bare ``python -c 'import sqlite3, json'``, the floor any Python command stands on;
- ``legatus state``, ``post`` (table talk: the campaign is read and the post recorded, no event), ``ledger``
  and ``map``, and ``post`` again while a ``legatus run`` (the console) serves the file and writes the post,
  on the 15-turn scripted campaign of tests/bot/campaign_play.py (396 events), with their ratio to the bare
  interpreter; with no bot running a post is written over sqlite3 (bot/service/direct_post.py): also a GM roll
  (an event bound to a coming draw, at turn 1), ``/status`` (the deadlines read too), and a player's
  ``/settings``, which the direct writer leaves to the full service (SQLAlchemy: the cost of a post that needs it);
- one post at turn 1 of a new campaign against one at the end of the 15-turn campaign, with its snapshot
  (bot/store/snapshots.py) and without (the snapshot deleted before each run: the whole log is folded).

``--code PATH`` measures another checkout of Legatus (e.g. an older commit in a git worktree): the campaign is
built and every command run with that checkout's code, so before and after can be compared on one machine.
Each line also gives the median CPU time of the same runs, steadier than the wall clock on a busy machine.
The bytecode cache goes to a temporary folder (PYTHONPYCACHEPREFIX), as an installed Legatus has one even where
PYTHONDONTWRITEBYTECODE is set for development.
"""
from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILD = """
import sys
from pathlib import Path
from tests.bot.campaign_play import play_full_campaign
service, _ = play_full_campaign(Path(sys.argv[1]))
print(service.state()["turn"], service.export().count("\\n"))
"""
TURN_ONE = """
import sys
from datetime import datetime, timezone
from pathlib import Path
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.campaign_play import PLAYERS
from tests.fixture_paths import LOTTO
service = Legatus(open_engine(Path(sys.argv[1])), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
service.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS))
assert service.post("gm", "/turn open 2023-01-03").ok
print(service.export().count("\\n"))
"""


class Runner:
    def __init__(self, code: Path, cache: Path, runs: int) -> None:
        self.code = code
        self.runs = runs
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "PYTHONDONTWRITEBYTECODE")}
        self.env["PYTHONPATH"] = os.pathsep.join([str(code), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.env["PYTHONPYCACHEPREFIX"] = str(cache)
        self.cpu = 0.0

    def run(self, args: list[str]) -> str:
        done = subprocess.run([sys.executable, *args], cwd=self.code, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr or done.stdout}")
        return done.stdout

    def median(self, args: list[str], reset: Path | None = None) -> float:
        """The median whole-process time of ``args``; ``reset`` deletes that database's snapshots before each run.
        The median CPU time (user + system) of the same runs goes to ``self.cpu``: on a machine shared with other
        work, it moves less than the wall-clock time."""
        self.run(args)  # untimed: fills the bytecode cache
        samples, cpu = [], []
        for _ in range(self.runs):
            if reset is not None:
                with sqlite3.connect(reset) as plain:
                    plain.execute("DELETE FROM snapshot")
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            self.run(args)
            samples.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
        self.cpu = statistics.median(cpu)
        return statistics.median(samples)

    def served_post(self, run: list[str], post: list[str], db: Path) -> float | None:
        """``post``'s median time while ``legatus run`` (the console) serves ``db``; None if it never serves."""
        sys.path.insert(0, str(self.code))
        try:
            from bot.store.local_socket import socket_path
        except ImportError:
            return None
        finally:
            sys.path.pop(0)
        bot = subprocess.Popen([sys.executable, *run], cwd=self.code, env=self.env, stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
        try:
            deadline = time.monotonic() + 30
            while not socket_path(db).exists():
                if bot.poll() is not None or time.monotonic() > deadline:
                    return None
                time.sleep(0.05)
            return self.median(post)
        finally:
            bot.communicate(":quit\n", timeout=60)

    def cpu_note(self) -> str:
        return f"cpu {self.cpu * 1000:5.0f} ms"


def has_snapshots(db: Path) -> bool:
    with sqlite3.connect(db) as plain:
        return plain.execute("SELECT 1 FROM sqlite_master WHERE name = 'snapshot'").fetchone() is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout of Legatus to measure (default: this one)")
    options = parser.parse_args()
    code = options.code.resolve()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        runner = Runner(code, tmp / "pycache", options.runs)
        long_db, short_db = tmp / "long.db", tmp / "turn1.db"
        turns, events = runner.run(["-c", BUILD, str(long_db)]).split()
        short_events = runner.run(["-c", TURN_ONE, str(short_db)]).strip()
        cli = ["-m", "bot.cli"]
        print(f"code: {code}; {options.runs} runs each, median whole-process time; "
              f"campaign of {turns} turns, {events} events")
        bare = runner.median(["-c", "import sqlite3, json"])
        print(f"  {'python -c import sqlite3, json':<34} {bare * 1000:7.0f} ms  {runner.cpu_note()}")
        commands = {
            "legatus state": [*cli, "state", "--db", str(long_db)],
            "legatus post (table talk)": [*cli, "post", "--db", str(long_db), "--as", "hanno", "well played, all"],
            "legatus post (a GM roll, bound)": [*cli, "post", "--db", str(short_db), "--as", "gm", "/roll 2d6 bench"],
            "legatus post (/status)": [*cli, "post", "--db", str(long_db), "--as", "gm", "/status"],
            "legatus post (/settings: service)": [*cli, "post", "--db", str(long_db), "--as", "hanno",
                                                  "/settings heads-up on"],
            "legatus ledger": [*cli, "ledger", "--db", str(long_db)],
            "legatus map": [*cli, "map", "--db", str(long_db), "--out", str(tmp / "map.png")],
        }
        for label, args in commands.items():
            took = runner.median(args)
            print(f"  {label:<34} {took * 1000:7.0f} ms  {runner.cpu_note()}  ({took / bare:4.1f} x bare python)")
        served = runner.served_post([*cli, "run", "--db", str(long_db)], commands["legatus post (table talk)"], long_db)
        if served is None:
            print("  (this checkout's `legatus run` serves no local posts: no line for a post to a running bot)")
        else:
            print(f"  {'legatus post (to a running bot)':<34} {served * 1000:7.0f} ms  {runner.cpu_note()}  "
                  f"({served / bare:4.1f} x bare python; the bot writes it: bot/service/local_posts.py)")

        print("one post (table talk) in a fresh process:")
        post = [*cli, "post", "--as", "hanno", "well played, all", "--db"]
        first = runner.median([*post, str(short_db)])
        print(f"  {f'at turn 1 ({short_events} events)':<34} {first * 1000:7.0f} ms  {runner.cpu_note()}")
        late = runner.median([*post, str(long_db)])
        print(f"  {f'after turn {turns} ({events} events)':<34} {late * 1000:7.0f} ms  {runner.cpu_note()}  ({(late - first) * 1000:+.0f} ms)")
        if has_snapshots(long_db):
            cold = runner.median([*post, str(long_db)], reset=long_db)
            print(f"  {f'after turn {turns}, no snapshot':<34} {cold * 1000:7.0f} ms  {runner.cpu_note()}  ({(cold - first) * 1000:+.0f} ms: "
                  "the whole log folded)")
        else:
            print("  (this checkout keeps no snapshot: every post folds the whole log)")


if __name__ == "__main__":
    main()
