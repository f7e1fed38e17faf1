"""The scheduler's tables: deadline and campaign_settings (see bot/store/schedule_tables.py).

Before this revision a stopgap (``ensure_tables``: ``create_all`` on a metadata of their own) made both tables
at the scheduler's start, without foreign keys, so a database may already hold them with rows. As 0001 does
for the tables made before migrations, this revision adopts them: their rows are kept, and they gain what
they lack (a missing nullable column, an index, the foreign key to campaign.id). A missing table is created.

Adopting the foreign key: rows naming no campaign cannot stay under it, and mean nothing (campaigns are
never deleted, so none should exist); they are deleted, with a warning in the log. On SQLite a foreign key
is added by rebuilding the table (a batch operation: copy the rows, drop the old table, rename), inside the
upgrade's transaction. On PostgreSQL the stopgap's campaign_settings.campaign_id was a SERIAL; its sequence
is dropped, as a settings row only ever takes its campaign's id.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from __future__ import annotations

import logging
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger("legatus.migrations")


def _deadline() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("nation", sa.String(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("due_at", sa.DateTime(), nullable=False),  # naive UTC, see bot.store.fetched_draws.UtcDateTime
        sa.Column("remind_at", sa.DateTime(), nullable=True),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    ]


def _campaign_settings() -> list[sa.schema.SchemaItem]:
    return [
        # Not autoincrement: the row takes its campaign's id (and PostgreSQL makes no SERIAL of it).
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("timezone", sa.String(), nullable=False),
        sa.Column("player_hours", sa.Integer(), nullable=False),
        sa.Column("remind_hours_before", sa.Integer(), nullable=False),
        sa.Column("on_timeout", sa.String(), nullable=False),
    ]


# table: (its columns and constraints, its indexes as name -> (columns, unique)).
SCHEMA: dict[str, tuple[Callable[[], list[sa.schema.SchemaItem]], dict[str, tuple[list[str], bool]]]] = {
    "deadline": (_deadline, {
        "ix_deadline_campaign_id": (["campaign_id"], False),
        "ix_deadline_due_at": (["due_at"], False),
        "ix_deadline_state": (["state"], False),
    }),
    "campaign_settings": (_campaign_settings, {}),
}


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for table, (items, indexes) in SCHEMA.items():
        if table not in existing:
            op.create_table(table, *items())
            for name, (columns, unique) in indexes.items():
                op.create_index(name, table, columns, unique=unique)
            continue
        _adopt(table, items(), indexes)


def _adopt(table: str, items: list[sa.schema.SchemaItem], indexes: dict[str, tuple[list[str], bool]]) -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    present = {c["name"] for c in inspector.get_columns(table)}
    for column in items:
        if not isinstance(column, sa.Column) or column.name in present:
            continue
        if not column.nullable:
            # The stopgap always made every column; refuse rather than invent values for the rows there.
            raise RuntimeError(f"cannot adopt table {table}: it lacks the required column {column.name}")
        op.add_column(table, sa.Column(column.name, column.type, nullable=True))
    have = {i["name"] for i in inspector.get_indexes(table)}
    for name, (columns, unique) in indexes.items():
        if name not in have:
            op.create_index(name, table, columns, unique=unique)
    if bind.dialect.name == "postgresql":
        _drop_serial(table)
    if not any(
        fk["referred_table"] == "campaign" and fk["constrained_columns"] == ["campaign_id"]
        for fk in inspector.get_foreign_keys(table)
    ):
        _add_campaign_foreign_key(table, items, indexes)


def _drop_serial(table: str) -> None:
    """The stopgap's campaign_settings.campaign_id was a SERIAL: drop its default and its sequence."""
    if table != "campaign_settings":
        return
    bind = op.get_bind()
    sequence = bind.execute(sa.text("SELECT pg_get_serial_sequence(:t, 'campaign_id')"), {"t": table}).scalar()
    if sequence is None:
        return
    op.alter_column(table, "campaign_id", server_default=None)
    op.execute(f"DROP SEQUENCE {sequence}")  # already quoted by pg_get_serial_sequence


def _add_campaign_foreign_key(
    table: str, items: list[sa.schema.SchemaItem], indexes: dict[str, tuple[list[str], bool]],
) -> None:
    bind = op.get_bind()
    orphans = bind.execute(sa.text(
        f"DELETE FROM {table} WHERE campaign_id NOT IN (SELECT id FROM campaign)"  # noqa: S608 (fixed names)
    )).rowcount
    if orphans:
        log.warning("adopting %s: deleted %d row(s) naming no campaign", table, orphans)
    if bind.dialect.name == "sqlite":
        # SQLite cannot add a constraint to a table: the batch rebuilds it exactly as create_table would
        # (its foreign key unnamed, its indexes), copies the rows over, drops the old one and renames.
        shape = sa.Table(table, sa.MetaData(), *items)
        for name, (columns, unique) in indexes.items():
            sa.Index(name, *(shape.c[c] for c in columns), unique=unique)
        with op.batch_alter_table(table, recreate="always", copy_from=shape):
            pass
    else:
        # The name PostgreSQL gives the unnamed constraint of a table made by create_table.
        op.create_foreign_key(f"{table}_campaign_id_fkey", table, "campaign", ["campaign_id"], ["id"])


def downgrade() -> None:
    op.drop_table("campaign_settings")
    op.drop_index("ix_deadline_state", table_name="deadline")
    op.drop_index("ix_deadline_due_at", table_name="deadline")
    op.drop_index("ix_deadline_campaign_id", table_name="deadline")
    op.drop_table("deadline")
