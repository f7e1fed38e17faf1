"""The kinds and states of a deadline row (``bot/store/schedule_tables.py``), apart from the table so that the direct
writer (``bot/store/sqlite_post_store.py``) reads the status board's deadlines without importing SQLAlchemy."""
from __future__ import annotations

from datetime import datetime, timezone

PLAYER_TURN = "player_turn"
TURN_CLOSE = "turn_close"
LOTTO_FETCH = "lotto_fetch"

PENDING = "pending"
REMINDED = "reminded"
DONE = "done"
CANCELLED = "cancelled"
ACTIVE = (PENDING, REMINDED)


def as_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a naive datetime has no meaning here: give a timezone-aware one")
    return moment.astimezone(timezone.utc)
