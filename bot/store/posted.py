"""What the bot has already posted on its own (reminders, deadlines, maps), keyed for idempotency.

The scheduler may run a job twice: after a crash between sending and recording, or when two processes
start together. Each job names its post with a ``key`` (e.g. ``"<campaign>:turn-3:reminder-24h"``);
``claim`` succeeds for only one caller per key, so the post goes out once, and a claimed key with no
``message_id`` shows a post that may or may not have reached Discord (the crash window) for a human to check.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Column
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, select

from bot.store.fetched_draws import UtcDateTime


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


class PostedRow(SQLModel, table=True):
    __tablename__ = "posted"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    kind: str  # "reminder", "deadline", "map", ...
    posted_at: dt.datetime = Field(sa_column=Column(UtcDateTime(), nullable=False))
    channel_id: str | None = None
    message_id: str | None = None  # None until Discord confirmed the message


def claim(
    session: Session, key: str, campaign_id: int, kind: str, channel_id: str | None = None,
    at: dt.datetime | None = None, *, commit: bool = True,
) -> bool:
    """Record that the post ``key`` is going out; False if someone already did (then do not post). Commits, unless
    told not to (several claims in one transaction: each in its savepoint)."""
    try:
        with session.begin_nested():
            session.add(PostedRow(
                key=key, campaign_id=campaign_id, kind=kind, channel_id=channel_id, posted_at=at or _utcnow(),
            ))
    except IntegrityError:
        return False
    if commit:
        session.commit()
    return True


def mark_sent(session: Session, key: str, message_id: str, channel_id: str | None = None, *,
              commit: bool = True) -> None:
    """Fill in the message Discord returned for a claimed post. Commits, unless told not to."""
    row = find(session, key)
    if row is None:
        raise KeyError(f"no claimed post {key!r}")
    row.message_id = message_id
    if channel_id is not None:
        row.channel_id = channel_id
    session.add(row)
    if commit:
        session.commit()


def find(session: Session, key: str) -> PostedRow | None:
    return session.exec(select(PostedRow).where(PostedRow.key == key)).first()
