"""Issue 12, item 6: `restore --force` is refused while a bot holds the database; the backup summary counts the copy."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from bot.store import backup as backup_module
from bot.store.running import STALE_SECONDS, holder, lock_path, running
from tests.bot.store.test_backup import legatus, started


def test_restore_is_refused_while_a_bot_holds_the_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "live.db"
    started(db)
    assert legatus("backup", "--db", str(db), "--out", str(tmp_path / "camp.bak")) == 0
    before = db.read_bytes()
    with running(db):
        assert lock_path(db).exists() and holder(db) is not None
        capsys.readouterr()
        assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(db), "--force") == 1
        err = capsys.readouterr().err
        assert f"pid {os.getpid()}" in err and "stop the bot" in err
        assert db.read_bytes() == before
    assert not lock_path(db).exists()  # a clean stop takes the lock away
    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(db), "--force") == 0


def test_a_stale_heartbeat_does_not_block_a_restore(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    started(db)
    assert legatus("backup", "--db", str(db), "--out", str(tmp_path / "camp.bak")) == 0
    lock = lock_path(db)
    lock.write_text("pid 999999 host elsewhere\n", encoding="utf-8")
    old = time.time() - STALE_SECONDS - 5
    os.utime(lock, (old, old))
    assert holder(db) is None
    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(db), "--force") == 0


def test_the_backup_summary_counts_what_was_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "live.db"
    service = started(db)
    copy = backup_module._copy

    def copy_then_the_bot_writes(source: sqlite3.Connection, target: Path) -> None:
        copy(source, target)
        service.post("gm", "/roll 1d6 late")  # lands in the live store after the copy was taken

    monkeypatch.setattr(backup_module, "_copy", copy_then_the_bot_writes)
    out = tmp_path / "camp.bak"
    assert legatus("backup", "--db", str(db), "--out", str(out)) == 0
    printed = capsys.readouterr().out
    with sqlite3.connect(out) as copied:
        events = copied.execute("SELECT count(*) FROM event").fetchone()[0]
        posts = copied.execute("SELECT count(*) FROM post").fetchone()[0]
    assert f"{events} events, {posts} posts" in printed, printed


def test_legatus_run_holds_the_database_until_it_stops(tmp_path: Path) -> None:
    import subprocess
    import sys

    db = tmp_path / "live.db"
    started(db)
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    bot = subprocess.Popen([sys.executable, "-m", "bot.cli", "run", "--db", str(db)], stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.time() + 60
        while holder(db) is None and time.time() < deadline:
            time.sleep(0.2)
        assert holder(db) is not None and f"pid {bot.pid}" in (holder(db) or "")
    finally:
        assert bot.stdin is not None
        bot.stdin.close()  # end of input: the console stops cleanly
        bot.wait(timeout=60)
    assert holder(db) is None and not lock_path(db).exists()
