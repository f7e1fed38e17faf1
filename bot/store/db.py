"""Opening the campaign store: sqlmodel over SQLite by default, any SQLAlchemy URL when configured.

The schema is owned by the alembic revisions in ``bot/store/migrations``: opening a database brings it to the
newest revision, so a database made by any earlier version of Legatus (even one from before migrations,
which only ever ran ``create_all``) is upgraded in place at start-up.
"""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import create_engine

from bot.store.revision import HEAD_REVISION

DEFAULT_DB = "legatus.db"
# HEAD_REVISION is the newest revision in bot/store/migrations/versions (tests/bot/store/test_migrations.py checks
# it is): a database already there opens with one plain read, without importing alembic nor taking a write lock.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any fixed number: every Legatus process that opens a PostgreSQL store takes this lock to migrate it.
_PG_MIGRATION_LOCK = 0x4C454741
# Tables in the same database that the migrations do not own: apscheduler's SQLAlchemyJobStore creates and
# manages its own (bot/schedule/scheduler/), so autogenerate must never propose dropping or altering it.
FOREIGN_TABLES = frozenset({"apscheduler_jobs"})


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """A path becomes a SQLite URL; ``DATABASE_URL`` applies only when no path is given."""
    if db is None:
        env = os.environ.get("DATABASE_URL")
        if env:
            return env
        db = DEFAULT_DB
    text_ = str(db)
    if "://" in text_:
        return text_
    return f"sqlite:///{Path(text_).resolve()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=5000")
    # WAL lets readers (a backup, the map renderer) work while the bot writes.
    _wal(cursor)
    cursor.execute("PRAGMA foreign_keys=ON")
    # NORMAL in WAL mode can lose the last commits on power loss but never corrupts the file; the posts
    # themselves stay in Discord, so a lost tail can be re-read.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _wal(cursor: Any, patience: float = 30.0) -> None:
    """Switch to WAL (a no-op once the file is in it: the mode is kept in the file). A new file that several
    processes open at once: SQLite refuses the switch at once, without its busy wait, to all but the first, so the
    others try again until the first is done (CI saw "database is locked" from four processes starting together)."""
    import sqlite3
    import time

    deadline = time.monotonic() + patience
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def register_tables() -> None:
    """Import every table module, so that SQLModel.metadata holds the whole schema (for migrations' checks)."""
    from bot.store import (  # noqa: F401
        campaign_secret, campaigns, discord_places, draws, fetched_draws, player_settings, posted, read_marks,
        schedule_tables, sealed, snapshots,
    )


def include_object(object_: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """Alembic's ``include_object`` hook (bot/store/migrations/env.py): leave out the tables in FOREIGN_TABLES."""
    # A column, index or constraint goes with its table.
    table = name if type_ == "table" else getattr(getattr(object_, "table", None), "name", None)
    # A sharded bot's scheduler keeps one job table per shard (apscheduler_jobs_shard_0_of_2, ...).
    return table not in FOREIGN_TABLES and not str(table).startswith("apscheduler_jobs_shard_")


def alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    config = Config(stdout=sys.stdout)  # alembic's default is the sys.stdout of its import time, maybe long closed
    config.set_main_option("script_location", str(MIGRATIONS))
    # env.py uses this connection, so the upgrade runs in the caller's transaction and engine settings.
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision``; a no-op when it is there already."""
    from alembic import command

    register_tables()
    with writer(engine).connect() as connection, _patient(connection), connection.begin():
        if connection.dialect.name == "postgresql":
            # Two processes starting together (the bot and the scheduler) must not both create the tables.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        # On SQLite the writer's BEGIN IMMEDIATE (``_sqlite_begin``) makes the whole upgrade atomic (a crash or a
        # full disk mid-way leaves the old schema) and takes the write lock first, so a second process starting
        # at once waits (busy_timeout), then finds the work done.
        command.upgrade(alembic_config(connection), revision)


# How long a process starting beside one that is migrating the same SQLite file waits for it: a migration from
# nothing on a loaded machine can outlast the busy timeout posts use (5 s), and the waiter then failed with
# "database is locked" instead of finding the work done.
MIGRATION_WAIT_MS = 120_000


@contextlib.contextmanager
def _patient(connection: Connection) -> Iterator[None]:
    if connection.dialect.name != "sqlite":
        yield
        return
    # On the driver's connection: through SQLAlchemy the statement would begin the transaction, whose BEGIN
    # IMMEDIATE is the wait this is for.
    raw = connection.connection.driver_connection
    assert raw is not None  # the connection the migration runs on is open
    raw.execute(f"PRAGMA busy_timeout={MIGRATION_WAIT_MS}")
    try:
        yield
    finally:
        raw.execute("PRAGMA busy_timeout=5000")  # back to the pool as every connection is


# Execution option: transactions on an engine carrying it take SQLite's write lock at BEGIN (see ``writer``).
IMMEDIATE = "legatus_immediate"


def _sqlite_connect(dbapi_connection: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_connection, record)
    # SQLAlchemy's documented pysqlite recipe: the driver must not begin transactions on its own, so that the
    # "begin" event below decides how each one begins (and SAVEPOINTs work as documented).
    dbapi_connection.isolation_level = None


def _sqlite_begin(connection: Connection) -> None:
    # A writer takes the lock once, at BEGIN: it reads the log and appends to it with no other writer in
    # between, so two posts can never both take the same next sequence number. Readers stay deferred (WAL:
    # they never wait for a writer).
    immediate = connection.get_execution_options().get(IMMEDIATE)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def writer(engine: Engine) -> Engine:
    """The same engine (same pool) whose transactions begin by taking the write lock (BEGIN IMMEDIATE on SQLite;
    a no-op elsewhere, where the unique (campaign_id, seq) constraint and the retry in Legatus.post do the work)."""
    return engine.execution_options(**{IMMEDIATE: True})


def after_outer_commit(session: Any, callback: Any) -> None:
    """Call ``callback()`` once the session's outermost transaction commits, and never if the transaction (or
    SAVEPOINT) open now is rolled back first. SQLAlchemy's own ``after_commit`` fires at every SAVEPOINT's release
    too: a post applied inside its savepoint (``Legatus.post_many``) is not committed then, and may never be."""
    opened = session.get_nested_transaction() or session.get_transaction()
    chain = []  # the transactions themselves, not their ids: an id is reused once its object is gone
    while opened is not None:
        chain.append(opened)
        opened = opened.parent

    live = [True]  # listeners cannot be removed while SQLAlchemy runs them: they fall silent instead

    def committed(done: Any) -> None:
        if not live[0] or done.get_nested_transaction() is not None:
            return  # told already, or a savepoint released: the outer transaction may still roll back
        live[0] = False
        callback()

    def rolled_back(_session: Any, transaction: Any) -> None:
        if any(transaction is t for t in chain):
            live[0] = False

    event.listen(session, "after_commit", committed)
    event.listen(session, "after_soft_rollback", rolled_back)


def lock_campaign(session: Any, campaign_id: int) -> None:
    """Serialise writers of one campaign for the rest of the transaction. SQLite already holds the database's write
    lock (``writer``); on PostgreSQL an advisory transaction lock per campaign makes concurrent posts queue instead
    of racing for the next event number and retrying (8 processes x 15 posts gave up without it)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": 0x4C47_0000 + int(campaign_id)})


def open_engine_unmigrated(db: str | os.PathLike[str] | None = None) -> Engine:
    """The engine with its connection settings, leaving the schema as it is (for migrations and backups)."""
    engine = create_engine(database_url(db))
    if engine.dialect.name == "sqlite":
        _private_sqlite_file(engine)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _private_sqlite_file(engine: Engine) -> None:
    """A new database file is made 0600 before SQLite makes it 0644 (bot/store/private_files.py); not for an
    in-memory database nor a ``file:`` URI, whose options (mode=ro) say how to open it."""
    name = engine.url.database
    if name and name != ":memory:" and not name.startswith("file:") and not engine.url.query.get("uri"):
        from bot.store.private_files import private_database

        private_database(Path(name))


def stored_revisions(engine: Engine) -> set[str]:
    """The revisions the alembic_version table records (none for an empty or pre-migration database), read with
    a plain query: no alembic import, and only a read lock (a reader never waits for the bot's writes in WAL)."""
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return set()
        return {str(r[0]) for r in connection.execute(text("SELECT version_num FROM alembic_version"))}


def open_engine(db: str | os.PathLike[str] | None = None) -> Engine:
    """The engine of a database at the newest schema: upgraded first (under a write lock) only if it is not."""
    engine = open_engine_unmigrated(db)
    if stored_revisions(engine) != {HEAD_REVISION}:
        upgrade(engine)
    from bot.store.sealed import encrypt_plain_rows

    encrypt_plain_rows(engine)  # rows an older version kept in clear: one query when there are none
    return engine


def check_writable(engine: Engine) -> None:
    """Raise the database's own error now if it cannot be written (read-only file, folder or mode=ro)."""
    with engine.connect() as connection:
        # Deletes nothing, yet opens a write transaction: SQLite refuses it at once on a read-only database.
        connection.execute(text("DELETE FROM alembic_version WHERE 1 = 0"))
        connection.rollback()


def table_names(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


__all__ = [
    "DEFAULT_DB", "FOREIGN_TABLES", "HEAD_REVISION", "IMMEDIATE", "after_outer_commit", "alembic_config", "check_writable",
    "current_revision", "database_url", "head_revision", "include_object", "lock_campaign", "open_engine", "open_engine_unmigrated",
    "register_tables", "stored_revisions", "table_names", "upgrade", "writer",
]
