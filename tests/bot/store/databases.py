"""The store's tests run on both databases: a SQLite file, and PostgreSQL when LEGATUS_TEST_POSTGRES_URL is set.

.ci/run starts a throwaway PostgreSQL server and sets it. Every test gets a database of its own: a fresh
schema, dropped afterwards, so tests never see each other's rows and leave nothing behind.
"""
from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text

from bot.service.legatus import DATA_DIR
from engine.events import Event
from engine.log import replay
from engine.rulesets import load_ruleset

POSTGRES_ENV = "LEGATUS_TEST_POSTGRES_URL"
NO_POSTGRES = (
    f"{POSTGRES_ENV} is not set: no PostgreSQL server to test against (.ci/run starts one; or point it at "
    "postgresql+psycopg://USER@HOST:PORT/DB)"
)


def postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


def with_search_path(url: str, schema: str) -> str:
    # psycopg reads libpq's "options": every connection of the engine then lives in that schema.
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema}')}"


def fresh_postgres_schema() -> tuple[str, Callable[[], None]]:
    """A new empty schema and a callable that drops it."""
    base = postgres_url()
    if base is None:
        pytest.skip(NO_POSTGRES)
    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return with_search_path(base, schema), drop


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL (or path) for open_engine to an empty database of each kind."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.db")
        return
    url, drop = fresh_postgres_schema()
    try:
        yield url
    finally:
        # Connections still open in the test's engines hold no locks once idle; CASCADE drops every table.
        drop()


def log_state(log: str) -> dict[str, Any]:
    """The public state an exported log folds to, with no database at all."""
    events = [Event.from_dict(json.loads(line)) for line in log.splitlines() if line.strip()]
    ruleset = load_ruleset(str(events[0].data["ruleset"]), DATA_DIR)
    return ruleset.public_view(replay(ruleset, events).state)
