"""No code from data: a snapshot row is the one place the store unpickles, and whoever holds the database (the
operator, or anyone with a backup) can write one. A crafted row must never run: not on `legatus state` or `ledger`,
not on a post (the service's or the direct writer's), not after `legatus restore` of a crafted backup. It is
ignored, the log is folded instead, and the next post replaces it."""
from __future__ import annotations

import argparse
import pickle
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.cli.backup import add_commands
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.store.databases import db_url, log_state  # noqa: F401  (db_url: the fixture, SQLite and PostgreSQL)
from tests.conftest import LOTTO, PLAYERS


class RunsCode:
    """A pickle that, when loaded, runs what its author wrote: here, it writes a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('the snapshot ran code')",)


def crafted_body(marker: Path) -> bytes:
    return pickle.dumps(RunsCode(marker))


def started(db: Path) -> Legatus:
    service = Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    assert service.post("antiochus", "build fortification in Syria").ok
    return service


def plant(db: Path, body: bytes) -> None:
    """What the operator does with the database file: the campaign's snapshot row keeps its place (the event it
    ends at, its hash, the fold key, all readable in the file) and gets the crafted body."""
    with sqlite3.connect(db) as connection:
        (count,) = connection.execute("SELECT count(*) FROM snapshot WHERE campaign_id = 1").fetchone()
        assert count == 1, "the campaign has a snapshot to overwrite"
        connection.execute("UPDATE snapshot SET body = ? WHERE campaign_id = 1", (body,))
    connection.close()


def cli(*args: str) -> int:
    from bot.cli.main import main

    return main(list(args))


def fresh(db: Path) -> Legatus:
    """A new process's service: nothing folded in memory, so it reads the snapshot."""
    return Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path, dict[str, Any]]:
    db = tmp_path / "camp.db"
    service = started(db)
    state = service.state()
    service.engine.dispose()
    marker = tmp_path / "ran"
    plant(db, crafted_body(marker))
    return db, marker, state


def test_a_crafted_snapshot_does_not_run_on_legatus_state_or_ledger(
        planted: tuple[Path, Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    """Attacker: the operator with the database (or anyone who can write the file), waiting for `legatus state`."""
    db, marker, state = planted
    assert cli("state", "--db", str(db), "--json") == 0
    assert not marker.exists(), "the crafted snapshot ran code on `legatus state`"
    assert '"Seleucids"' in capsys.readouterr().out
    assert cli("ledger", "--db", str(db)) == 0
    assert not marker.exists(), "the crafted snapshot ran code on `legatus ledger`"


def test_a_crafted_snapshot_does_not_run_on_a_post_and_is_replaced(planted: tuple[Path, Path, dict[str, Any]]) -> None:
    """Attacker: the operator with the database, waiting for the next post to the service."""
    db, marker, state = planted
    service = fresh(db)
    assert service.state() == state == log_state(service.export())
    assert not marker.exists(), "the crafted snapshot ran code on the service's read"
    assert service.post("antiochus", "raise fleet in levantine").ok
    assert not marker.exists()
    with sqlite3.connect(db) as connection:
        (body,) = connection.execute("SELECT body FROM snapshot WHERE campaign_id = 1").fetchone()
    connection.close()
    assert body != crafted_body(marker), "the post replaces the snapshot it could not trust"


def test_a_crafted_snapshot_does_not_run_on_a_direct_post(
        planted: tuple[Path, Path, dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    """Attacker: the operator with the database, waiting for `legatus post` written over sqlite3 (no bot running)."""
    db, marker, _ = planted
    assert cli("post", "--db", str(db), "--as", "antiochus", "raise fleet in levantine") == 0
    assert not marker.exists(), "the crafted snapshot ran code on `legatus post`"
    assert "✓" in capsys.readouterr().out


def test_a_snapshot_copied_from_another_campaign_is_not_used(tmp_path: Path) -> None:
    """Attacker: the operator with the database, moving a genuine sealed snapshot to another campaign's row (or to
    another point of the log): it was sealed for its own place, and opens nowhere else."""
    db = tmp_path / "camp.db"
    service = started(db)
    assert service.create_campaign("d", "mare-nostrum", "gm2", dict(PLAYERS)).changed
    assert service.post("gm2", "/turn open 2023-01-03", campaign="d").ok
    state_d = service.state("d")
    service.engine.dispose()
    with sqlite3.connect(db) as connection:
        (body,) = connection.execute("SELECT body FROM snapshot WHERE campaign_id = 1").fetchone()
        connection.execute("UPDATE snapshot SET body = ? WHERE campaign_id = 2", (body,))
    connection.close()
    assert fresh(db).state("d") == state_d


def test_a_crafted_backup_runs_nothing_when_restored_and_its_snapshots_are_dropped(
        planted: tuple[Path, Path, dict[str, Any]], tmp_path: Path) -> None:
    """Attacker: whoever hands the operator a backup to restore (or edits one kept somewhere), waiting for the
    first post or `legatus state` after `legatus restore`."""
    db, marker, state = planted
    backup = tmp_path / "crafted.bak"
    shutil.copy(db, backup)
    target = tmp_path / "restored" / "legatus.db"
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["restore", "--from", str(backup), "--db", str(target)])
    assert int(args.func(args)) == 0
    assert not marker.exists(), "restoring ran the crafted snapshot"
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT count(*) FROM snapshot").fetchone() == (0,), "a restore drops the snapshots"
    connection.close()
    assert cli("state", "--db", str(target)) == 0
    service = fresh(target)
    assert service.state() == state
    assert service.post("antiochus", "raise fleet in levantine").ok
    assert not marker.exists(), "the first post after the restore ran the crafted snapshot"


def test_a_crafted_snapshot_runs_nothing_on_either_store(db_url: str, tmp_path: Path) -> None:
    """Attacker: the operator with the database, SQLite or PostgreSQL, writing the snapshot row's body."""
    service = started(db_url)  # type: ignore[arg-type]
    state = service.state()
    marker = tmp_path / "ran"
    with service.engine.begin() as connection:
        assert connection.execute(text("UPDATE snapshot SET body = :b WHERE campaign_id = 1"),
                                  {"b": crafted_body(marker)}).rowcount == 1
    again = Legatus(service.engine, data_dir=service.data_dir, clock=service.clock)  # a fresh process's service
    assert again.state() == state
    assert again.post("antiochus", "raise fleet in levantine").ok
    assert not marker.exists(), "the crafted snapshot ran code"
    service.engine.dispose()
