"""Where a campaign's Discord messages live: each turn's thread (or forum post) and the pinned status board.

Kept in the database, not in memory: after a restart the bot must find an auto-archived turn post (Discord
sends no archived threads at start-up) and must never guess by a thread's name, which a player can copy.
"""
from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import Field, Session, SQLModel, col, select

from bot.store.creations import finish
from bot.store.db import writer


class TurnThreadRow(SQLModel, table=True):
    __tablename__ = "turn_thread"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    turn: int = Field(primary_key=True)
    thread_id: str


class StatusBoardRow(SQLModel, table=True):
    __tablename__ = "status_board"

    campaign_id: int = Field(foreign_key="campaign.id", primary_key=True)
    channel_id: str
    message_id: str


def turn_thread(session: Session, campaign_id: int, turn: int) -> str | None:
    row = session.get(TurnThreadRow, (campaign_id, turn))
    return row.thread_id if row is not None else None


def latest_turn_thread(session: Session, campaign_id: int, at_most: int | None = None) -> tuple[int, str] | None:
    """The newest stored turn thread (up to turn ``at_most``): where a forum campaign's between-turn news go."""
    query = select(TurnThreadRow).where(TurnThreadRow.campaign_id == campaign_id)
    if at_most is not None:
        query = query.where(TurnThreadRow.turn <= at_most)
    row = session.exec(query.order_by(col(TurnThreadRow.turn).desc())).first()
    return (row.turn, row.thread_id) if row is not None else None


def turn_threads(session: Session, campaign_id: int) -> list[tuple[int, str]]:
    """Every stored turn thread of the campaign, (turn, thread id), oldest turn first."""
    rows = session.exec(select(TurnThreadRow).where(TurnThreadRow.campaign_id == campaign_id)
                        .order_by(col(TurnThreadRow.turn))).all()
    return [(r.turn, r.thread_id) for r in rows]


def save_turn_thread(engine: Engine, campaign_id: int, turn: int, thread_id: str, claimed: str | None = None) -> None:
    """Save the turn's thread and close its creation claim (``claimed``, bot/store/creations.py) in one transaction."""
    # The write lock first (BEGIN IMMEDIATE): a read-then-write transaction would fail at once on a busy database.
    with Session(writer(engine)) as session:
        session.merge(TurnThreadRow(campaign_id=campaign_id, turn=turn, thread_id=thread_id))
        finish(session, claimed, thread_id)
        if thread_id.isdigit():
            from bot.store.read_marks import Seen, mark_read

            # Read from its start (a thread's id is older than its messages): its first post, made while the bot
            # was away, is caught up at the next start (bot/discord/catch_up.py).
            mark_read(session, [Seen(campaign_id, thread_id, int(thread_id))])
        session.commit()


def status_board(session: Session, campaign_id: int) -> StatusBoardRow | None:
    return session.get(StatusBoardRow, campaign_id)


def save_status_board(engine: Engine, campaign_id: int, channel_id: str, message_id: str,
                      claimed: str | None = None) -> None:
    with Session(writer(engine)) as session:
        session.merge(StatusBoardRow(campaign_id=campaign_id, channel_id=channel_id, message_id=message_id))
        finish(session, claimed, message_id)
        session.commit()
