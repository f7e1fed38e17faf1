"""Deadlines in words for Discord and the status command: apart from ``bot/service/deadlines.py`` (which writes the
deadline table through SQLAlchemy) so that a post read over Python's own sqlite3 words them the same."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.store.deadline_states import REMINDED, as_utc


def discord_time(moment: datetime, style: str = "F") -> str:
    """A Discord timestamp: every reader sees it in their own zone (F: full date, R: relative)."""
    return f"<t:{int(as_utc(moment).timestamp())}:{style}>"


def discord_when(moment: datetime) -> str:
    return f"{discord_time(moment, 'R')} ({discord_time(moment, 'F')})"


def seat_players(ruleset: Any, state: Any) -> dict[str, str]:
    """Each seat's player identity ("" for none), through the ruleset boundary: whom a deadline names."""
    return {seat.name: str(seat.player or "") for seat in ruleset.seats(state)}


def deadline_lines(deadlines: list[tuple[str | None, datetime, str]], players: Mapping[str, str]) -> list[str]:
    """Who is up and until when (``PostStore.turn_deadlines``), as Discord timestamps."""
    if not deadlines:
        return ["No running deadline."]
    return [f"{seat} ({players.get(seat or '') or 'no player'}): until {discord_when(due)}"
            + (" (reminded)" if state == REMINDED else "") for seat, due, state in deadlines]
