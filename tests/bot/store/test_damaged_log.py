"""A stored log damaged after it was written (a flipped byte, a hand that edited a row): every command says so in
one line, names the event, and nothing is ever appended to a log that no longer verifies.

Before: `state`, `ledger`, `map` and `post` answered with tracebacks or "internal error", while `post` (over a
snapshot made before the damage) and `backup` went on extending and copying a log that no longer exports.
"""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.fold_key import EVERY
from tests.conftest import LOTTO, PLAYERS

CHANGED = "event #2 does not match the hash chain (it or the one before it was changed)"
UNREADABLE = "event #2 is not readable JSON"


def _campaign(db: Path) -> Legatus:
    service = Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def _damage(db: Path, how: str) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(FULL)")
        body = connection.execute("SELECT body FROM event WHERE seq = 2").fetchone()[0]
        if how == "changed":
            body = body.replace("2023-01-03", "2023-01-05", 1)
        else:
            body = body[:20] + "\x01" + body[21:]
        connection.execute("UPDATE event SET body = ? WHERE seq = 2", (body,))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_TOKEN")}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def _events(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT count(*) FROM event").fetchone()[0])


def _forget_snapshot(db: Path) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM snapshot")


def _says_damage(command: tuple[str, ...], db: Path, problem: str) -> None:
    done = _cli(*command[:1], "--db", str(db), *command[1:])
    said = (done.stdout + done.stderr).strip()
    assert done.returncode == 1, (command, said)
    assert "Traceback" not in said and "internal error" not in said, (command, said)
    assert f"the stored log of campaign 'c' does not verify: {problem}" in said, (command, said)
    assert "restore the last good backup" in said, (command, said)


@pytest.mark.parametrize("how", ["changed", "unreadable"])
def test_every_command_that_folds_the_damage_names_it_in_one_line_and_adds_nothing(tmp_path: Path, how: str) -> None:
    db = tmp_path / "c.db"
    _campaign(db).post("antiochus", "build fortification in Syria")
    _damage(db, how)
    _forget_snapshot(db)  # the damaged row is folded, not covered by a snapshot made before the damage
    problem = CHANGED if how == "changed" else UNREADABLE
    before = _events(db)
    for command in (("state",), ("ledger",), ("map", "--out", str(tmp_path / "m.png")),
                    ("export", "--out", str(tmp_path / "x.log")), ("post", "--as", "ptolemy", "pass"),
                    ("backup", "--out", str(tmp_path / "b.bak"))):
        _says_damage(command, db, problem)
    assert _events(db) == before  # nothing appended
    assert not (tmp_path / "b.bak").exists() and not (tmp_path / "x.log").exists()
    assert not (tmp_path / "m.png").exists()


@pytest.mark.parametrize("how", ["changed", "unreadable"])
def test_a_damaged_row_under_a_snapshot_is_named_by_every_command_that_reads_the_whole_log(
    tmp_path: Path, how: str,
) -> None:
    """The snapshot (a cache of the fold) was made before the damage: `state` and `map` show the fold it holds,
    but nothing that hands out or copies the log (export, ledger, backup) passes the damage on."""
    db = tmp_path / "c.db"
    _campaign(db).post("antiochus", "build fortification in Syria")
    _damage(db, how)
    problem = CHANGED if how == "changed" else UNREADABLE
    for command in (("ledger",), ("export", "--out", str(tmp_path / "x.log")),
                    ("backup", "--out", str(tmp_path / "b.bak"))):
        _says_damage(command, db, problem)
    assert not (tmp_path / "b.bak").exists() and not (tmp_path / "x.log").exists()


def test_a_running_service_refuses_posts_once_the_damage_is_found(tmp_path: Path) -> None:
    """The bot folds a campaign from its snapshot when it starts; it walks the whole chain once then, so damage
    made while it was stopped (a restored file, an edited row) is found before anything is added."""
    db = tmp_path / "c.db"
    _campaign(db).post("antiochus", "build fortification in Syria")
    _damage(db, "changed")
    fresh = Legatus(open_engine(db))  # a new process: the snapshot is sound, the row before it is not
    reply = fresh.post("ptolemy", "pass")
    assert not reply.changed
    assert f"the stored log of campaign 'c' does not verify: {CHANGED}" in reply.render()
    assert "internal error" not in reply.render()


def test_damage_made_under_a_running_service_is_found_at_the_next_snapshot(tmp_path: Path) -> None:
    """A service that has the campaign in memory does not read the log again at each post (that cost grows with the
    campaign); it walks the whole chain each time the log crosses a snapshot boundary (every EVERY events), and from
    then on refuses every post."""
    db = tmp_path / "c.db"
    service = _campaign(db)
    _damage(db, "changed")
    refused = None
    for i in range(EVERY + 2):
        reply = service.post("gm", f"/roll 1d6 test {i}")
        if "does not verify" in reply.render():
            refused = i
            break
    assert refused is not None, "the damage was never found"
    assert refused <= EVERY
    again = service.post("gm", "/roll 1d6 once more")
    assert f"the stored log of campaign 'c' does not verify: {CHANGED}" in again.render()
    assert not again.changed
