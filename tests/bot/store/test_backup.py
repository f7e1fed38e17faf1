"""`legatus backup` and `legatus restore`: a snapshot taken while the bot writes, put back to the same campaign."""
from __future__ import annotations

import argparse
import shutil
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.cli.backup import add_commands
from bot.schedule.clock import FixedClock
from bot.store.db import current_revision, head_revision, open_engine
from bot.service.legatus import Legatus
from tests.bot.store.databases import log_state
from tests.conftest import LOTTO, PLAYERS

V0_DB = Path(__file__).resolve().parent / "data" / "legatus-v0.db"


def legatus(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(list(argv))
    return int(args.func(args))


def started(db: Path) -> Legatus:
    service = Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def test_a_backup_taken_while_the_bot_writes_is_a_consistent_campaign(tmp_path: Path) -> None:
    service = started(tmp_path / "live.db")
    stop = threading.Event()
    written: list[int] = []
    failures: list[BaseException] = []

    def bot() -> None:
        # Another connection writing events the whole time: each post is a GM ruling, one event each.
        try:
            value = 0
            while not stop.is_set():
                value = (value + 1) % 7  # stability runs from 0 to 7
                reply = service.post("gm", f"/gm set stability Romans {value + 1} busy bot")
                assert reply.ok, reply.render()
                written.append(value)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            failures.append(exc)

    writer = threading.Thread(target=bot)
    writer.start()
    try:
        backups = []
        for i in range(5):
            while len(written) < 3 * (i + 1) and writer.is_alive():
                stop.wait(0.01)
            out = tmp_path / "backups" / f"b{i}.db"
            assert legatus("backup", "--db", str(tmp_path / "live.db"), "--out", str(out)) == 0
            backups.append(out)
    finally:
        stop.set()
        writer.join()
    assert failures == []
    final_log = service.export()
    # Only the backups themselves: no temporary file, no -wal beside them.
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [f"b{i}.db" for i in range(5)]
    sizes = []
    for out in backups:
        with sqlite3.connect(out) as plain:
            assert plain.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one self-contained file
        assert not Path(f"{out}-wal").exists()
        copy = Legatus(open_engine(out))
        log = copy.export()
        # A snapshot of one moment: a whole prefix of the live log, folding to the state it records.
        assert final_log.startswith(log)
        assert copy.state() == log_state(log)
        sizes.append(log.count("\n"))
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1] <= final_log.count("\n")


def test_restore_puts_back_the_same_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    service = started(tmp_path / "live.db")
    assert service.post("antiochus", "build suburbs in Syria").ok
    state, log = service.state(), service.export()
    assert legatus("backup", "--db", str(tmp_path / "live.db"), "--out", str(tmp_path / "camp.bak")) == 0
    assert "1 campaign(s) (c)" in capsys.readouterr().out

    target = tmp_path / "restored" / "legatus.db"
    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(target)) == 0
    restored = Legatus(open_engine(target))
    assert restored.state() == state and restored.export() == log
    assert sorted(p.name for p in target.parent.iterdir() if p.name.startswith(".")) == []  # no temp files left


def test_restore_refuses_to_replace_a_database_with_data_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    service = started(tmp_path / "live.db")
    legatus("backup", "--db", str(tmp_path / "live.db"), "--out", str(tmp_path / "camp.bak"))
    other = tmp_path / "other.db"
    Legatus(open_engine(other)).create_campaign("other", "mare-nostrum", "gm", {})
    capsys.readouterr()

    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(other)) == 1
    assert "already holds 1 campaign(s)" in capsys.readouterr().err
    assert Legatus(open_engine(other)).campaign_names() == ["other"]

    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(other), "--force") == 0
    assert not Path(f"{other}-wal").exists() or Legatus(open_engine(other)).campaign_names() == ["c"]
    assert Legatus(open_engine(other)).state() == service.state()

    empty = tmp_path / "empty.db"
    open_engine(empty).dispose()  # the bot started once, nothing played: no need for --force
    assert legatus("restore", "--from", str(tmp_path / "camp.bak"), "--db", str(empty)) == 0


def test_restore_refuses_what_is_not_a_legatus_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.bak"
    junk.write_bytes(b"not a database at all" * 100)
    assert legatus("restore", "--from", str(junk), "--db", str(tmp_path / "x.db")) == 1
    assert "is not a usable SQLite database" in capsys.readouterr().err
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as plain:
        plain.execute("CREATE TABLE t (x)")
    assert legatus("restore", "--from", str(foreign), "--db", str(tmp_path / "x.db")) == 1
    assert "not a Legatus store" in capsys.readouterr().err
    assert legatus("backup", "--db", str(tmp_path / "missing.db"), "--out", str(tmp_path / "o.bak")) == 1
    assert not (tmp_path / "missing.db").exists()  # a mistyped --db is not created
    assert not (tmp_path / "x.db").exists()


def test_an_old_backup_is_upgraded_when_restored(tmp_path: Path) -> None:
    old = tmp_path / "old.bak"
    shutil.copyfile(V0_DB, old)  # a backup made before migrations
    target = tmp_path / "legatus.db"
    assert legatus("restore", "--from", str(old), "--db", str(target)) == 0
    engine = open_engine(target)
    assert current_revision(engine) == head_revision()
    assert Legatus(engine).state("ostia")["turn"] == 1


def test_postgres_is_backed_up_with_pg_dump(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://legatus:s3cret@db.example:5432/legatus"
    assert legatus("backup", "--db", url, "--out", "camp.dump") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pg_dump --format=custom --file camp.dump 'postgresql://legatus@db.example:5432/legatus'" in err
    assert "s3cret" not in err
    assert legatus("restore", "--from", "camp.dump", "--db", url) == 2
    assert "pg_restore" in capsys.readouterr().err


def _good_and_backup(tmp_path: Path) -> tuple[Path, Path, dict, str]:
    live = tmp_path / "live.db"
    service = started(live)
    assert service.post("antiochus", "build suburbs in Syria").ok
    state, log = service.state(), service.export()
    backup = tmp_path / "camp.bak"
    assert legatus("backup", "--db", str(live), "--out", str(backup)) == 0
    return live, backup, state, log


def _still_good(live: Path, state: dict, log: str) -> None:
    again = Legatus(open_engine(live))
    assert again.state() == state and again.export() == log


def test_restore_force_of_a_backup_from_a_newer_legatus_replaces_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """An operator restores a backup a newer version made: before, --force replaced the good database, then failed
    to open the restored one."""
    live, backup, state, log = _good_and_backup(tmp_path)
    with sqlite3.connect(backup) as copy:
        copy.execute("UPDATE alembic_version SET version_num = '9999'")
    capsys.readouterr()
    assert legatus("restore", "--from", str(backup), "--db", str(live), "--force") == 1
    assert capsys.readouterr().err.strip() == (
        f"legatus: {backup} was made by a newer Legatus (schema 9999; this one reads up to {head_revision()}): "
        "upgrade Legatus, then restore; nothing was replaced")
    _still_good(live, state, log)


def test_restore_of_a_backup_whose_log_was_changed_replaces_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A backup with an event edited after the fact (a flipped byte, or a hand that changed a die): its hash chain
    no longer holds, and restoring it would put a log that no longer verifies in place of a good one."""
    live, backup, state, log = _good_and_backup(tmp_path)
    with sqlite3.connect(backup) as copy:
        body = copy.execute("SELECT body FROM event WHERE seq = 2").fetchone()[0]
        copy.execute("UPDATE event SET body = ? WHERE seq = 2", (body.replace("2023-01-03", "2023-01-05", 1),))
    capsys.readouterr()
    assert legatus("restore", "--from", str(backup), "--db", str(live), "--force") == 1
    assert capsys.readouterr().err.strip() == (
        f"legatus: {backup} holds a log that does not verify: campaign 'c', event #2 does not match the hash "
        "chain (it or the one before it was changed); restore an older backup; nothing was replaced")
    _still_good(live, state, log)


def test_restore_of_a_backup_with_an_unreadable_event_replaces_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    live, backup, state, log = _good_and_backup(tmp_path)
    with sqlite3.connect(backup) as copy:
        body = copy.execute("SELECT body FROM event WHERE seq = 3").fetchone()[0]
        copy.execute("UPDATE event SET body = ? WHERE seq = 3", (body[:10] + "\x01" + body[11:],))
    capsys.readouterr()
    assert legatus("restore", "--from", str(backup), "--db", str(live), "--force") == 1
    assert capsys.readouterr().err.strip() == (
        f"legatus: {backup} holds a log that does not verify: campaign 'c', event #3 is not readable JSON; "
        "restore an older backup; nothing was replaced")
    _still_good(live, state, log)
