"""The ``fetched_draw`` table: every answer a lottery source gave, with its raw bytes and their SHA-256.

The evidence behind a stored draw: a GM can always show what a source said and when. The sources
themselves (``bot.lottery.sources``) fill it; ``bot.lottery.reconcile`` reads it. ``UtcDateTime`` is the
aware-UTC column type every table with a moment uses.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, DateTime, LargeBinary, TypeDecorator
from sqlmodel import Field, Session, SQLModel, col, select

from engine import canonical
from engine.lotto import Draw


class UtcDateTime(TypeDecorator[dt.datetime]):
    """Aware UTC in, aware UTC out: SQLite keeps no time zone, so it is stored as naive UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("fetched_at must be timezone-aware")
        return value.astimezone(dt.timezone.utc).replace(tzinfo=None)

    def process_result_value(self, value: dt.datetime | None, dialect: Any) -> dt.datetime | None:
        return None if value is None else value.replace(tzinfo=dt.timezone.utc)


class FetchedDrawRow(SQLModel, table=True):
    """One source's answer for one draw day, exactly as received: the evidence behind a stored draw."""

    __tablename__ = "fetched_draw"

    id: int | None = Field(default=None, primary_key=True)
    date: dt.date = Field(index=True)
    source: str  # "archive", "lotto-italia", or "gm:<name>" for a GM's confirmation by hand
    url: str
    fetched_at: dt.datetime = Field(sa_column=Column(UtcDateTime(), nullable=False))
    sha256: str = Field(max_length=64)
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    numbers: str  # canonical JSON {"BA": [n1..n5], ...}

    @property
    def draw(self) -> Draw:
        return Draw(self.date, {w: tuple(n) for w, n in json.loads(self.numbers).items()})


@dataclass(frozen=True)
class FetchedDraw:
    source: str
    url: str
    draw: Draw
    raw: bytes
    fetched_at: dt.datetime

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()


def record_fetch(session: Session, fetched: FetchedDraw, *, commit: bool = True) -> bool:
    """Keep a source's answer; False when it is the same bytes as that source's latest for the day.

    Compared with the latest only, not all earlier rows: a source that changes its mind and changes it
    back must show up as three answers, in order.
    """
    latest = latest_fetches(session, fetched.draw.date, include_gm=True).get(fetched.source)
    if latest is not None and latest.sha256 == fetched.sha256:
        return False
    session.add(FetchedDrawRow(
        date=fetched.draw.date, source=fetched.source, url=fetched.url, fetched_at=fetched.fetched_at,
        sha256=fetched.sha256, raw=fetched.raw, numbers=canonical.dumps(fetched.draw.to_dict()["numbers"]),
    ))
    session.commit() if commit else session.flush()  # commit=False: a post's transaction, committed by its owner
    return True


def latest_fetches(session: Session, day: dt.date, include_gm: bool = False) -> dict[str, FetchedDrawRow]:
    """Each source's most recent answer for ``day``."""
    rows = session.exec(
        select(FetchedDrawRow).where(FetchedDrawRow.date == day).order_by(col(FetchedDrawRow.id))
    ).all()
    latest: dict[str, FetchedDrawRow] = {}
    for row in rows:
        if include_gm or not row.source.startswith("gm:"):
            latest[row.source] = row
    return latest
