"""The campaign_secret table: a commit–reveal campaign's seed, kept until revealed (see bot/store/campaign_secret.py).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaign_secret",
        # Not autoincrement: the row takes its campaign's id.
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("seed", sa.String(), nullable=False),
        sa.Column("revealed_at", sa.DateTime(), nullable=True),  # naive UTC, see bot.store.fetched_draws.UtcDateTime
    )


def downgrade() -> None:
    op.drop_table("campaign_secret")
