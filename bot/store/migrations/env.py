"""Alembic's environment for Legatus: run by ``bot.store.db.upgrade`` at start-up, or by the ``alembic`` command.

Programmatic runs hand over their connection in ``config.attributes["connection"]``; the ``alembic`` command
(see alembic.ini at the repository's root) connects to ``DATABASE_URL`` or legatus.db, as the bot does.
No logging configuration here: the bot's own must not be replaced when it migrates at start-up.
"""
from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from bot.store.db import database_url, include_object, register_tables

register_tables()
target_metadata = SQLModel.metadata
config = context.config


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things: later revisions rebuild tables through batch operations.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        # apscheduler_jobs shares the database but is apscheduler's: never a table to drop or alter.
        include_object=include_object,
    )


def run_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url") or database_url(), target_metadata=target_metadata,
                      literal_binds=True, include_object=include_object)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given: Connection | None = config.attributes.get("connection")
    if given is not None:
        _configure(given)
        with context.begin_transaction():
            context.run_migrations()
        return
    from bot.store.db import open_engine_unmigrated

    engine = open_engine_unmigrated(config.get_main_option("sqlalchemy.url") or None)
    with engine.begin() as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
