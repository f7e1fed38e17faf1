"""Sealed content kept for its seat until the game reveals it: the private half of a sealed order or bid.

The public log holds only the digest (engine/secrets.py) of the content and its salt; this table holds both,
so the bot can show the content to its seat, fold it for live checks, and reveal it when the game says it is
due. It is never exported with the log. Alembic revision 0005 makes the table.
"""
from __future__ import annotations

import json
from typing import Any

from sqlmodel import Field, Session, SQLModel, select


class SealedRow(SQLModel, table=True):
    __tablename__ = "sealed_content"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id")
    seq: int = Field(primary_key=True)
    content: str  # canonical JSON of the content
    salt: str


def put(session: Session, campaign_id: int, seq: int, secret: dict[str, Any]) -> None:
    session.add(SealedRow(campaign_id=campaign_id, seq=seq, content=json.dumps(secret["content"], sort_keys=True),
                          salt=str(secret["salt"])))


def get(session: Session, campaign_id: int, seq: int) -> dict[str, Any] | None:
    row = session.get(SealedRow, (campaign_id, seq))
    if row is None:
        return None
    return {"content": json.loads(row.content), "salt": row.salt}


def all_for(session: Session, campaign_id: int, after_seq: int = 0) -> dict[int, dict[str, Any]]:
    rows = session.exec(select(SealedRow).where(SealedRow.campaign_id == campaign_id, SealedRow.seq > after_seq))
    return {row.seq: {"content": json.loads(row.content), "salt": row.salt} for row in rows}
