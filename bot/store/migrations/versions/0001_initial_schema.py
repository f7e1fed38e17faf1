"""The schema of Legatus before migrations: campaign, event, post, draw, fetched_draw.

Databases made before migrations existed were built by ``create_all`` from the models of their day, and
have no alembic_version table. This revision adopts them: a table that is already there is kept, with its
rows, and only gains what it lacks (a column added since, such as campaign.gm_role_id, or a whole table,
such as fetched_draw); an empty database gets everything.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""
from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

TABLES = ("campaign", "event", "post", "draw", "fetched_draw")


def _campaign() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("ruleset", sa.String(), nullable=False),
        sa.Column("gm", sa.String(), nullable=False),
        sa.Column("clock", sa.String(), nullable=False),
        sa.Column("guild_id", sa.String(), nullable=True),
        sa.Column("channel_id", sa.String(), nullable=True),
        sa.Column("gm_role_id", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _event() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("body", sa.String(), nullable=False),
        sa.UniqueConstraint("campaign_id", "seq", name="uq_event_campaign_seq"),
    ]


def _post() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("author", sa.String(), nullable=False),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("answer", sa.String(), nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    ]


def _draw() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("wheel", sa.String(length=2), nullable=False),
        *(sa.Column(f"n{i}", sa.Integer(), nullable=False) for i in range(1, 6)),
        sa.Column("source", sa.String(), nullable=False),
        sa.Column("line", sa.String(), nullable=False),
        sa.UniqueConstraint("date", "wheel", name="uq_draw_date_wheel"),
    ]


def _fetched_draw() -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("source", sa.String(), nullable=False),
        sa.Column("url", sa.String(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(), nullable=False),  # naive UTC, see bot.store.fetched_draws.UtcDateTime
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("numbers", sa.String(), nullable=False),
    ]


# table: (its columns and constraints, its indexes as name -> (columns, unique)); parents before children.
SCHEMA: dict[str, tuple[Callable[[], list[sa.schema.SchemaItem]], dict[str, tuple[list[str], bool]]]] = {
    "campaign": (_campaign, {
        "ix_campaign_name": (["name"], True),
        "ix_campaign_guild_id": (["guild_id"], False),
        "ix_campaign_channel_id": (["channel_id"], False),
    }),
    "event": (_event, {"ix_event_campaign_id": (["campaign_id"], False)}),
    "post": (_post, {"ix_post_campaign_id": (["campaign_id"], False)}),
    "draw": (_draw, {"ix_draw_date": (["date"], False)}),
    "fetched_draw": (_fetched_draw, {"ix_fetched_draw_date": (["date"], False)}),
}


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    existing = set(inspector.get_table_names())
    for table, (items, indexes) in SCHEMA.items():
        if table not in existing:
            op.create_table(table, *items())
            for name, (columns, unique) in indexes.items():
                op.create_index(name, table, columns, unique=unique)
            continue
        _adopt(inspector, table, items(), indexes)


def _adopt(
    inspector: sa.Inspector, table: str, items: list[sa.schema.SchemaItem], indexes: dict[str, tuple[list[str], bool]],
) -> None:
    present = {c["name"] for c in inspector.get_columns(table)}
    for column in items:
        if not isinstance(column, sa.Column) or column.name in present:
            continue
        if not column.nullable:
            # Never seen in a released schema; refuse rather than invent values for the rows already there.
            raise RuntimeError(f"cannot adopt table {table}: it lacks the required column {column.name}")
        op.add_column(table, sa.Column(column.name, column.type, nullable=True))
    have = {i["name"] for i in inspector.get_indexes(table)}
    for name, (columns, unique) in indexes.items():
        if name not in have:
            op.create_index(name, table, columns, unique=unique)


def downgrade() -> None:
    for table in reversed(list(SCHEMA)):
        op.drop_table(table)
