"""Where the bot stopped reading: per Discord place (a campaign's channel, a turn's thread), the newest message it
took as a post.

Written in the same transaction as the posts it covers (``Legatus.post_many``): a post is applied and marked read
together, or neither. So the catch-up after a restart (bot/discord/catch_up.py), which applies the messages after
the mark, can neither lose a post made while the bot was away nor apply one twice.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import BigInteger, Column
from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, select

from bot.store.db import writer


class ReadMarkRow(SQLModel, table=True):
    __tablename__ = "read_mark"

    place_id: str = Field(primary_key=True)  # a channel or thread id
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    # A Discord snowflake: ordered as the messages were sent, and compared as a number (not as text: "9" > "10").
    message_id: int = Field(sa_column=Column(BigInteger(), nullable=False))


@dataclass(frozen=True)
class Seen:
    """A message read in a place of a campaign."""
    campaign_id: int
    place_id: str
    message_id: int


def mark_read(session: Session, seen: Iterable[Seen]) -> None:
    """Move each place's mark up to the newest of ``seen`` (never back), in the caller's transaction."""
    newest: dict[str, Seen] = {}
    for s in seen:
        if s.place_id not in newest or s.message_id > newest[s.place_id].message_id:
            newest[s.place_id] = s
    for place_id, s in newest.items():
        row = session.get(ReadMarkRow, place_id)
        if row is None:
            session.add(ReadMarkRow(place_id=place_id, campaign_id=s.campaign_id, message_id=s.message_id))
        elif s.message_id > row.message_id:
            row.message_id = s.message_id
            session.add(row)


def save_read_marks(engine: Engine, seen: Iterable[Seen]) -> None:
    """``mark_read`` in a transaction of its own (a place first met by the catch-up, which took nothing there)."""
    with Session(writer(engine)) as session:
        mark_read(session, seen)
        session.commit()


def read_marks(session: Session, campaign_ids: Iterable[int]) -> dict[str, int]:
    """place id -> its mark, for the places of these campaigns."""
    ids = list(campaign_ids)
    if not ids:
        return {}
    rows = session.exec(select(ReadMarkRow).where(ReadMarkRow.campaign_id.in_(ids)))  # type: ignore[attr-defined]  # sqlmodel: a column
    return {row.place_id: row.message_id for row in rows}

