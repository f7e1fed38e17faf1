"""A deadline belongs to a seat (bot/store/schedule_tables.py): the column the first game called "nation" takes the
shell's word, since the shell never names a game's seats (a side, a player, an empire).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""
from __future__ import annotations

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Batch mode: SQLite renames by copying the table (every row kept), PostgreSQL with one ALTER TABLE.
    with op.batch_alter_table("deadline") as batch:
        batch.alter_column("nation", new_column_name="seat")


def downgrade() -> None:
    with op.batch_alter_table("deadline") as batch:
        batch.alter_column("seat", new_column_name="nation")
