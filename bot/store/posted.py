"""What the bot has already posted on its own (reminders, deadlines, maps), keyed for idempotency.

The scheduler may run a job twice: after a crash between sending and recording, or when two processes
start together. Each job names its post with a ``key`` (e.g. ``"<campaign>:turn-3:reminder-24h"``);
``claim`` succeeds for only one caller per key, so the post goes out once, and a claimed key with no
``message_id`` shows a post that may or may not have reached Discord (the crash window) for a human to check.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy import Column, insert
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col, select

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


# Keys per query: well under every database's limit of bound parameters.
KEYS_PER_QUERY = 500


def claimed_keys(session: Session, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` are claimed already."""
    found: set[str] = set()
    for start in range(0, len(keys), KEYS_PER_QUERY):
        chunk = list(keys[start:start + KEYS_PER_QUERY])
        found.update(session.exec(select(PostedRow.key).where(col(PostedRow.key).in_(chunk))).all())
    return found


def claim_many(session: Session, wanted: Sequence[tuple[str, int, str]],
               at: dt.datetime | None = None) -> list[bool]:
    """``claim`` for many posts, each (key, campaign id, kind), in the caller's transaction (not committed): True for
    each key claimed here, False for one claimed before, or earlier in ``wanted``. A query and one insert for all:
    a burst of posts brings a heads-up each, and a savepoint, an insert and a flush per claim were half its writes.
    A key another process claimed between the query and the insert (PostgreSQL takes no write lock first) rolls the
    insert back, and the posts are claimed one by one, as ``claim`` does."""
    taken = claimed_keys(session, [key for key, _, _ in wanted])
    fresh: list[bool] = []
    rows: list[dict[str, object]] = []
    for key, campaign_id, kind in wanted:
        fresh.append(key not in taken)
        if fresh[-1]:
            taken.add(key)
            rows.append({"key": key, "campaign_id": campaign_id, "kind": kind, "posted_at": at or _utcnow(),
                         "channel_id": None, "message_id": None})
    if not rows:
        return fresh
    try:
        with session.begin_nested():
            # A bulk insert (one executemany): rows added as objects were inserted one by one, for their ids.
            session.execute(insert(PostedRow), rows)
    except IntegrityError:
        return [new and claim(session, key, campaign_id, kind, at=at, commit=False)
                for new, (key, campaign_id, kind) in zip(fresh, wanted)]
    return fresh


def mark_many_sent(session: Session, sent: Sequence[tuple[str, str, str | None]]) -> list[bool]:
    """``mark_sent`` for many (key, message id, channel id or None), in the caller's transaction (not committed), read
    in one query: for each, whether its claim was there to fill."""
    rows: dict[str, PostedRow] = {}
    keys = [key for key, _, _ in sent]
    for start in range(0, len(keys), KEYS_PER_QUERY):
        chunk = keys[start:start + KEYS_PER_QUERY]
        rows.update((row.key, row) for row in session.exec(select(PostedRow).where(col(PostedRow.key).in_(chunk))))
    for key, message_id, channel_id in sent:
        row = rows.get(key)
        if row is not None:
            row.message_id = message_id
            if channel_id is not None:
                row.channel_id = channel_id
            session.add(row)
    return [key in rows for key in keys]
