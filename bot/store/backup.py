"""Backing up and restoring a SQLite store (for `legatus backup` and `legatus restore`, bot/cli/backup.py): copied whole copied whole, safely, even while the bot runs.

The backup goes through SQLite's online backup API: a consistent snapshot of the database at one moment,
taken without stopping the bot (in WAL mode the bot keeps writing meanwhile). Both commands write a
temporary file beside the target and rename it into place only once it is complete and checked, so a
crash or a full disk never leaves a half-written backup or database behind a good name.

PostgreSQL stores are backed up with PostgreSQL's own tools; the commands say how.
"""
from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.store.log_damage import DamagedLog, check_whole, event_from_body


class BackupError(Exception):
    pass


# --- the work -----------------------------------------------------------------------------------------------------


def backup(db: Path, out: Path) -> str:
    """Copy the SQLite store ``db`` to ``out`` (atomically replacing it); a one-line summary of what it holds."""
    if not db.is_file():
        raise BackupError(f"there is no database at {db}")
    # Read-only: a mistyped --db must not create an empty database; and a backup never writes to the store.
    with _closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as source:
        _check_database(source, db)
        if "event" in _tables(source):
            broken = _chain_problem(source)
            if broken is not None:
                raise BackupError(f"{broken[1].message}; no backup was written (copy the file itself if you want "
                                  "it for the record)")
        with _replacing(out) as temp:
            _copy(source, temp)
            # Counted in the copy: the live store may have gained posts since, which the backup does not hold.
            with _closing(sqlite3.connect(f"{temp.resolve().as_uri()}?mode=ro", uri=True)) as copied:
                summary = _summary(copied)
        return summary


def restore(source: Path, db: Path, force: bool = False) -> str:
    """Put the backup ``source`` in place of the store ``db``, then bring it to the newest schema."""
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    with _closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as backup_db:
        _check_database(backup_db, source)
        if "event" not in _tables(backup_db):
            raise BackupError(f"{source} is a SQLite database but not a Legatus store (it has no event table)")
        _check_restorable(backup_db, source)
        from bot.store.running import STALE_SECONDS, holder

        bot = holder(db)
        if bot is not None:  # even with --force: the bot would go on writing to the file it has open, then lose it
            raise BackupError(f"a bot holds {db} ({bot}): stop the bot first, then restore (a heartbeat older "
                              f"than {STALE_SECONDS:g}s is ignored)")
        if not force:
            held = _holds_data(db)
            if held:
                raise BackupError(f"{db} already holds {held}: restoring would replace it; stop the bot and add --force")
        with _replacing(db) as temp:
            _copy(backup_db, temp)
            _drop_snapshots(temp)
            # A WAL file left from the replaced database would be replayed into the restored one: never keep it.
            for suffix in ("-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
        summary = _summary(backup_db)
    # A backup from an older version is upgraded now, not at the bot's next start.
    from bot.store.db import open_engine

    open_engine(db).dispose()
    return summary


def _check_restorable(backup_db: sqlite3.Connection, source: Path) -> None:
    """Refuse, before anything is replaced, a backup this code cannot use: one a newer Legatus made (its schema
    would fail to open after the good database was gone), or one whose log no longer verifies (an event edited or
    damaged: every campaign's hash chain is walked, as `legatus verify` does)."""
    from bot.store.revision import HEAD_REVISION

    if "alembic_version" in _tables(backup_db):
        versions = [str(r[0]) for r in backup_db.execute("SELECT version_num FROM alembic_version")]
        newer = [v for v in versions if not v.isdigit() or int(v) > int(HEAD_REVISION)]
        if newer:
            raise BackupError(f"{source} was made by a newer Legatus (schema {newer[0][:20]}; this one reads up to "
                              f"{HEAD_REVISION}): upgrade Legatus, then restore; nothing was replaced")
    broken = _chain_problem(backup_db)
    if broken is not None:
        name, damage = broken
        raise BackupError(f"{source} holds a log that does not verify: campaign '{name}', {damage.problem}; restore "
                          "an older backup; nothing was replaced")


def _chain_problem(connection: sqlite3.Connection) -> tuple[str, DamagedLog] | None:
    """The first campaign whose stored log does not verify, with its damage; None when every log holds."""
    names = {row[0]: row[1] for row in connection.execute("SELECT id, name FROM campaign")} \
        if "campaign" in _tables(connection) else {}
    rows = connection.execute("SELECT campaign_id, seq, body FROM event ORDER BY campaign_id, seq").fetchall()
    by_campaign: dict[int, list[tuple[int, str]]] = {}
    for campaign_id, seq, body in rows:
        by_campaign.setdefault(campaign_id, []).append((seq, body))
    for campaign_id, stored in by_campaign.items():
        name = str(names.get(campaign_id, campaign_id))
        try:
            check_whole((event_from_body(body, seq) for seq, body in stored), name)
        except DamagedLog as exc:
            return name, exc.of(name)
    return None


def _copy(source: sqlite3.Connection, target: Path) -> None:
    with _closing(sqlite3.connect(target)) as copy:
        source.backup(copy)  # one step: a snapshot of a single moment, however busy the bot is
        # A self-contained single file: no -wal beside it to lose when the backup is copied elsewhere.
        copy.execute("PRAGMA journal_mode=DELETE")
        _check_database(copy, target)
        copy.commit()
    _fsync(target)


def _drop_snapshots(db: Path) -> None:
    """A backup's cached folds are not trusted: whoever held the file may have written them. The next post folds
    the log and caches it again (bot/store/snapshots.py)."""
    with _closing(sqlite3.connect(db)) as restored:
        if "snapshot" in _tables(restored):
            restored.execute("DELETE FROM snapshot")
            restored.commit()


def _check_database(connection: sqlite3.Connection, path: Path) -> None:
    try:
        result = connection.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a usable SQLite database ({exc})") from None
    if result is None or result[0] != "ok":
        raise BackupError(f"{path} is damaged: {result[0] if result else 'no answer to quick_check'}")


@contextmanager
def _replacing(target: Path) -> Iterator[Path]:
    """A temporary path beside ``target``, renamed onto it when the block succeeds and removed if it fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temp = Path(name)
    try:
        yield temp
        os.replace(temp, target)
        _fsync_dir(target.parent)
    finally:
        for leftover in (temp, Path(f"{temp}-journal"), Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            leftover.unlink(missing_ok=True)


def _holds_data(db: Path) -> str:
    """What an existing database at ``db`` holds ('' for none): restore must not silently replace it."""
    if not db.exists() or db.stat().st_size == 0:
        return ""
    try:
        with _closing(sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)) as existing:
            tables = _tables(existing)
            if "campaign" in tables:
                campaigns = existing.execute("SELECT count(*) FROM campaign").fetchone()[0]
                if campaigns:
                    return f"{campaigns} campaign(s)"
            for table in sorted(tables - {"alembic_version"}):
                if existing.execute(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone():
                    return f"data (table {table})"
    except sqlite3.DatabaseError:
        return "a file that is not a SQLite database"
    return ""


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _summary(connection: sqlite3.Connection) -> str:
    tables = _tables(connection)
    count = lambda table: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] if table in tables else 0  # noqa: E731
    names = [r[0] for r in connection.execute("SELECT name FROM campaign ORDER BY id")] if "campaign" in tables else []
    return (f"{len(names)} campaign(s) ({', '.join(names) or 'none'}), {count('event')} events, {count('post')} posts, "
            f"{count('draw')} draw results")


def sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("an in-memory database cannot be backed up or restored")
    return Path(parsed.database)


def redacted(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def libpq_url(url: str) -> str:
    # pg_dump knows postgresql://, not SQLAlchemy's driver suffix; the password stays out of the shell history.
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=True).replace(":***@", "@")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    # The rename itself is durable only once the directory is flushed (POSIX; not possible on Windows).
    if os.name == "posix":
        _fsync(path)


@contextmanager
def _closing(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    # sqlite3's own context manager commits but does not close.
    try:
        yield connection
    finally:
        connection.close()
