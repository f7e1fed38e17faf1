"""The commit–reveal seed of a campaign: never in the database in clear, never in the event log until revealed.

A campaign created with ``randomness = commit-reveal`` gets a fresh random nonce, stored here as ``"hmac:<nonce>"``;
its seed is HMAC-SHA256(server key, nonce) in hex, and SHA-256 of that seed's key (engine/commit_reveal.py) is
published in the ``campaign.created`` event. The server key comes from ``LEGATUS_SECRET_KEY`` (its text) or
``LEGATUS_SECRET_KEY_FILE`` (the file's text, stripped): it lives beside the bot, never in the database, so a copy
of the database (a backup, a leaked file) tells nobody the coming rolls. Without the key no commit-reveal campaign
is created. ``/campaign reveal`` appends the seed to the log (``seed.revealed``) and stamps ``revealed_at``; a key
changed in between gives another seed, which the engine refuses against the commitment.

Rows written before this (a 64-hex seed without the prefix) are read as they are. Alembic revision 0004 makes the
table. What the operator holding the key can still see is in docs/randomness.md.
"""
from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping

from sqlmodel import Column, Field, Session, SQLModel

from bot.store.fetched_draws import UtcDateTime
from bot.store.server_key import (  # noqa: F401  (re-exported: the service and the tests name them here)
    DERIVED, KEY_ENV, KEY_FILE_ENV, NoServerKey, derive_seed, new_nonce, seed_from_stored, server_key,
)


class CampaignSecretRow(SQLModel, table=True):
    __tablename__ = "campaign_secret"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    # "hmac:<nonce hex>": the seed is HMAC(server key, nonce). (Older rows: the seed itself, hex.)
    seed: str
    revealed_at: dt.datetime | None = Field(default=None, sa_column=Column(UtcDateTime(), nullable=True))


def seed_of(session: Session, campaign_id: int, environ: Mapping[str, str] = os.environ) -> str | None:
    """The campaign's seed; None when it has none, or when it needs the server key and none is set."""
    row = session.get(CampaignSecretRow, campaign_id)
    return None if row is None else seed_from_stored(row.seed, environ)
