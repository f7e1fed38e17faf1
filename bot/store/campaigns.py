"""The campaign store: campaigns, their append-only event logs, and every post with its answer.

Events are only ever inserted; nothing here updates or deletes one. A campaign's state is the fold of
its events (engine/log.py), so the log is the one thing to back up.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, Session, SQLModel, col, select

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
    return [Event.from_dict(json.loads(r.body)) for r in rows]


def append_event(session: Session, campaign_id: int, event: Event) -> None:
    session.add(EventRow(campaign_id=campaign_id, seq=event.seq, kind=event.kind, actor=event.actor, body=event.to_line()))


def export_log(session: Session, campaign_id: int) -> str:
    rows = session.exec(select(EventRow).where(EventRow.campaign_id == campaign_id).order_by(col(EventRow.seq))).all()
    return "".join(r.body + "\n" for r in rows)
