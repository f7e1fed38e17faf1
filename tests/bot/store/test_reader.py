"""The read-only reader (bot/store/reader.py) folds a campaign exactly as the service does, from the same snapshot
or from the log, never writes, and steps aside (None) for any store it cannot read as it is."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.cli import reading
from bot.service.legatus import Legatus
from bot.store import reader
from bot.store.campaign_names import CampaignNotFound
from bot.store.db import open_engine
from bot.store.revision import HEAD_REVISION
from engine import canonical
from engine.events import Event
from engine.log import replay
from tests.conftest import LOTTO, PLAYERS


@pytest.fixture
def played(tmp_path: Path) -> Path:
    path = tmp_path / "camp.db"
    service = Legatus(open_engine(path))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    for user in ("antiochus", "ptolemy", "philip", "scipio", "hanno", "brennus"):
        service.post(user, "pass")
    service.engine.dispose()
    return path


def digest(path: Path) -> str:
    """The database and its write-ahead log (the -shm file is SQLite's shared index, which readers update)."""
    files = [p for p in (path, path.with_name(path.name + "-wal")) if p.exists()]
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()


def test_the_reader_folds_as_the_service_does_and_writes_nothing(played: Path) -> None:
    service = Legatus(open_engine(played))
    expected = canonical.dumps(service.state("c"))
    export = service.export("c")
    service.engine.dispose()
    before = digest(played)
    store = reader.open_store(played)
    assert store is not None
    ruleset, folded = store.fold(store.campaign(None), service.data_dir)
    assert canonical.dumps(ruleset.public_view(folded.state)) == expected
    assert store.export(store.campaign("c")) == export
    store.close()
    assert digest(played) == before, "a reader never writes"
    with pytest.raises(CampaignNotFound, match="no campaign called 'x'; campaigns here: c"):
        reading.folded(played, "x")


def test_a_snapshot_that_does_not_fit_the_log_is_not_used(played: Path) -> None:
    service = Legatus(open_engine(played))
    expected = canonical.dumps(service.state("c"))
    events = [Event.from_dict(json.loads(line)) for line in service.export("c").splitlines()]
    ruleset = service.ruleset_of("c")
    service.engine.dispose()
    # Another log's fold (here: this one's first events) passed off as this log's, as a restored file could.
    other = replay(ruleset, events[:3])
    with sqlite3.connect(played) as connection:
        seq = connection.execute("SELECT seq FROM snapshot").fetchone()[0]
        body = pickle.dumps(dataclasses.replace(other, last_seq=seq, head="0" * 64))
        connection.execute("UPDATE snapshot SET head = ?, body = ?", ("0" * 64, body))
    ruleset, state = reading.folded(played, "c")
    assert canonical.dumps(ruleset.public_view(state)) == expected
    with sqlite3.connect(played) as connection:  # an unreadable body is no snapshot either
        connection.execute("UPDATE snapshot SET body = ?", (b"not a pickle",))
    ruleset, state = reading.folded(played, "c")
    assert canonical.dumps(ruleset.public_view(state)) == expected


def test_it_steps_aside_for_what_it_cannot_read(played: Path, tmp_path: Path) -> None:
    assert reader.open_store(tmp_path / "missing.db") is None
    assert reader.sqlite_path("postgresql+psycopg://u@127.0.0.1/x") is None
    assert reader.sqlite_path(f"sqlite:///{played}") == played
    with sqlite3.connect(played) as connection:  # another schema: left to the service, which upgrades or explains
        connection.execute("UPDATE alembic_version SET version_num = '0001'")
    assert reader.open_store(played) is None
    with sqlite3.connect(played) as connection:
        connection.execute("UPDATE alembic_version SET version_num = ?", (HEAD_REVISION,))
    assert reader.open_store(played) is not None
    (tmp_path / "junk.db").write_bytes(b"not a database at all" * 100)
    assert reader.open_store(tmp_path / "junk.db") is None


def test_the_snapshot_key_is_computed_only_where_a_snapshot_is_there_to_check(
        played: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = Legatus(open_engine(played))
    expected = canonical.dumps(service.state("c"))
    service.engine.dispose()
    key_of, events_of = reader.snapshot_key, reader.SqlitePostStore.events
    keys: list[str] = []
    read_after: list[int] = []

    def counted_key(ruleset: Any, data_dir: Path) -> str:
        keys.append(key_of(ruleset, data_dir))
        return keys[-1]

    def counted_events(rows: reader.SqlitePostStore, campaign_id: int, after: int = 0) -> list[Event]:
        read_after.append(after)
        return events_of(rows, campaign_id, after)

    monkeypatch.setattr(reader, "snapshot_key", counted_key)
    monkeypatch.setattr(reader.SqlitePostStore, "events", counted_events)
    ruleset, state = reading.folded(played, "c")
    assert canonical.dumps(ruleset.public_view(state)) == expected
    assert len(keys) == 1 and read_after[0] > 0, "the snapshot was checked and used: only the events after it read"
    with sqlite3.connect(played) as connection:
        connection.execute("DELETE FROM snapshot")
    keys.clear()
    read_after.clear()
    ruleset, state = reading.folded(played, "c")
    assert canonical.dumps(ruleset.public_view(state)) == expected
    assert keys == [] and read_after == [0], "no snapshot: no key computed, the whole log folded"
