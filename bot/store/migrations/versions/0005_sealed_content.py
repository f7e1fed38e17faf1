"""The sealed_content table: sealed orders, bids and hands kept for their seat (see bot/store/sealed.py).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sealed_content",
        sa.Column("campaign_id", sa.Integer(), sa.ForeignKey("campaign.id"), primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("content", sa.String(), nullable=False),
        sa.Column("salt", sa.String(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sealed_content")
