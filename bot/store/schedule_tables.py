"""The scheduler's tables: deadlines and per-campaign timing settings. Idempotency keys live in ``posted``
(bot/store/posted.py, alembic revision 0002).

Deadlines are the truth; the apscheduler job store only says when to look at them again, so a lost or
stale job is repaired at start-up from these rows (bot/schedule/scheduler/, ``reconcile``).

Both tables belong to the main schema (SQLModel.metadata) and are made by alembic revision 0003, which also
adopts the copies an earlier stopgap (``ensure_tables``, create_all on a metadata of their own) left behind.
Times are aware UTC in Python and naive UTC in the database, as in ``posted`` (bot.store.fetched_draws.UtcDateTime).
"""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from collections.abc import Collection, Iterator
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Column, Field, Session, SQLModel, col, select

from bot.store.fetched_draws import UtcDateTime
from bot.store.db import writer
from bot.store.posted import PostedRow
from engine.quote import quote

from bot.store.deadline_states import (  # noqa: F401  (re-exported: the scheduler and the tests name them here)
    ACTIVE, CANCELLED, DONE, LOTTO_FETCH, PENDING, PLAYER_TURN, REMINDED, TURN_CLOSE, as_utc,
)

DEFAULT_TIMEZONE = "Europe/Rome"
# bot.service.deadlines.MAX_HOURS: a year; a longer turn is a typing slip, and inf would overflow every deadline.
MAX_SETTING_HOURS = 8760.0
# ``posted.message_id`` for a claim closed with nothing sent (the player acted after all, no channel): not
# NULL, which means "claimed, maybe not sent" and is resumed at start-up.
NOTHING_SENT = ""


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class DeadlineRow(SQLModel, table=True):
    __tablename__ = "deadline"
    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", index=True)
    kind: str = PLAYER_TURN  # player_turn | turn_close | lotto_fetch
    seat: str | None = None
    # The acting window it belongs to: a seat acts once per turn, so (seat, turn) tells a stale
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
    on_timeout: str = "pass"  # pass: the bot passes the late seat; wait: the GM is told and decides


def _hours_ok(key: str, value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return False
    return (0 <= value if key == "remind_hours_before" else 0 < value) and value <= MAX_SETTING_HOURS


def _zone_ok(name: Any) -> bool:
    from zoneinfo import ZoneInfo

    try:
        ZoneInfo(str(name))
    except (ValueError, LookupError, OSError):
        return False
    return True


def settings_problems(row: CampaignSettingsRow) -> list[str]:
    """What is wrong with a stored settings row (written by an older version, or by hand), with its default."""
    default = CampaignSettingsRow(campaign_id=row.campaign_id)
    wrong = [key for key in ("player_hours", "remind_hours_before") if not _hours_ok(key, getattr(row, key))]
    if not _zone_ok(row.timezone):
        wrong.append("timezone")
    if row.on_timeout not in ("pass", "wait"):
        wrong.append("on_timeout")
    return [f"{key}={quote(str(getattr(row, key)))} (now {getattr(default, key)})" for key in wrong]


def settings_for(session: Session, campaign_id: int) -> CampaignSettingsRow:
    """The campaign's settings, or the defaults (not stored) if the GM never changed any.

    A stored value out of range (inf hours, an unknown zone) is read as its default, so that no row can stop
    the scheduler; ``repair_settings`` fixes the row itself and tells the GM at start-up."""
    return _usable(session.get(CampaignSettingsRow, campaign_id), campaign_id)


def _usable(row: CampaignSettingsRow | None, campaign_id: int) -> CampaignSettingsRow:
    if row is None:
        return CampaignSettingsRow(campaign_id=campaign_id)
    if not settings_problems(row):
        return row
    default = CampaignSettingsRow(campaign_id=campaign_id)
    return CampaignSettingsRow(
        campaign_id=campaign_id,
        timezone=row.timezone if _zone_ok(row.timezone) else default.timezone,
        player_hours=row.player_hours if _hours_ok("player_hours", row.player_hours) else default.player_hours,
        remind_hours_before=(row.remind_hours_before if _hours_ok("remind_hours_before", row.remind_hours_before)
                             else default.remind_hours_before),
        on_timeout=row.on_timeout if row.on_timeout in ("pass", "wait") else default.on_timeout,
    )


def save_settings(engine: Engine, campaign_id: int, *, session: Session | None = None, **changes: Any) -> CampaignSettingsRow:
    """Validate and store; with ``session`` (a post's, holding the write lock) only flushed, committed with the post."""
    allowed = {"timezone", "player_hours", "remind_hours_before", "on_timeout"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"unknown setting(s): {quote(', '.join(sorted(unknown)))}; the settings are {', '.join(sorted(allowed))}")
    if "on_timeout" in changes and changes["on_timeout"] not in ("pass", "wait"):
        raise ValueError(f"'{quote(str(changes['on_timeout']))}': on_timeout is 'pass' or 'wait'")
    for key in ("player_hours", "remind_hours_before"):
        if key in changes and not _hours_ok(key, changes[key]):
            raise ValueError(f"{key} must be a number of hours up to {MAX_SETTING_HOURS:g}")
    if "timezone" in changes and not _zone_ok(changes["timezone"]):
        raise ValueError(f"'{quote(str(changes['timezone']))}' is not a time zone: write an IANA name, e.g. Europe/Rome")
    if session is not None:
        return _store_settings(session, campaign_id, changes, commit=False)
    with Session(engine) as own:
        return _store_settings(own, campaign_id, changes, commit=True)


def _store_settings(session: Session, campaign_id: int, changes: dict[str, Any], *, commit: bool) -> CampaignSettingsRow:
    row = session.get(CampaignSettingsRow, campaign_id) or CampaignSettingsRow(campaign_id=campaign_id)
    for name, value in changes.items():
        setattr(row, name, value)
    session.add(row)
    if commit:
        session.commit()
        session.refresh(row)
    else:
        session.flush()
    return row


def active_deadlines(session: Session, campaign_id: int | None = None) -> list[DeadlineRow]:
    query = select(DeadlineRow).where(col(DeadlineRow.state).in_(ACTIVE))
    if campaign_id is not None:
        query = query.where(DeadlineRow.campaign_id == campaign_id)
    return list(session.exec(query.order_by(col(DeadlineRow.due_at), col(DeadlineRow.id))).all())


def active_deadlines_of(session: Session, campaign_ids: Collection[int]) -> dict[int, list[DeadlineRow]]:
    """``active_deadlines`` of each campaign, in one query (a round of posts touches hundreds of campaigns)."""
    found: dict[int, list[DeadlineRow]] = {campaign_id: [] for campaign_id in campaign_ids}
    for chunk in _chunks(sorted(found)):
        query = select(DeadlineRow).where(col(DeadlineRow.state).in_(ACTIVE), col(DeadlineRow.campaign_id).in_(chunk))
        for row in session.exec(query.order_by(col(DeadlineRow.due_at), col(DeadlineRow.id))).all():
            found[row.campaign_id].append(row)
    return found


def settings_of(session: Session, campaign_ids: Collection[int]) -> dict[int, CampaignSettingsRow]:
    """``settings_for`` of each campaign, in one query."""
    stored: dict[int, CampaignSettingsRow] = {}
    for chunk in _chunks(sorted(set(campaign_ids))):
        stored.update((row.campaign_id, row) for row in session.exec(select(CampaignSettingsRow).where(
            col(CampaignSettingsRow.campaign_id).in_(chunk))).all())
    return {campaign_id: _usable(stored.get(campaign_id), campaign_id) for campaign_id in campaign_ids}


def _chunks(ids: list[int], size: int = 500) -> Iterator[list[int]]:
    # SQLite's default limit is 999 bound parameters a statement (older builds).
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def unsent(session: Session, campaign_id: int | None = None) -> list[PostedRow]:
    """Claims whose send was never confirmed: the process died between claim and record (of one campaign)."""
    query = select(PostedRow).where(PostedRow.message_id == None)  # noqa: E711
    if campaign_id is not None:
        query = query.where(PostedRow.campaign_id == campaign_id)
    return list(session.exec(query).all())


# The oldest deadline a start-up still acts on; anything before is a corrupt row, not a bot that was down.
OLDEST_DEADLINE = datetime(2000, 1, 1, tzinfo=timezone.utc)


def _stored_moment(value: Any) -> datetime | None:
    """A naive-UTC time as SQLite holds it (text), or None if it is no time at all."""
    if isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(str(value))
        except ValueError:
            return None
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def repair_rows(engine: Engine, now: datetime, campaign_ids: set[int] | None = None) -> dict[int, list[str]]:
    """Make every stored setting and active deadline usable, whatever wrote it; returns what was fixed, per campaign.
    ``campaign_ids``: only those campaigns' rows (a shard's: the process that repairs is the one that tells the GM).

    Read with plain SQL, since a row the ORM cannot even load ('garbage' as a time) must be fixable too. A bad
    setting goes back to its default; an active deadline whose due time is not a time, or not between 2000 and a
    year (twice the longest turn) from now, is cancelled: the start-up's sync then gives the seat a fresh one.
    A reminder time that makes no sense is dropped.
    """
    from sqlalchemy import text

    horizon = now + timedelta(days=731)
    fixed: dict[int, list[str]] = {}
    # Under the write lock from the start: a read that turns into a write is refused at once by SQLite when another
    # process (a second shard starting beside this one) wrote in between.
    with Session(writer(engine)) as session:
        for row in session.exec(select(CampaignSettingsRow)).all():
            if campaign_ids is not None and row.campaign_id not in campaign_ids:
                continue
            problems = settings_problems(row)
            if problems:
                good = settings_for(session, row.campaign_id)
                for key in ("timezone", "player_hours", "remind_hours_before", "on_timeout"):
                    setattr(row, key, getattr(good, key))
                session.add(row)
                fixed.setdefault(row.campaign_id, []).append("settings " + ", ".join(problems))
        session.commit()
    with writer(engine).begin() as connection:
        active = connection.execute(
            text("SELECT id, campaign_id, seat, due_at, remind_at FROM deadline WHERE state IN ('pending', 'reminded')")
        ).all()
        for deadline_id, campaign_id, seat, due_raw, remind_raw in active:
            if campaign_ids is not None and campaign_id not in campaign_ids:
                continue
            due = _stored_moment(due_raw)
            if due is None or not OLDEST_DEADLINE <= due <= horizon:
                connection.execute(text("UPDATE deadline SET state = :s WHERE id = :i"), {"s": CANCELLED, "i": deadline_id})
                fixed.setdefault(campaign_id, []).append(
                    f"the deadline of {seat} ('{quote(str(due_raw), 40)}') was not a sane time: it starts afresh")
                continue
            remind = None if remind_raw is None else _stored_moment(remind_raw)
            if remind_raw is not None and (remind is None or not OLDEST_DEADLINE <= remind <= due):
                connection.execute(text("UPDATE deadline SET remind_at = NULL WHERE id = :i"), {"i": deadline_id})
                fixed.setdefault(campaign_id, []).append(
                    f"the reminder of {seat} ('{quote(str(remind_raw), 40)}') was not a sane time: dropped")
    return fixed
