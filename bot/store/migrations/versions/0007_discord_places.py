"""Where a campaign's Discord messages live: each turn's thread and the pinned status board
(bot/store/discord_places.py). Before this, the turn's thread was only in the bot's memory.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_thread",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("turn", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("thread_id", sa.String(), nullable=False),
    )
    op.create_table(
        "status_board",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("channel_id", sa.String(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("status_board")
    op.drop_table("turn_thread")
