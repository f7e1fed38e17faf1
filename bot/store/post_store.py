"""What reading a post needs of the store, inside the post's transaction: the port between the service's reading of
posts (``bot/service/post_reading.py``) and a database.

Two adapters: ``SessionPostStore`` (``bot/store/session_post_store.py``: SQLAlchemy, every database, every command)
and ``SqlitePostStore`` (``bot/store/sqlite_post_store.py``: Python's own ``sqlite3``, for `legatus post` with no bot
running, which would otherwise spend most of its time importing SQLAlchemy). What the second does not do (deadlines,
settings, a typed draw, a reveal) raises ``NeedsFullStore``: its caller rolls the post back and hands it to the
service, so both give the same answer and write the same rows.
"""
from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any, Protocol

from engine.events import Event
from engine.log import Folded
from engine.lotto import Draw


class NeedsFullStore(Exception):
    """The post needs what only the full store does: nothing of it is written here, the service answers it."""


class PostStore(Protocol):
    @property
    def session(self) -> Any:
        """The SQLAlchemy session of the transaction (deadlines, settings, typed draws); ``NeedsFullStore`` if none."""

    def snapshot(self, campaign_id: int, key: str) -> Folded | None:
        """The campaign's cached fold, if sound for this log and this ``key`` (``bot/store/fold_key.py``)."""

    def events(self, campaign_id: int, after: int = 0) -> list[Event]:
        """The campaign's events after number ``after``, in order."""

    def sealed_after(self, campaign_id: int, after: int = 0) -> dict[int, dict[str, Any]]:
        """The sealed contents (``{"content", "salt"}``) of the campaign's events after ``after``, by event number."""

    def sealed(self, campaign_id: int, seq: int) -> dict[str, Any] | None: ...

    def keep_sealed(self, campaign_id: int, seq: int, secret: dict[str, Any]) -> None: ...

    def keep_snapshot(self, campaign_id: int, key: str, folded: Folded) -> None:
        """Cache the fold, when the stored one is missing, unsound or ``bot.store.fold_key.EVERY`` events behind."""

    def draw(self, day: date) -> Draw | None:
        """The stored wheels of ``day`` (maybe not all of them), or None."""

    def draw_source(self, day: date) -> str: ...

    def draw_dates_after(self, day: date, limit: int) -> list[date]: ...

    def first_draw_day_on_or_after(self, day: date) -> date | None: ...

    def latest_draw_date(self) -> date | None: ...

    def seed_of(self, campaign_id: int) -> str | None:
        """The campaign's commit-reveal seed, or None (none stored, or no server key here)."""

    def turn_deadlines(self, campaign_id: int) -> list[tuple[str | None, datetime, str]]:
        """The running deadlines of players' turns, soonest first: (seat, when, its state: pending or reminded)."""

    def flush(self) -> None:
        """Send what the post wrote so far, so that a row the database refuses fails this post."""


def with_secrets(store: PostStore, campaign_id: int, events: list[Event], after: int = 0) -> list[Event]:
    """The events (those after ``after``) with their sealed contents, as the bot folds them: live checks and private
    views need them; the export never has them."""
    kept = store.sealed_after(campaign_id, after)
    if not kept:
        return events
    return [replace(e, secret=kept[e.seq]) if e.seq in kept else e for e in events]
