"""The campaign store: campaigns, their append-only event logs, and every post with its answer.

Events are only ever inserted; nothing here updates or deletes one. A campaign's state is the fold of
its events (engine/log.py), so the log is the one thing to back up.
"""
from __future__ import annotations

from datetime import datetime, timezone

from collections.abc import Iterable
from typing import Any

from sqlalchemy import UniqueConstraint, and_, bindparam, func, insert
from sqlalchemy import select as core_select
from sqlmodel import Field, Session, SQLModel, col, select

from bot.store.log_damage import event_from_body
from engine.events import Event


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class CampaignRow(SQLModel, table=True):
    __tablename__ = "campaign"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    ruleset: str
    gm: str
    clock: str = "historical"  # "historical": rolls bind to stored draws; "live": to future scheduled draws
    guild_id: str | None = Field(default=None, index=True)
    channel_id: str | None = Field(default=None, index=True)  # the text or forum channel it lives in
    gm_role_id: str | None = None  # Discord: members of this role are the campaign's GMs
    created_at: datetime = Field(default_factory=utcnow)


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("campaign_id", "seq", name="uq_event_campaign_seq"),)
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    seq: int
    kind: str
    actor: str
    body: str  # the event as canonical JSON, exactly as exported


class PostRow(SQLModel, table=True):
    """Every post the bot read and what it answered: nothing a player wrote is lost, even if refused."""

    __tablename__ = "post"
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    author: str
    text: str
    answer: str
    first_seq: int | None = None  # the events it caused, if any
    last_seq: int | None = None
    at: datetime = Field(default_factory=utcnow)


def find_campaign(session: Session, name: str | None = None) -> CampaignRow | None:
    if name is not None:
        return session.exec(select(CampaignRow).where(CampaignRow.name == name)).first()
    rows = session.exec(select(CampaignRow).order_by(col(CampaignRow.id))).all()
    return rows[0] if len(rows) == 1 else None


def find_campaign_by_channel(session: Session, channel_id: str) -> CampaignRow | None:
    return session.exec(select(CampaignRow).where(CampaignRow.channel_id == channel_id)).first()


def list_campaigns(session: Session) -> list[CampaignRow]:
    return list(session.exec(select(CampaignRow).order_by(col(CampaignRow.id))).all())


def load_events(session: Session, campaign_id: int, after_seq: int = 0) -> list[Event]:
    rows = session.exec(
        select(EventRow)
        .where(EventRow.campaign_id == campaign_id, EventRow.seq > after_seq)
        .order_by(col(EventRow.seq))
    ).all()
    return [event_from_body(r.body, r.seq) for r in rows]


def append_event(session: Session, campaign_id: int, event: Event) -> None:
    session.add(EventRow(campaign_id=campaign_id, seq=event.seq, kind=event.kind, actor=event.actor, body=event.to_line()))


# The hot path of a post (bot/service/legatus.py) speaks SQLAlchemy Core through statements built once: building,
# tracking and flushing an ORM object per row, or compiling a statement per call, cost more than the rules' own work
# (bench/throughput.py, 2026-11-23: ~200 us per ORM query, ~70 us per prebuilt Core statement).
_EVENTS = EventRow.__table__  # type: ignore[attr-defined]  # sqlmodel does not declare __table__
_POSTS = PostRow.__table__  # type: ignore[attr-defined]  # as above
_EVENTS_AFTER = (core_select(_EVENTS.c.seq, _EVENTS.c.body)
                 .where(and_(_EVENTS.c.campaign_id == bindparam("c"), _EVENTS.c.seq > bindparam("s")))
                 .order_by(_EVENTS.c.seq))
_LAST_SEQS = (core_select(_EVENTS.c.campaign_id, func.max(_EVENTS.c.seq))
              .where(_EVENTS.c.campaign_id.in_(bindparam("ids", expanding=True)))
              .group_by(_EVENTS.c.campaign_id))
_INSERT_EVENT = insert(_EVENTS)
_INSERT_POST = insert(_POSTS)


def events_after(session: Session, campaign_id: int, after_seq: int) -> list[Event]:
    """The campaign's events after ``after_seq``: those another process wrote since this one folded the log."""
    rows = session.connection().execute(_EVENTS_AFTER, {"c": campaign_id, "s": after_seq})
    return [event_from_body(body, seq) for seq, body in rows]


def last_seqs(session: Session, campaign_ids: Iterable[int]) -> dict[int, int]:
    """The number of the last event of each campaign (one query for many: a batch of posts asks once)."""
    ids = sorted(set(campaign_ids))
    if not ids:
        return {}
    return {int(c): int(s) for c, s in session.connection().execute(_LAST_SEQS, {"ids": ids})}


def event_values(campaign_id: int, event: Event) -> dict[str, Any]:
    return {"campaign_id": campaign_id, "seq": event.seq, "kind": event.kind, "actor": event.actor,
            "body": event.to_line()}


def insert_rows(session: Session, events: list[dict[str, Any]], posts: list[dict[str, Any]]) -> None:
    """Append events (``event_values``) and post records (``PostRow``'s columns) in one statement each. The
    unique (campaign, seq) constraint refuses an event whose number another writer took meanwhile."""
    connection = session.connection()
    if events:
        connection.execute(_INSERT_EVENT, events)
    if posts:
        connection.execute(_INSERT_POST, posts)


def export_log(session: Session, campaign_id: int) -> str:
    rows = session.exec(select(EventRow).where(EventRow.campaign_id == campaign_id).order_by(col(EventRow.seq))).all()
    return "".join(r.body + "\n" for r in rows)
