"""The public draws the in-bot /verify holds a campaign's log to: the sources' word, never the GM's.

The store's draw table holds what the campaign used, GM-typed draws included: checking the log against it alone
would check a GM's typing against itself. So a draw the store took from two agreeing sources (or from the official
archive the operator imported) is the public draw; one typed by a GM, or taken from a single source, counts only
where two sources' latest answers agree on it (in ``fetched_draw``), and is left out otherwise: ``verify`` then
reports it as not checkable, and the reply (bot/service/verify_text.py) says how to check it with the archive.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from sqlmodel import Session

from bot.store import draws as draw_store
from bot.store.fetched_draws import latest_fetches
from engine.events import Event
from engine.lotto import missing_wheels

PublicDraws = dict[str, dict[str, list[int]]]


def needs_the_sources(source: str) -> bool:
    """A draw whose stored source is not the sources' word: typed by a GM, or from one source, on any wheel."""
    return any(part.strip().startswith(("gm", "single")) for part in source.split(";"))


def public_draws(session: Session, events: list[Event]) -> PublicDraws:
    """Every draw the log recorded, as the sources give it; a GM-typed or single-source one only with two agreeing
    sources' word."""
    public: PublicDraws = {}
    for event in events:
        if event.kind != "draw.recorded":
            continue
        day = date.fromisoformat(str(event.data["date"]))
        source = str(event.data.get("source") or draw_store.source_of(session, day))
        found = _two_agreeing(session, day) if needs_the_sources(source) else draw_store.get_draw(session, day)
        if found is not None:
            public[day.isoformat()] = {w: list(n) for w, n in found.numbers.items()}
    return public


def _two_agreeing(session: Session, day: date) -> Any:
    """The draw two or more sources' latest answers agree on, whole, or None."""
    latest = [row.draw for row in latest_fetches(session, day).values()]
    for draw in latest:
        if not missing_wheels(draw) and sum(1 for other in latest if other.numbers == draw.numbers) >= 2:
            return draw
    return None
