"""Benchmark of the store: its size per campaign turn, and the time to open a campaign with 100 turns of history.

    .venv/bin/python bench/store.py

Prints figures; asserts nothing. The "new process" figures start a new interpreter each time, on a warm file
cache and compiled bytecode: a warm start of Python, not a cold one of the machine. Sizes come from the scripted campaign of tests/bot/campaign_play.py on the
real draws. The 100-turn history is a campaign on synthetic draws (made here, one per day from 2030 on) where
the GM opens and closes every turn, each nation passes and the GM reports every battle: few orders, but
every turn's draw, events and rolls, which is most of a real turn's log. Mare Nostrum ends after 15 turns,
so it is played on a variant of the ruleset with ``turns = 100`` (a copy of data/ in a temporary folder).
"""
from __future__ import annotations

import datetime as dt
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "bot"))

from bot.schedule.clock import FixedClock  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from engine.lotto import format_archive_line, wheels_on  # noqa: E402

PLAYERS = {
    "Carthaginians": "hanno", "Gauls": "brennus", "Macedonians": "philip",
    "Ptolemaics": "ptolemy", "Romans": "scipio", "Seleucids": "antiochus",
}
TURNS = 100
RUNS = 7


def file_bytes(db: Path) -> int:
    # Fold the WAL into the file first: its size is what the campaign costs on disk at rest.
    with sqlite3.connect(db) as plain:
        plain.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.stat().st_size


def synthetic_draws(days: int, seed: int = 290) -> str:
    rng = random.Random(seed)
    first = dt.date(2030, 1, 1)
    lines = []
    for i in range(days):
        day = first + dt.timedelta(days=i)
        for wheel in wheels_on(day):
            lines.append(format_archive_line(day, wheel, rng.sample(range(1, 91), 5)))
    return "\n".join(lines) + "\n"


def long_variant(folder: Path, turns: int) -> Path:
    data = folder / "data"
    shutil.copytree(REPO / "data", data)
    rules = data / "rulesets" / "mare-nostrum.toml"
    text, n = re.subn(r"(?m)^turns\s*=\s*\d+", f"turns = {turns}", rules.read_text(encoding="utf-8"))
    assert n == 1, "the ruleset's 'turns =' line moved: update bench/store.py"
    rules.write_text(text, encoding="utf-8")
    return data


def play_passing_campaign(db: Path, turns: int, data_dir: Path) -> tuple[Legatus, int]:
    clock = FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc))
    service = Legatus(open_engine(db), data_dir=data_dir, clock=clock)
    service.import_draws(synthetic_draws(turns + 10), "synthetic")
    service.create_campaign("long", "mare-nostrum", "gm", dict(PLAYERS))
    played = 0
    for turn in range(turns):
        day = dt.date(2030, 1, 1) + dt.timedelta(days=turn)
        if not service.post("gm", f"/turn open {day.isoformat()}").ok:
            break
        for _ in range(20):
            view = service.state()
            nation = view["to_play"]
            if view["phase"] != "orders" or nation is None:
                break
            if not service.post(PLAYERS[nation], "pass").ok:
                service.post("gm", f"/gm pass {nation}")
        for battle in service.state()["battles"]:
            if battle["status"] == "to_fight":
                service.post("gm", f"/battle {battle['province']} winner defender")
        service.post("gm", "/turn close")
        played += 1
        if service.state()["winner"]:
            break
    return service, played


def open_in_process(db: Path, data_dir: Path) -> float:
    start = time.perf_counter()
    engine = open_engine(db)
    Legatus(engine, data_dir=data_dir).state()
    elapsed = time.perf_counter() - start
    engine.dispose()
    return elapsed


def open_in_new_process(db: Path, data_dir: Path) -> float:
    code = (
        "import time; t = time.perf_counter(); from bot.store.db import open_engine; from bot.service.legatus import Legatus; "
        f"Legatus(open_engine({str(db)!r})).state(); print(time.perf_counter() - t)"
    )
    env = {**os.environ, "LEGATUS_DATA": str(data_dir)}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.1f} ms (min {min(samples) * 1000:.1f}, max {max(samples) * 1000:.1f}, {len(samples)} runs)"


def main() -> None:
    from tests.bot.campaign_play import play_full_campaign  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        empty = tmp / "empty.db"
        open_engine(empty).dispose()
        base = file_bytes(empty)
        print(f"empty store (schema only): {base} bytes")

        service, _ = play_full_campaign(tmp / "scripted.db")
        state = service.state()
        turns = state["turn"]
        log = service.export().encode("utf-8")
        size = file_bytes(tmp / "scripted.db")
        events = log.count(b"\n")
        print(f"scripted campaign (real draws, 2 months of draws stored): {turns} turns, {events} events")
        print(f"  SQLite file: {size} bytes, {(size - base) / turns:.0f} bytes per turn above the empty store "
              f"(draws, events and every post with its answer)")
        print(f"  event log:   {len(log)} bytes, {len(log) / turns:.0f} bytes per turn, {len(log) / events:.0f} per event")
        with sqlite3.connect(tmp / "scripted.db") as plain:
            cached = plain.execute("SELECT coalesce(sum(length(body)), 0) FROM snapshot").fetchone()[0]
        # One row per campaign, replaced at each post: it grows with the state, not with the number of posts.
        print(f"  of the file, the snapshot cache of the fold (bot/store/snapshots.py): {cached} bytes")

        long_db = tmp / "long.db"
        start = time.perf_counter()
        data_dir = long_variant(tmp, TURNS)
        long_service, played = play_passing_campaign(long_db, TURNS, data_dir)
        build = time.perf_counter() - start
        long_log = long_service.export().encode("utf-8")
        long_events = long_log.count(b"\n")
        long_size = file_bytes(long_db)
        print(f"{played}-turn campaign (synthetic draws, everyone passes; built in {build:.1f} s): "
              f"{long_events} events")
        print(f"  SQLite file: {long_size} bytes ({(long_size - base) / played:.0f} per turn); "
              f"event log {len(long_log)} bytes ({len(long_log) / played:.0f} per turn)")
        long_service.engine.dispose()
        open_in_process(long_db, data_dir)  # warm the imports and the ruleset's data once
        print(f"  open + state(), new engine and service in this process (from the snapshot): {ms([open_in_process(long_db, data_dir) for _ in range(RUNS)])}")
        # Not "cold": the operating system's file cache is warm and the bytecode is compiled; only Python starts
        # afresh. A post left a snapshot of the fold (bot/store/snapshots.py); without it the whole log is folded.
        print(f"  open + state() in a new Python process (imports included; warm file cache), from the snapshot: "
              f"{ms([open_in_new_process(long_db, data_dir) for _ in range(RUNS)])}")
        with sqlite3.connect(long_db) as plain:
            plain.execute("DELETE FROM snapshot")
        print(f"  the same with no snapshot (the whole log folded): "
              f"{ms([open_in_new_process(long_db, data_dir) for _ in range(RUNS)])}")


if __name__ == "__main__":
    main()
