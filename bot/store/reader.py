"""A read-only look at a SQLite campaign store through Python's own ``sqlite3``: what `legatus map`, `chart`,
`state` and `ledger` need (a campaign's log, its sealed contents and its cached fold), without importing
SQLAlchemy, sqlmodel or alembic, whose import alone costs a command several times its work.

It reads only a store at the newest schema (``bot/store/revision.py``) and never writes: a database that is
missing, older, on another server, or unreadable in any way gives ``None`` from ``open_store``, and the caller
takes the full path (``bot.service.Legatus``), which upgrades, explains or fails as it always did. The fold is the
service's: the same snapshot, checked the same way (``bot/store/fold_key.py``), then the events after it with
their sealed contents, read by the same queries as the direct writer's (``bot/store/sqlite_post_store.py``).
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from bot.store.fold_key import snapshot_key
from bot.store.post_store import with_secrets
from bot.store.sqlite_post_store import (  # noqa: F401  (sqlite_path: re-exported)
    CampaignRecord, SqlitePostStore, at_newest_schema, sqlite_path,
)
from bot.store.log_damage import checked_export, event_from_body, replayed
from engine.events import Event
from engine.log import Folded, replay, step
from engine.ruleset import Ruleset
from engine.rulesets import load_ruleset


class ReadOnlyStore:
    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.rows = SqlitePostStore(connection)  # its reads only: the connection is opened read-only

    def campaign(self, name: str | None) -> CampaignRecord:
        """The campaign ``name`` names (the only one when None); CampaignNotFound as the service words it."""
        return self.rows.campaign(name)

    def export(self, campaign: CampaignRecord) -> str:
        rows = self.connection.execute("SELECT body FROM event WHERE campaign_id = ? ORDER BY seq", (campaign.id,))
        return checked_export("".join(str(r[0]) + "\n" for r in rows), campaign.name)

    def created(self, campaign: CampaignRecord) -> dict[str, Any]:
        """The data of the campaign's first event (``campaign.created``), read alone."""
        row = self.connection.execute("SELECT body FROM event WHERE campaign_id = ? AND seq = 1", (campaign.id,)).fetchone()
        return event_from_body(row[0], 1).data if row is not None else {}

    def events(self, campaign: CampaignRecord, after: int = 0) -> list[Event]:
        return self.rows.events(campaign.id, after)

    def fold(self, campaign: CampaignRecord, data_dir: Path) -> tuple[Ruleset, Folded]:
        """The campaign's fold as the service makes it: the sound snapshot and the events after it, else the log."""
        ruleset = load_ruleset(campaign.ruleset, data_dir)
        snapshot = self._snapshot(campaign, ruleset, data_dir)

        def fold() -> Folded:
            if snapshot is None:
                return replay(ruleset, with_secrets(self.rows, campaign.id, self.events(campaign)))
            folded = snapshot
            for event in with_secrets(self.rows, campaign.id, self.events(campaign, folded.last_seq), folded.last_seq):
                folded, _ = step(ruleset, folded, event)
            return folded

        return ruleset, replayed(fold, lambda: self.events(campaign), campaign.name)

    def _snapshot(self, campaign: CampaignRecord, ruleset: Ruleset, data_dir: Path) -> Folded | None:
        # The key reads and hashes the engine's code and the rules data: not for a campaign that has no snapshot
        # yet (a new one), whose fold is its few events. Same read transaction: the row cannot come in between.
        if self.connection.execute("SELECT 1 FROM snapshot WHERE campaign_id = ?", (campaign.id,)).fetchone() is None:
            return None
        return self.rows.snapshot(campaign.id, snapshot_key(ruleset, data_dir))

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
        newest = at_newest_schema(connection)
        for table, columns in (("campaign", "id, name, ruleset, gm, clock"), ("event", "campaign_id, seq, body"),
                               ("snapshot", "campaign_id, seq, head, key, body"),
                               ("sealed_content", "campaign_id, seq, content, salt")):
            connection.execute(f"SELECT {columns} FROM {table} LIMIT 0")  # noqa: S608 (fixed names)
    except sqlite3.Error:
        return None
    if not newest:
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
