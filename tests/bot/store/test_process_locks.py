"""Process locks (bot/store/process_locks.py): held by one process at a time, and let go when that process dies,
on SQLite (record locks on <db>.locks) and PostgreSQL (advisory locks), with no lease to expire."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.store.db import open_engine
from bot.store.process_locks import ProcessLocks
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)

HOLDER = Path(__file__).with_name("lock_holder.py")


@contextmanager
def held_elsewhere(db: str, *names: str) -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``names`` until the block ends with its SIGKILL."""
    process = subprocess.Popen([sys.executable, str(HOLDER), db, *names], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "held"
        yield process
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)


def eventually(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_a_lock_is_one_process_s_until_it_dies(db_url: str) -> None:
    engine = open_engine(db_url)
    mine = ProcessLocks(engine)
    with held_elsewhere(db_url, "deadline-7", "scheduler:all"):
        assert not mine.try_acquire("deadline-7")
        assert not mine.try_acquire("scheduler:all")
        assert mine.try_acquire("deadline-8"), "other names stay free"
    # Killed, never released: the system let go of its locks (PostgreSQL's server within moments: its backend has
    # to notice the closed connection).
    assert eventually(lambda: mine.try_acquire("deadline-7")) and eventually(lambda: mine.try_acquire("scheduler:all"))
    # Now this process holds them: another one cannot take them.
    process = subprocess.run([sys.executable, str(HOLDER), db_url, "deadline-7"], capture_output=True, text=True,
                             timeout=60)
    assert process.returncode == 3 and process.stdout.strip() == "busy deadline-7"
    mine.release("deadline-7")
    mine.close()
    with held_elsewhere(db_url, "deadline-7", "deadline-8", "scheduler:all"):
        pass


def test_within_a_process_a_name_is_held_once() -> None:
    engine = open_engine("sqlite://")
    locks = ProcessLocks(engine)
    assert locks.try_acquire("a") and not locks.try_acquire("a")
    locks.release("a")
    assert locks.try_acquire("a")
    assert locks.held() == {"a"}


def test_two_schemas_of_one_postgresql_database_do_not_share_locks(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("schemas are PostgreSQL's")
    from tests.bot.store.databases import fresh_postgres_schema

    other, drop = fresh_postgres_schema()
    try:
        with held_elsewhere(other, "scheduler:all"):
            assert ProcessLocks(open_engine(db_url)).try_acquire("scheduler:all")
    finally:
        drop()
