"""Schema migrations: every database, old or new, SQLite or PostgreSQL, is brought to the newest schema at start-up."""
from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from sqlmodel import Session, SQLModel

from bot.db import (
    current_revision, head_revision, open_engine, open_engine_unmigrated, register_tables, table_names, upgrade,
)
from bot.service import Legatus
from bot.store import CampaignRow, find_campaign
from tests.bot.databases import db_url, log_state  # noqa: F401  (db_url is a fixture)

DATA = Path(__file__).resolve().parent / "data"
# Made by Legatus at commit d27645c (before migrations, and before the fetched_draw table): a campaign
# 'ostia' on the draws of January 2023, turn 1 under way; legatus-v0.log is its export at that time.
V0_DB = DATA / "legatus-v0.db"
V0_LOG = DATA / "legatus-v0.log"


def schema_differences(url: str) -> list[object]:
    register_tables()
    engine = open_engine_unmigrated(url)
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), SQLModel.metadata))


def test_the_revisions_build_exactly_the_models_schema(db_url: str) -> None:
    open_engine(db_url)
    # What `alembic revision --autogenerate` would write: nothing, or a model changed without a revision.
    assert schema_differences(db_url) == []


def test_each_revision_upgrades_the_one_before(db_url: str) -> None:
    engine = open_engine_unmigrated(db_url)
    upgrade(engine, "0001")
    assert current_revision(engine) == "0001"
    assert "posted" not in table_names(engine)
    with Session(engine) as session:
        session.add(CampaignRow(name="kept", ruleset="mare-nostrum", gm="gm"))
        session.commit()
    engine = open_engine(db_url)
    assert current_revision(engine) == head_revision() != "0001"
    assert "posted" in table_names(engine)
    with Session(engine) as session:
        assert find_campaign(session, "kept") is not None


def test_a_database_made_before_migrations_is_adopted(db_url: str) -> None:
    engine = open_engine_unmigrated(db_url)
    upgrade(engine, "0001")
    with engine.begin() as connection:
        # What create_all left before migrations: the tables and no alembic_version.
        connection.execute(text("DROP TABLE alembic_version"))
    with Session(engine) as session:
        session.add(CampaignRow(name="old", ruleset="mare-nostrum", gm="gm", channel_id="7"))
        session.commit()
    engine.dispose()
    engine = open_engine(db_url)
    assert current_revision(engine) == head_revision()
    with Session(engine) as session:
        old = find_campaign(session, "old")
        assert old is not None and old.channel_id == "7"
    assert schema_differences(db_url) == []


def test_the_v0_file_is_upgraded_and_its_campaign_replays(tmp_path: Path) -> None:
    db = tmp_path / "legatus.db"
    shutil.copyfile(V0_DB, db)
    with sqlite3.connect(db) as plain:
        before = {r[0] for r in plain.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert before == {"campaign", "event", "post", "draw"}

    service = Legatus(open_engine(db))
    assert current_revision(service.engine) == head_revision()
    assert {"fetched_draw", "posted", "alembic_version"} <= table_names(service.engine)
    assert schema_differences(str(db)) == []
    # Not one byte of the campaign changed, and it still folds to the state its log gives.
    log = V0_LOG.read_text(encoding="utf-8")
    assert service.export("ostia") == log
    state = service.state("ostia")
    assert state == log_state(log)
    assert (state["turn"], state["phase"], state["to_play"]) == (1, "orders", "Ptolemaics")
    assert state["nations"]["Seleucids"]["treasury"] == 7
    assert state["provinces"]["Syria"]["suburbs"] is True
    # The upgraded campaign goes on: the next post appends to the same log.
    assert service.post("ptolemy", "pass", "ostia").ok
    assert service.export("ostia").startswith(log)


def test_an_older_campaign_table_gains_its_new_column(tmp_path: Path) -> None:
    db = tmp_path / "legatus.db"
    shutil.copyfile(V0_DB, db)
    with sqlite3.connect(db) as plain:
        # The very first schema (commit d72a33e) had no gm_role_id.
        plain.execute("ALTER TABLE campaign DROP COLUMN gm_role_id")
    engine = open_engine(db)
    with Session(engine) as session:
        ostia = find_campaign(session, "ostia")
        assert ostia is not None and ostia.gm_role_id is None
    assert schema_differences(str(db)) == []


def test_processes_starting_together_migrate_once(tmp_path: Path) -> None:
    db = tmp_path / "legatus.db"
    errors: list[BaseException] = []

    def start() -> None:
        try:
            open_engine(db).dispose()
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert current_revision(open_engine(db)) == head_revision()
