"""The post store (``bot/store/post_store.py``) over Python's own ``sqlite3``: how `legatus post` writes a post when no
bot serves the file, without importing SQLAlchemy, sqlmodel or alembic (their import alone is several times the
post's own work: bench/startup.py).

Like the read-only reader (``bot/store/reader.py``) it takes only a SQLite file at the newest schema
(``bot/store/revision.py``): a database that is missing, older, on another server or unreadable gives ``None`` from
``open_post_store``, and the caller takes the service, which upgrades, explains or fails as it always did. The rows
it writes are the service's, column for column (tests/bot/store/test_sqlite_post_store.py compares both); what it
does not do raises ``NeedsFullStore`` before anything is committed.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from bot.store.at_rest import open_row, seal_row
from bot.store.campaign_names import pick
from bot.store.deadline_states import ACTIVE, PLAYER_TURN
from bot.store.fold_key import EVERY, snapshot_body, sound_fold
from bot.store.log_damage import event_from_body
from bot.store.post_store import NeedsFullStore
from bot.store.revision import HEAD_REVISION
from bot.store.server_key import seed_from_stored
from engine.events import Event
from engine.log import Folded
from engine.lotto import Draw

DEFAULT_DB = "legatus.db"  # as bot/store/db.py
# SQLAlchemy's way of keeping a DateTime in SQLite (naive, the moment in UTC): the post table's `at` column.
SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"


@dataclass(frozen=True)
class CampaignRecord:
    """What a post reads of its campaign's row (``bot.store.campaigns.CampaignRow`` on the service's side)."""

    id: int
    name: str
    ruleset: str
    gm: str
    clock: str


def sqlite_path(db: str | os.PathLike[str] | None) -> Path | None:
    """The SQLite file a ``--db`` (or $DATABASE_URL, or the default) names; None for any other kind of database."""
    text = str(db) if db is not None else (os.environ.get("DATABASE_URL") or DEFAULT_DB)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        return None
    return Path(text)


def at_newest_schema(connection: sqlite3.Connection) -> bool:
    """Whether the store records the newest alembic revision (and that one only): the schema the SQL here is for."""
    return {str(r[0]) for r in connection.execute("SELECT version_num FROM alembic_version")} == {HEAD_REVISION}


class SqlitePostStore:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self._unsound: set[int] = set()  # campaigns whose stored snapshot was found unsound: rewritten

    @property
    def session(self) -> Any:
        raise NeedsFullStore("this post needs the service's store")

    # --- the transaction ----------------------------------------------------------------------------------------

    def campaign(self, name: str | None) -> CampaignRecord:
        """The campaign ``name`` names (the only one when None); CampaignNotFound worded as the service words it."""
        rows = self.connection.execute("SELECT id, name, ruleset, gm, clock FROM campaign ORDER BY id").fetchall()
        chosen = pick(name, [str(r[1]) for r in rows])
        row = next(r for r in rows if r[1] == chosen)
        return CampaignRecord(int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]))

    def append(self, campaign_id: int, events: list[Event], post: dict[str, Any]) -> None:
        """The post's events and its record, as ``bot.store.campaigns.insert_rows`` writes them."""
        self.connection.executemany(
            "INSERT INTO event (campaign_id, seq, kind, actor, body) VALUES (?, ?, ?, ?, ?)",
            [(campaign_id, e.seq, e.kind, e.actor, e.to_line()) for e in events])
        at = post["at"]
        self.connection.execute(
            "INSERT INTO post (campaign_id, author, text, answer, first_seq, last_seq, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (post["campaign_id"], post["author"], post["text"], post["answer"], post["first_seq"], post["last_seq"],
             at.strftime(SQLITE_DATETIME) if isinstance(at, datetime) else str(at)))

    def commit(self) -> None:
        self.connection.execute("COMMIT")

    def close(self) -> None:
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")
        self.connection.close()

    # --- the port -------------------------------------------------------------------------------------------------

    def snapshot(self, campaign_id: int, key: str) -> Folded | None:
        row = self.connection.execute(
            "SELECT seq, head, key, body FROM snapshot WHERE campaign_id = ?", (campaign_id,)).fetchone()
        if row is None:
            return None
        seq, head, stored_key, body = int(row[0]), str(row[1]), str(row[2]), row[3]
        event = self.connection.execute(
            "SELECT body FROM event WHERE campaign_id = ? AND seq = ?", (campaign_id, seq)).fetchone()
        folded = sound_fold(seq, head, stored_key, body, key, event[0] if event else None, campaign_id)
        if folded is None:
            self._unsound.add(campaign_id)
        return folded

    def events(self, campaign_id: int, after: int = 0) -> list[Event]:
        rows = self.connection.execute(
            "SELECT seq, body FROM event WHERE campaign_id = ? AND seq > ? ORDER BY seq", (campaign_id, after))
        return [event_from_body(body, seq) for seq, body in rows]

    def sealed_after(self, campaign_id: int, after: int = 0) -> dict[int, dict[str, Any]]:
        rows = self.connection.execute(
            "SELECT seq, content, salt FROM sealed_content WHERE campaign_id = ? AND seq > ?", (campaign_id, after))
        return {int(seq): open_row(campaign_id, int(seq), content, salt) for seq, content, salt in rows}

    def sealed(self, campaign_id: int, seq: int) -> dict[str, Any] | None:
        row = self.connection.execute(
            "SELECT content, salt FROM sealed_content WHERE campaign_id = ? AND seq = ?", (campaign_id, seq)).fetchone()
        return None if row is None else open_row(campaign_id, seq, row[0], row[1])

    def keep_sealed(self, campaign_id: int, seq: int, secret: dict[str, Any]) -> None:
        self.connection.execute(
            "INSERT INTO sealed_content (campaign_id, seq, content, salt) VALUES (?, ?, ?, ?)",
            (campaign_id, seq, *seal_row(campaign_id, seq, secret)))

    def keep_snapshot(self, campaign_id: int, key: str, folded: Folded) -> None:
        """As ``bot.store.snapshots.store``: rewritten only when missing, unsound, of another key or EVERY behind."""
        row = self.connection.execute("SELECT seq, key FROM snapshot WHERE campaign_id = ?", (campaign_id,)).fetchone()
        if (row is not None and row[1] == key and campaign_id not in self._unsound
                and 0 <= folded.last_seq - int(row[0]) < EVERY):
            return
        body = snapshot_body(campaign_id, key, folded)
        if body is None:
            return
        self.connection.execute(
            "INSERT INTO snapshot (campaign_id, seq, head, key, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT (campaign_id) "
            "DO UPDATE SET seq = excluded.seq, head = excluded.head, key = excluded.key, body = excluded.body",
            (campaign_id, folded.last_seq, folded.head, key, body))
        self._unsound.discard(campaign_id)

    def draw(self, day: date) -> Draw | None:
        rows = self.connection.execute(
            "SELECT wheel, n1, n2, n3, n4, n5 FROM draw WHERE date = ?", (day.isoformat(),)).fetchall()
        if not rows:
            return None
        return Draw(day, {str(wheel): (n1, n2, n3, n4, n5) for wheel, n1, n2, n3, n4, n5 in rows})

    def draw_source(self, day: date) -> str:
        rows = self.connection.execute("SELECT DISTINCT source FROM draw WHERE date = ?", (day.isoformat(),))
        return "; ".join(sorted(str(r[0]) for r in rows))

    def draw_dates_after(self, day: date, limit: int) -> list[date]:
        if limit <= 0:
            return []
        rows = self.connection.execute(
            "SELECT DISTINCT date FROM draw WHERE date > ? ORDER BY date LIMIT ?", (day.isoformat(), limit))
        return [date.fromisoformat(r[0]) for r in rows]

    def first_draw_day_on_or_after(self, day: date) -> date | None:
        row = self.connection.execute("SELECT min(date) FROM draw WHERE date >= ?", (day.isoformat(),)).fetchone()
        return date.fromisoformat(row[0]) if row and row[0] else None

    def latest_draw_date(self) -> date | None:
        row = self.connection.execute("SELECT max(date) FROM draw").fetchone()
        return date.fromisoformat(row[0]) if row and row[0] else None

    def seed_of(self, campaign_id: int) -> str | None:
        row = self.connection.execute("SELECT seed FROM campaign_secret WHERE campaign_id = ?", (campaign_id,)).fetchone()
        return None if row is None else seed_from_stored(str(row[0]))

    def turn_deadlines(self, campaign_id: int) -> list[tuple[str | None, datetime, str]]:
        rows = self.connection.execute(
            f"SELECT seat, due_at, state FROM deadline WHERE campaign_id = ? AND kind = ? AND state IN "
            f"({', '.join('?' for _ in ACTIVE)}) ORDER BY due_at, id", (campaign_id, PLAYER_TURN, *ACTIVE))
        # Kept as SQLAlchemy keeps a UtcDateTime in SQLite: naive, in UTC.
        return [(seat, datetime.fromisoformat(due).replace(tzinfo=timezone.utc), str(state)) for seat, due, state in rows]

    def flush(self) -> None:
        """Nothing to send: each statement ran as it came."""


def open_post_store(db: str | os.PathLike[str] | None) -> SqlitePostStore | None:
    """The store with its write transaction begun (the write lock taken, as the service's writer does), or None when
    the service must answer (not SQLite, missing, not at the newest schema, busy past the timeout, unwritable)."""
    path = sqlite_path(db)
    if path is None or not path.is_file():
        return None
    try:
        connection = sqlite3.connect(path, timeout=5, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute("BEGIN IMMEDIATE")
        if not at_newest_schema(connection):
            raise LookupError("not at the newest schema")
        mode = connection.execute("PRAGMA journal_mode").fetchone()
        if not mode or str(mode[0]).lower() != "wal":
            raise LookupError("not in WAL mode: the service switches it")
    except (sqlite3.Error, LookupError):
        connection.close()
        return None
    return SqlitePostStore(connection)


__all__ = ["CampaignRecord", "SqlitePostStore", "at_newest_schema", "open_post_store", "sqlite_path"]
