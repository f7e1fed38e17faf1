"""A cache of each campaign's folded state, so that a fresh process folds only the events after it.

The log stays the truth: a snapshot is used only when everything it was made from still holds, and is ignored
(the state is then folded from the whole log) when it is missing, unreadable, made by other engine code or
other rules data, or when the event it claims to end at is not in the log with the same hash. It is written
in the same transaction as the post whose events it folds, so it can never run ahead of the log it caches.

It is rewritten only once the log has gone ``EVERY`` events past it (or when it is missing or unsound): pickling
the whole fold grows with the campaign, so doing it on every post would make a post at turn 100 slower than one
at turn 1. A fresh process then folds at most ``EVERY`` events after the snapshot, a few milliseconds.

The body is a pickle of the engine's ``Folded`` (state, effective events, last seq, head), which rebuilds the state's
objects exactly, hidden fields included (a round trip through the public JSON view would leave them out). Since the
database is not the bot's alone (the operator, a backup, a restored copy), the pickle is stored encrypted and
authenticated with the bot's key at rest (``bot/store/at_rest.py``) and unpickled only once it has opened with that
key for this very place: a snapshot anybody else wrote is never unpickled, it is ignored and replaced.
"""
from __future__ import annotations

from sqlalchemy import LargeBinary, text
from sqlmodel import Column, Field, Session, SQLModel

from bot.store.fold_key import EVERY, FORMAT, snapshot_body, snapshot_key, sound_fold
from engine.log import Folded

# Campaigns whose stored snapshot this process found unsound: the next post replaces it whatever its age.
_unsound: set[tuple[str, int]] = set()  # (database, campaign id)
# The (seq, key) of the snapshot this process last wrote or read as sound, by (database, campaign id): a post then
# needs no query to know the snapshot is recent enough. Stale at worst (a post rolled back after writing one): then
# the stored snapshot is older, still sound, and rewritten a little later.
_stored: dict[tuple[str, int], tuple[int, str]] = {}


class SnapshotRow(SQLModel, table=True):
    __tablename__ = "snapshot"
    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    seq: int  # the last event folded into the body
    head: str  # that event's hash: the snapshot belongs to this log only
    key: str  # what made the body (see snapshot_key): a different key means another engine or other rules
    body: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


def _where(session: Session, campaign_id: int) -> tuple[str, int]:
    return str(session.get_bind().engine.url), campaign_id


def load(session: Session, campaign_id: int, key: str) -> Folded | None:
    """The cached fold of the campaign if it is sound for this log, this engine and these rules; else None."""
    row = session.get(SnapshotRow, campaign_id)
    if row is None:
        return None
    mark = _where(session, campaign_id)
    _unsound.add(mark)  # until it is found sound below
    body = session.execute(
        text("SELECT body FROM event WHERE campaign_id = :c AND seq = :s"), {"c": campaign_id, "s": row.seq},
    ).scalar() if row.key == key else None
    folded = sound_fold(row.seq, row.head, row.key, row.body, key, body, campaign_id)
    if folded is None:
        return None
    _unsound.discard(mark)
    _stored[mark] = (row.seq, row.key)
    return folded


def store(session: Session, campaign_id: int, key: str, folded: Folded) -> None:
    """Write (or replace) the campaign's snapshot in the session's transaction, committed with the post, when
    there is none (an older store), when it was made by other code or rules or found unsound, or when the log has
    gone ``EVERY`` events past it; else leave it, only behind the log."""
    where = _where(session, campaign_id)
    known = _stored.get(where)
    if known is not None and known[1] == key and where not in _unsound and 0 <= folded.last_seq - known[0] < EVERY:
        return  # sound and recent enough: a fresh process folds the few events after it
    row = session.get(SnapshotRow, campaign_id)
    if row is not None and row.key == key and where not in _unsound and 0 <= folded.last_seq - row.seq < EVERY:
        _stored[where] = (row.seq, row.key)
        return
    body = snapshot_body(campaign_id, key, folded)
    if body is None:
        return
    if row is None:
        row = SnapshotRow(campaign_id=campaign_id, seq=folded.last_seq, head=folded.head, key=key, body=body)
    else:
        row.seq, row.head, row.key, row.body = folded.last_seq, folded.head, key, body
    session.add(row)
    _unsound.discard(where)
    _stored[where] = (folded.last_seq, key)


__all__ = ["EVERY", "FORMAT", "SnapshotRow", "load", "snapshot_key", "store"]
