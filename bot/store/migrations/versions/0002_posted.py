"""The posted table: what the scheduler already posted, keyed for idempotency (see bot/store/posted.py).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "posted",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("posted_at", sa.DateTime(), nullable=False),  # naive UTC, see bot.store.fetched_draws.UtcDateTime
        sa.Column("channel_id", sa.String(), nullable=True),
        sa.Column("message_id", sa.String(), nullable=True),
    )
    op.create_index("ix_posted_key", "posted", ["key"], unique=True)
    op.create_index("ix_posted_campaign_id", "posted", ["campaign_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_posted_campaign_id", table_name="posted")
    op.drop_index("ix_posted_key", table_name="posted")
    op.drop_table("posted")
