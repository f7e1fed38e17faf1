"""Each player's own settings in a campaign (bot/store/player_settings.py): the "you are next" heads-up, on or off.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_setting",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("player", sa.String(), primary_key=True),
        sa.Column("name", sa.String(), primary_key=True),
        sa.Column("value", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_setting")
