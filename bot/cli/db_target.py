"""The database a command's ``--db`` names, checked before anything opens it.

SQLite creates a file for any path it is asked to open: a mistyped ``--db`` on a command that only reads made an
empty database (and its -wal and -shm) out of the typo, and a URI given as a path (``file:x.db?mode=ro``) became a
file of that very name. Only the commands that make a store (``new``, ``run``, ``console``, ``lotto import``,
``lotto fetch``, ``restore``) may start from nothing; every other one says there is no database and creates none.
Standard library only: `legatus post` and the readers start without SQLAlchemy.
"""
from __future__ import annotations

import os

from bot.store.sqlite_post_store import sqlite_path


def problem(db: str | os.PathLike[str] | None, *, creates: bool) -> str | None:
    """One line saying why the command must not open ``db``, or None when it may."""
    if db is not None:
        text = str(db)
        if text.startswith("file:") or ("?" in text and "://" not in text):
            return (f"--db '{text[:80]}' is a URI, not a file path: give the SQLite file as a path "
                    "(e.g. --db campaign.db), or another database as DATABASE_URL")
        if "://" in text and ("?" in text or "file:" in text):
            return None  # a SQLAlchemy URL with SQLite's own options (e.g. mode=ro): SQLite reads it as it is told
    path = sqlite_path(db)
    if path is None or creates or str(path) == ":memory:" or path.exists():
        return None
    return (f"there is no database at {path}: check --db (or $DATABASE_URL); "
            f"`legatus new --db {path}` creates a campaign there")
