"""Opening the campaign store: sqlmodel over SQLite by default, any SQLAlchemy URL when configured."""
from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, create_engine

DEFAULT_DB = "legatus.db"


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """A path becomes a SQLite URL; ``DATABASE_URL`` applies only when no path is given."""
    if db is None:
        env = os.environ.get("DATABASE_URL")
        if env:
            return env
        db = DEFAULT_DB
    text = str(db)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).resolve()}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    # WAL lets readers (a backup, the map renderer) work while the bot writes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def open_engine(db: str | os.PathLike[str] | None = None) -> Engine:
    url = database_url(db)
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    # Import the table modules so that their tables are registered before create_all.
    from bot import draw_store, lotto_sources, store  # noqa: F401

    SQLModel.metadata.create_all(engine)
    return engine
