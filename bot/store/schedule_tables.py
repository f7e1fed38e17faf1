"""The scheduler's tables: deadlines and per-campaign timing settings. Idempotency keys live in ``posted``
(bot/store/posted.py, alembic revision 0002).

Deadlines are the truth; the apscheduler job store only says when to look at them again, so a lost or
stale job is repaired at start-up from these rows (bot/schedule/scheduler.py, ``reconcile``).

Both tables belong to the main schema (SQLModel.metadata) and are made by alembic revision 0003, which also
adopts the copies an earlier stopgap (``ensure_tables``, create_all on a metadata of their own) left behind.
Times are aware UTC in Python and naive UTC in the database, as in ``posted`` (bot.store.fetched_draws.UtcDateTime).
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Column, Field, Session, SQLModel, select

from bot.store.fetched_draws import UtcDateTime
from bot.store.posted import PostedRow

PLAYER_TURN = "player_turn"
TURN_CLOSE = "turn_close"
LOTTO_FETCH = "lotto_fetch"

PENDING = "pending"
REMINDED = "reminded"
DONE = "done"
CANCELLED = "cancelled"
ACTIVE = (PENDING, REMINDED)

DEFAULT_TIMEZONE = "Europe/Rome"
# ``posted.message_id`` for a claim closed with nothing sent (the player acted after all, no channel): not
# NULL, which means "claimed, maybe not sent" and is resumed at start-up.
NOTHING_SENT = ""


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a naive datetime has no meaning here: give a timezone-aware one")
    return moment.astimezone(timezone.utc)


class DeadlineRow(SQLModel, table=True):
    __tablename__ = "deadline"
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    kind: str = PLAYER_TURN  # player_turn | turn_close | lotto_fetch
    nation: str | None = None
    # The acting window it belongs to: a nation acts once per turn, so (nation, turn) tells a stale
    # deadline (left by a crash, or by posts made while no scheduler ran) from the current one.
    turn: int | None = None
    due_at: datetime = Field(sa_column=Column(UtcDateTime(), nullable=False, index=True))
    remind_at: datetime | None = Field(default=None, sa_column=Column(UtcDateTime(), nullable=True))
    state: str = Field(default=PENDING, index=True)  # pending | reminded | done | cancelled
    created_at: datetime = Field(default_factory=utcnow, sa_column=Column(UtcDateTime(), nullable=False))


class CampaignSettingsRow(SQLModel, table=True):
    __tablename__ = "campaign_settings"
    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    timezone: str = DEFAULT_TIMEZONE  # the GM's IANA zone: what "20:00" means when a GM types it
    player_hours: int = 48
    remind_hours_before: int = 12
    on_timeout: str = "pass"  # pass: the bot passes the late nation; wait: the GM is told and decides


def settings_for(session: Session, campaign_id: int) -> CampaignSettingsRow:
    """The campaign's settings, or the defaults (not stored) if the GM never changed any."""
    row = session.get(CampaignSettingsRow, campaign_id)
    return row if row is not None else CampaignSettingsRow(campaign_id=campaign_id)


def save_settings(engine: Engine, campaign_id: int, **changes: Any) -> CampaignSettingsRow:
    allowed = {"timezone", "player_hours", "remind_hours_before", "on_timeout"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    if "on_timeout" in changes and changes["on_timeout"] not in ("pass", "wait"):
        raise ValueError("on_timeout is 'pass' or 'wait'")
    if "timezone" in changes:
        from zoneinfo import ZoneInfo

        ZoneInfo(changes["timezone"])  # raises on an unknown zone before anything is stored
    with Session(engine) as session:
        row = session.get(CampaignSettingsRow, campaign_id) or CampaignSettingsRow(campaign_id=campaign_id)
        for name, value in changes.items():
            setattr(row, name, value)
        session.add(row)
        session.commit()
        session.refresh(row)
        return row


def active_deadlines(session: Session, campaign_id: int | None = None) -> list[DeadlineRow]:
    query = select(DeadlineRow).where(DeadlineRow.state.in_(ACTIVE))  # type: ignore[attr-defined]
    if campaign_id is not None:
        query = query.where(DeadlineRow.campaign_id == campaign_id)
    return list(session.exec(query.order_by(DeadlineRow.due_at, DeadlineRow.id)).all())  # type: ignore[arg-type]


def unsent(session: Session) -> list[PostedRow]:
    """Claims whose send was never confirmed: the process died between claim and record."""
    return list(session.exec(select(PostedRow).where(PostedRow.message_id == None)).all())  # noqa: E711
