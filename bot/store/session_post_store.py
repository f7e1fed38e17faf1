"""The post store (``bot/store/post_store.py``) over a SQLAlchemy session: the one the bot and the service use."""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlmodel import Session

from bot.store import campaign_secret, draws, sealed, snapshots
from bot.store.campaigns import events_after
from engine.events import Event
from engine.log import Folded
from engine.lotto import Draw


class SessionPostStore:
    def __init__(self, session: Session) -> None:
        self._session = session

    @property
    def session(self) -> Session:
        return self._session

    def snapshot(self, campaign_id: int, key: str) -> Folded | None:
        return snapshots.load(self._session, campaign_id, key)

    def events(self, campaign_id: int, after: int = 0) -> list[Event]:
        return events_after(self._session, campaign_id, after)

    def sealed_after(self, campaign_id: int, after: int = 0) -> dict[int, dict[str, Any]]:
        return sealed.all_for(self._session, campaign_id, after)

    def sealed(self, campaign_id: int, seq: int) -> dict[str, Any] | None:
        return sealed.get(self._session, campaign_id, seq)

    def keep_sealed(self, campaign_id: int, seq: int, secret: dict[str, Any]) -> None:
        sealed.put(self._session, campaign_id, seq, secret)

    def keep_snapshot(self, campaign_id: int, key: str, folded: Folded) -> None:
        snapshots.store(self._session, campaign_id, key, folded)

    def draw(self, day: date) -> Draw | None:
        return draws.get_draw(self._session, day)

    def draw_source(self, day: date) -> str:
        return draws.source_of(self._session, day)

    def draw_dates_after(self, day: date, limit: int) -> list[date]:
        return draws.draw_dates_after(self._session, day, limit)

    def first_draw_day_on_or_after(self, day: date) -> date | None:
        return draws.first_draw_day_on_or_after(self._session, day)

    def latest_draw_date(self) -> date | None:
        return draws.latest_draw_date(self._session)

    def seed_of(self, campaign_id: int) -> str | None:
        return campaign_secret.seed_of(self._session, campaign_id)

    def turn_deadlines(self, campaign_id: int) -> list[tuple[str | None, datetime, str]]:
        from bot.store.schedule_tables import PLAYER_TURN, active_deadlines

        return [(d.seat, d.due_at, d.state) for d in active_deadlines(self._session, campaign_id) if d.kind == PLAYER_TURN]

    def flush(self) -> None:
        self._session.flush()
