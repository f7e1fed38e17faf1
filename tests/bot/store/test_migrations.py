"""Schema migrations: every database, old or new, SQLite or PostgreSQL, is brought to the newest schema at start-up."""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.background import BackgroundScheduler
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, select

from bot.store.db import (
    HEAD_REVISION, alembic_config, current_revision, head_revision, include_object, open_engine,
    open_engine_unmigrated, register_tables, stored_revisions, table_names, upgrade,
)
from bot.store.schedule_tables import REMINDED, CampaignSettingsRow, DeadlineRow
from bot.service.legatus import Legatus
from bot.store.campaigns import CampaignRow, find_campaign
from tests.bot.store.databases import db_url, log_state  # noqa: F401  (db_url is a fixture)

DATA = Path(__file__).resolve().parent / "data"
# Made by Legatus at commit d27645c (before migrations, and before the fetched_draw table): a campaign
# 'ostia' on the draws of January 2023, turn 1 under way; legatus-v0.log is its export at that time.
V0_DB = DATA / "legatus-v0.db"
V0_LOG = DATA / "legatus-v0.log"


def schema_differences(url: str) -> list[object]:
    """What autogenerate would propose, leaving out the tables migrations do not own (as env.py does)."""
    register_tables()
    engine = open_engine_unmigrated(url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"include_object": include_object})
        return list(compare_metadata(context, SQLModel.metadata))


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
    assert {"fetched_draw", "posted", "deadline", "campaign_settings", "alembic_version"} <= table_names(service.engine)
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


# What the scheduler's stopgap ``ensure_tables`` (create_all on a metadata of its own, before revision 0003)
# made, as SQLAlchemy compiled it for each database: no foreign keys, and a SERIAL settings key on PostgreSQL.
STOPGAP_DDL = {
    "sqlite": [
        """CREATE TABLE campaign_settings (
            campaign_id INTEGER NOT NULL, timezone VARCHAR NOT NULL, player_hours INTEGER NOT NULL,
            remind_hours_before INTEGER NOT NULL, on_timeout VARCHAR NOT NULL, PRIMARY KEY (campaign_id))""",
        """CREATE TABLE deadline (
            id INTEGER NOT NULL, campaign_id INTEGER NOT NULL, kind VARCHAR NOT NULL, nation VARCHAR,
            turn INTEGER, due_at DATETIME NOT NULL, remind_at DATETIME, state VARCHAR NOT NULL,
            created_at DATETIME NOT NULL, PRIMARY KEY (id))""",
    ],
    "postgresql": [
        """CREATE TABLE campaign_settings (
            campaign_id SERIAL NOT NULL, timezone VARCHAR NOT NULL, player_hours INTEGER NOT NULL,
            remind_hours_before INTEGER NOT NULL, on_timeout VARCHAR NOT NULL, PRIMARY KEY (campaign_id))""",
        """CREATE TABLE deadline (
            id SERIAL NOT NULL, campaign_id INTEGER NOT NULL, kind VARCHAR NOT NULL, nation VARCHAR,
            turn INTEGER, due_at TIMESTAMP WITHOUT TIME ZONE NOT NULL, remind_at TIMESTAMP WITHOUT TIME ZONE,
            state VARCHAR NOT NULL, created_at TIMESTAMP WITHOUT TIME ZONE NOT NULL, PRIMARY KEY (id))""",
    ],
}
STOPGAP_INDEXES = [
    "CREATE INDEX ix_deadline_campaign_id ON deadline (campaign_id)",
    "CREATE INDEX ix_deadline_due_at ON deadline (due_at)",
    "CREATE INDEX ix_deadline_state ON deadline (state)",
]
DUE = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)


def _stopgap_database(db_url: str) -> Engine:
    """A database at revision 0002 where the stopgap made the scheduler's tables and stored rows in them."""
    engine = open_engine_unmigrated(db_url)
    upgrade(engine, "0002")
    with Session(engine) as session:
        session.add(CampaignRow(name="ostia", ruleset="mare-nostrum", gm="gm"))
        session.commit()
        ostia = find_campaign(session, "ostia")
        assert ostia is not None
        campaign_id = ostia.id
    with engine.begin() as connection:
        for statement in STOPGAP_DDL[engine.dialect.name] + STOPGAP_INDEXES:
            connection.execute(text(statement))
        connection.execute(text(
            "INSERT INTO deadline (campaign_id, kind, nation, turn, due_at, remind_at, state, created_at) VALUES "
            "(:c, 'player_turn', 'Ptolemaics', 3, :due, :remind, 'reminded', :created), "
            "(:c, 'player_turn', 'Seleucids', 2, :created, NULL, 'done', :created), "
            # A row naming no campaign: it cannot stay under the foreign key.
            "(:c + 1000, 'player_turn', 'Romans', 1, :due, NULL, 'pending', :created)"
        ), {"c": campaign_id, "due": DUE.replace(tzinfo=None), "remind": (DUE - timedelta(hours=12)).replace(tzinfo=None),
            "created": datetime(2026, 11, 29, 19, 0)})
        connection.execute(text(
            "INSERT INTO campaign_settings (campaign_id, timezone, player_hours, remind_hours_before, on_timeout) "
            "VALUES (:c, 'America/New_York', 24, 6, 'wait')"
        ), {"c": campaign_id})
    assert current_revision(engine) == "0002"
    return engine


def test_tables_made_by_the_stopgap_are_adopted_with_their_rows(db_url: str) -> None:
    _stopgap_database(db_url).dispose()
    engine = open_engine(db_url)
    assert current_revision(engine) == head_revision()
    assert schema_differences(db_url) == []
    with Session(engine) as session:
        ostia = find_campaign(session, "ostia")
        assert ostia is not None
        rows = session.exec(select(DeadlineRow).order_by(DeadlineRow.id)).all()  # type: ignore[arg-type]
        assert [(d.campaign_id, d.seat, d.turn, d.state) for d in rows] == [
            (ostia.id, "Ptolemaics", 3, REMINDED), (ostia.id, "Seleucids", 2, "done"),
        ]
        assert rows[0].due_at == DUE and rows[0].remind_at == DUE - timedelta(hours=12)
        assert rows[0].created_at == datetime(2026, 11, 29, 19, 0, tzinfo=timezone.utc)
        settings = session.get(CampaignSettingsRow, ostia.id)
        assert settings is not None
        assert (settings.timezone, settings.player_hours, settings.remind_hours_before, settings.on_timeout) == (
            "America/New_York", 24, 6, "wait")
        # New rows go on after the kept ones (PostgreSQL's sequence survived the adoption).
        added = DeadlineRow(campaign_id=ostia.id, seat="Seleucids", turn=3, due_at=DUE)
        session.add(added)
        session.commit()
        assert added.id is not None and added.id > rows[1].id  # type: ignore[operator]
    # The foreign keys hold now.
    for row in (DeadlineRow(campaign_id=9999, due_at=DUE), CampaignSettingsRow(campaign_id=9999)):
        with Session(engine) as session, pytest.raises(IntegrityError):
            session.add(row)
            session.commit()
    # The settings key takes its campaign's id: no SERIAL default left from the stopgap.
    key = next(c for c in inspect(engine).get_columns("campaign_settings") if c["name"] == "campaign_id")
    assert key["default"] is None


def test_the_deadline_revision_downgrades_and_upgrades_again(db_url: str) -> None:
    engine = open_engine(db_url)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0002")
    assert current_revision(engine) == "0002"
    assert not {"deadline", "campaign_settings"} & table_names(engine)
    engine = open_engine(db_url)
    assert current_revision(engine) == head_revision()
    assert schema_differences(db_url) == []


def test_apschedulers_table_is_never_a_difference(db_url: str) -> None:
    engine = open_engine(db_url)
    # As the scheduler's job store does at start-up (bot.schedule.scheduler.make_scheduler).
    SQLAlchemyJobStore(engine=engine).start(BackgroundScheduler(), "default")
    assert "apscheduler_jobs" in table_names(engine)
    with engine.connect() as connection:
        unfiltered = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    # Left unfiltered, autogenerate would drop it: what env.py's include_object must leave out.
    assert {(d[0], d[1].name) for d in unfiltered} == {
        ("remove_table", "apscheduler_jobs"), ("remove_index", "ix_apscheduler_jobs_next_run_time"),
    }
    assert schema_differences(db_url) == []
    # `alembic check` runs autogenerate through env.py itself: it raises if anything would be generated.
    with engine.connect() as connection:
        command.check(alembic_config(connection))
    # And upgrading again leaves the job store alone.
    open_engine(db_url)
    assert "apscheduler_jobs" in table_names(engine)


def test_the_head_revision_constant_is_the_newest_revision() -> None:
    # open_engine compares the stored revision to this constant instead of importing alembic on every start.
    assert HEAD_REVISION == head_revision()


def test_a_database_at_the_head_opens_without_alembic_nor_a_write(tmp_path: Path) -> None:
    db = tmp_path / "legatus.db"
    open_engine(db).dispose()
    probe = (
        "import sqlite3, sys; from bot.store.db import open_engine, stored_revisions; "
        "engine = open_engine(sys.argv[1]); print(sorted(stored_revisions(engine)), "
        "sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    )
    with sqlite3.connect(db, isolation_level=None) as holder:
        # Another process holds the write lock (the bot mid-post): a reader must not wait for it, nor need it.
        holder.execute("BEGIN IMMEDIATE")
        done = subprocess.run([sys.executable, "-c", probe, str(db)], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[3], timeout=120)
        holder.execute("ROLLBACK")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [f"['{HEAD_REVISION}']", "[]"]


def test_a_database_behind_the_head_is_still_upgraded_by_open_engine(tmp_path: Path) -> None:
    engine = open_engine_unmigrated(tmp_path / "legatus.db")
    upgrade(engine, "0004")
    assert stored_revisions(engine) == {"0004"}
    assert "snapshot" not in table_names(engine)
    engine = open_engine(tmp_path / "legatus.db")
    assert stored_revisions(engine) == {HEAD_REVISION}
    assert "snapshot" in table_names(engine)
