"""The commit–reveal seed of a campaign: kept server-side, never in the event log until the GM reveals it.

A campaign created with ``randomness = commit-reveal`` gets a fresh seed (``secrets.token_hex(32)``); its
SHA-256 (engine/commit_reveal.py) is published in the ``campaign.created`` event. The shell derives every
commit–reveal roll from this seed and the roll's label; ``/campaign reveal`` appends the seed to the log
(``seed.revealed``) and stamps ``revealed_at``. Alembic revision 0004 makes the table.
"""
from __future__ import annotations

import datetime as dt
import secrets

from sqlmodel import Column, Field, Session, SQLModel

from bot.store.fetched_draws import UtcDateTime


class CampaignSecretRow(SQLModel, table=True):
    __tablename__ = "campaign_secret"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    seed: str  # hex; the bytes committed to are its UTF-8 text (engine.commit_reveal.commitment(seed.encode()))
    revealed_at: dt.datetime | None = Field(default=None, sa_column=Column(UtcDateTime(), nullable=True))


def new_seed() -> str:
    return secrets.token_hex(32)


def seed_of(session: Session, campaign_id: int) -> str | None:
    row = session.get(CampaignSecretRow, campaign_id)
    return row.seed if row is not None else None
