"""A new SQLite database at the newest schema, for tests that need one but are not about migrating.

``open_engine`` on a new file runs every alembic migration (~20 ms of CPU apiece, some 400 times a run). Here the
migrations run once per test process, into a template file; each new database is a byte-for-byte copy of it, which
``open_engine`` then opens as it opens any database already at the head revision (its migrations skipped). The
migrations themselves are tested on their own (tests/bot/store/test_migrations.py), from nothing and step by step.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from sqlalchemy.engine import Engine

from bot.store.db import open_engine

_template: list[Path] = []


def _migrated_template() -> Path:
    if not _template:
        folder = Path(tempfile.mkdtemp(prefix="legatus-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "migrated.db"
        engine = open_engine(path)
        engine.dispose()  # the last connection closed: the WAL is checkpointed into the file and removed
        leftovers = [p.name for p in folder.iterdir() if p != path]
        assert not leftovers, leftovers
        _template.append(path)
    return _template[0]


def migrated_engine(path: str | os.PathLike[str]) -> Engine:
    """``open_engine(path)`` for a file that does not exist yet, made from the migrated template."""
    target = Path(path)
    assert not target.exists(), f"{target} exists: open it with open_engine"
    shutil.copyfile(_migrated_template(), target)
    return open_engine(target)
