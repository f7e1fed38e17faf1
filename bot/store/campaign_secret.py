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
import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from sqlmodel import Column, Field, Session, SQLModel

from bot.store.fetched_draws import UtcDateTime

KEY_ENV, KEY_FILE_ENV = "LEGATUS_SECRET_KEY", "LEGATUS_SECRET_KEY_FILE"
DERIVED = "hmac:"


class CampaignSecretRow(SQLModel, table=True):
    __tablename__ = "campaign_secret"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    # "hmac:<nonce hex>": the seed is HMAC(server key, nonce). (Older rows: the seed itself, hex.)
    seed: str
    revealed_at: dt.datetime | None = Field(default=None, sa_column=Column(UtcDateTime(), nullable=True))


class NoServerKey(LookupError):
    pass


def server_key(environ: Mapping[str, str] = os.environ) -> bytes:
    """The server key's bytes; NoServerKey (saying what to set) when neither variable gives one."""
    text = environ.get(KEY_ENV, "")
    path = environ.get(KEY_FILE_ENV, "")
    if not text and path:
        try:
            text = Path(path).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise NoServerKey(f"{KEY_FILE_ENV}={path[:80]} cannot be read ({exc.strerror})") from None
    if not text:
        raise NoServerKey(f"commit-reveal needs a server key kept outside the database: set {KEY_ENV} to a long "
                          f"random text, or {KEY_FILE_ENV} to a file holding it (e.g. `openssl rand -hex 32`)")
    return text.encode("utf-8")


def new_nonce() -> str:
    return DERIVED + secrets.token_hex(32)


def derive_seed(key: bytes, stored: str) -> str:
    """The seed a stored value stands for: HMAC-SHA256(key, nonce) for "hmac:<nonce>", else the value itself."""
    if not stored.startswith(DERIVED):
        return stored
    return hmac.new(key, stored[len(DERIVED):].encode("utf-8"), hashlib.sha256).hexdigest()


def seed_of(session: Session, campaign_id: int, environ: Mapping[str, str] = os.environ) -> str | None:
    """The campaign's seed; None when it has none, or when it needs the server key and none is set."""
    row = session.get(CampaignSecretRow, campaign_id)
    if row is None:
        return None
    if not row.seed.startswith(DERIVED):
        return row.seed
    try:
        return derive_seed(server_key(environ), row.seed)
    except NoServerKey:
        return None
