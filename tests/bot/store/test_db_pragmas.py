"""SQLite's settings that keep a months-long campaign safe, read back from a real file."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from bot.store.db import database_url, open_engine
from bot.store.campaigns import EventRow


def test_every_connection_gets_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "camp.db")
    with engine.connect() as connection:
        read = {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar() for name in
                ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")}
    assert read == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 5000, "synchronous": 1}


def test_wal_is_written_into_the_file_itself(tmp_path: Path) -> None:
    open_engine(tmp_path / "camp.db").dispose()
    # A plain connection (a backup tool, sqlite3 on the command line) sees the file in WAL mode too.
    with sqlite3.connect(tmp_path / "camp.db") as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "camp.db")
    with Session(engine) as session:
        session.add(EventRow(campaign_id=999, seq=1, kind="x", actor="gm", body="{}"))
        with pytest.raises(IntegrityError):
            session.commit()


def test_a_path_is_a_sqlite_url_and_database_url_applies_only_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert database_url() == "postgresql+psycopg://u@h/db"
    assert database_url(tmp_path / "a.db") == f"sqlite:///{(tmp_path / 'a.db').resolve()}"
    monkeypatch.delenv("DATABASE_URL")
    assert database_url().endswith("/legatus.db")
