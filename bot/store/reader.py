"""A read-only look at a SQLite campaign store through Python's own ``sqlite3``: what `legatus map`, `chart`,
`state` and `ledger` need (a campaign's log, its sealed contents and its cached fold), without importing
SQLAlchemy, sqlmodel or alembic, whose import alone costs a command several times its work.

It reads only a store at the newest schema (``bot/store/revision.py``) and never writes: a database that is
missing, older, on another server, or unreadable in any way gives ``None`` from ``open_store``, and the caller
takes the full path (``bot.service.Legatus``), which upgrades, explains or fails as it always did. The fold is the
service's: the same snapshot, checked the same way (``bot/store/fold_key.py``), then the events after it with
their sealed contents.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.store.campaign_names import pick
from bot.store.fold_key import snapshot_key, sound_fold
from bot.store.revision import HEAD_REVISION
from engine.events import Event
from engine.log import Folded, replay, step
from engine.ruleset import Ruleset
from engine.rulesets import load_ruleset

DEFAULT_DB = "legatus.db"  # as bot/store/db.py


@dataclass(frozen=True)
class CampaignRecord:
    id: int
    name: str
    ruleset: str


def sqlite_path(db: str | os.PathLike[str] | None) -> Path | None:
    """The SQLite file a ``--db`` (or $DATABASE_URL, or the default) names; None for any other kind of database."""
    text = str(db) if db is not None else (os.environ.get("DATABASE_URL") or DEFAULT_DB)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        return None
    return Path(text)


class ReadOnlyStore:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def campaign(self, name: str | None) -> CampaignRecord:
        """The campaign ``name`` names (the only one when None); CampaignNotFound as the service words it."""
        rows = self.connection.execute("SELECT id, name, ruleset FROM campaign ORDER BY id").fetchall()
        chosen = pick(name, [str(r[1]) for r in rows])
        row = next(r for r in rows if r[1] == chosen)
        return CampaignRecord(int(row[0]), str(row[1]), str(row[2]))

    def export(self, campaign: CampaignRecord) -> str:
        rows = self.connection.execute("SELECT body FROM event WHERE campaign_id = ? ORDER BY seq", (campaign.id,))
        return "".join(str(r[0]) + "\n" for r in rows)

    def events(self, campaign: CampaignRecord, after: int = 0) -> list[Event]:
        rows = self.connection.execute(
            "SELECT body FROM event WHERE campaign_id = ? AND seq > ? ORDER BY seq", (campaign.id, after))
        return [Event.from_dict(json.loads(r[0])) for r in rows]

    def _with_secrets(self, campaign: CampaignRecord, events: list[Event], after: int = 0) -> list[Event]:
        rows = self.connection.execute(
            "SELECT seq, content, salt FROM sealed_content WHERE campaign_id = ? AND seq > ?", (campaign.id, after))
        kept = {int(seq): {"content": json.loads(content), "salt": salt} for seq, content, salt in rows}
        return [replace(e, secret=kept[e.seq]) if e.seq in kept else e for e in events] if kept else events

    def _snapshot(self, campaign: CampaignRecord, key: str) -> Folded | None:
        row = self.connection.execute(
            "SELECT seq, head, key, body FROM snapshot WHERE campaign_id = ?", (campaign.id,)).fetchone()
        if row is None:
            return None
        seq, head, stored_key, body = int(row[0]), str(row[1]), str(row[2]), row[3]
        event = self.connection.execute(
            "SELECT body FROM event WHERE campaign_id = ? AND seq = ?", (campaign.id, seq)).fetchone()
        return sound_fold(seq, head, stored_key, body, key, event[0] if event else None, campaign.id)

    def fold(self, campaign: CampaignRecord, data_dir: Path) -> tuple[Ruleset, Folded]:
        """The campaign's fold as the service makes it: the sound snapshot and the events after it, else the log."""
        ruleset = load_ruleset(campaign.ruleset, data_dir)
        folded = self._snapshot(campaign, snapshot_key(ruleset, data_dir))
        if folded is None:
            return ruleset, replay(ruleset, self._with_secrets(campaign, self.events(campaign)))
        for event in self._with_secrets(campaign, self.events(campaign, folded.last_seq), folded.last_seq):
            folded, _ = step(ruleset, folded, event)
        return ruleset, folded

    def close(self) -> None:
        self.connection.close()


def open_store(db: str | os.PathLike[str] | None) -> ReadOnlyStore | None:
    """The store read-only, or None when the full path must answer (not SQLite, missing, not at the newest
    schema, or unreadable)."""
    path = sqlite_path(db)
    if path is None or not path.is_file():
        return None
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5, isolation_level=None)
        connection.execute("BEGIN")  # one read transaction: the snapshot and the events after it agree
        revisions = {str(r[0]) for r in connection.execute("SELECT version_num FROM alembic_version")}
        for table, columns in (("campaign", "id, name, ruleset"), ("event", "campaign_id, seq, body"),
                               ("snapshot", "campaign_id, seq, head, key, body"),
                               ("sealed_content", "campaign_id, seq, content, salt")):
            connection.execute(f"SELECT {columns} FROM {table} LIMIT 0")  # noqa: S608 (fixed names)
    except sqlite3.Error:
        return None
    if revisions != {HEAD_REVISION}:
        connection.close()
        return None
    return ReadOnlyStore(connection)


def read_fold(db: str | os.PathLike[str] | None, campaign: str | None, data_dir: Path) -> tuple[Ruleset, Folded, Any] | None:
    """(ruleset, fold, the store) of the campaign, read-only; None when the full path must answer. Raises
    CampaignNotFound for an unknown campaign, as the service does."""
    store = open_store(db)
    if store is None:
        return None
    try:
        ruleset, folded = store.fold(store.campaign(campaign), data_dir)
    except sqlite3.Error:
        store.close()
        return None
    return ruleset, folded, store
