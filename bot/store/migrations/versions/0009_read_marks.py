"""Where the bot stopped reading each campaign's channel and turn threads (bot/store/read_marks.py): the catch-up
after a restart applies the posts made after the mark.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "read_mark",
        sa.Column("place_id", sa.String(), primary_key=True),
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_read_mark_campaign_id", "read_mark", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_read_mark_campaign_id", table_name="read_mark")
    op.drop_table("read_mark")
