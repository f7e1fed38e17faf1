"""The store's files are their owner's alone (0600) whatever the umask: the database, its -wal and -shm, ``<db>.locks``,
a backup and a restored database; a file an older version left wider is narrowed when the bot opens it."""
from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.cli.backup import add_commands
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.process_locks import ProcessLocks
from tests.conftest import LOTTO, PLAYERS


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)  # the usual default: every new file readable by every local user
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def legatus(*argv: str) -> None:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(list(argv))
    assert int(args.func(args)) == 0


def test_the_database_its_wal_shm_locks_and_backups_are_0600(umask_022: None, tmp_path: Path) -> None:
    """Attacker: another local user of the machine, reading the files the bot writes (the umask lets them)."""
    db = tmp_path / "legatus.db"
    service = Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    locks = ProcessLocks(service.engine)
    assert locks.try_acquire("a claim")
    wal, shm, lock_file = Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}.locks")
    assert wal.exists() and shm.exists() and lock_file.exists()
    found = {p.name: oct(mode(p)) for p in (db, wal, shm, lock_file)}
    assert set(found.values()) == {"0o600"}, found

    legatus("backup", "--db", str(db), "--out", str(tmp_path / "legatus.bak"))
    assert mode(tmp_path / "legatus.bak") == 0o600
    service.engine.dispose()
    target = tmp_path / "restored" / "legatus.db"
    legatus("restore", "--from", str(tmp_path / "legatus.bak"), "--db", str(target))
    assert mode(target) == 0o600


def test_a_database_left_readable_by_an_older_version_is_narrowed_when_opened(umask_022: None, tmp_path: Path) -> None:
    """Attacker: another local user, reading a database an older Legatus made 0644."""
    db = tmp_path / "legatus.db"
    open_engine(db).dispose()
    os.chmod(db, 0o644)
    Path(f"{db}.locks").touch(mode=0o644)
    open_engine(db).dispose()
    assert mode(db) == 0o600 and mode(Path(f"{db}.locks")) == 0o600
