"""A GM's rulings on a lottery draw (``/lotto confirm``, ``/lotto cancelled``) ask the sources first.

A GM may type a draw, or rule it not held, only where no source holds it (bot/lottery/asking.py). The sources are
asked over the network when the post comes in, before its transaction: a post's transaction holds the write lock
(every campaign's posts wait behind it), and a source may take seconds to answer. ``with_sources_asked`` does it
for ``Legatus.post_many`` and, on a thread of its own, for the post queue; a ruling whose day was not asked that
way (a line the quick scan missed) asks inside the post as a last resort.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from bot.service.post_reading import PostRequest
from engine.events import Rejection

# Only the date is read here; the command itself is read, and refused if wrong, by the post's own reading.
_RULING = re.compile(r"^\s*/lotto\s+(?:confirm|cancelled)\s+(\d{4}-\d{2}-\d{2})(?=\s|$)", re.MULTILINE | re.IGNORECASE)


def days_ruled(text: str) -> list[date]:
    """The days a post's ``/lotto confirm`` and ``/lotto cancelled`` lines name, in order, each once."""
    days: list[date] = []
    for match in _RULING.finditer(text):
        try:
            day = date.fromisoformat(match[1])
        except ValueError:
            continue  # not a real date: the reading says so
        if day not in days:
            days.append(day)
    return days


def needs_asking(request: PostRequest) -> bool:
    """A post whose rulings are still to be asked about. A transport that found its author no GM asks nothing: a
    player cannot make the bot call the sources."""
    return request.asked is None and request.is_gm is not False and bool(days_ruled(request.text))


def with_sources_asked(request: PostRequest, ask: Callable[[date], Any]) -> PostRequest:
    """The request with what every source says now of each day it rules on."""
    if not needs_asking(request):
        return request
    return replace(request, asked={day: ask(day) for day in days_ruled(request.text)})


def refuse_if_a_source_holds(session: Any, day: date, asked: Any) -> None:
    """A draw some source holds (now, or in any earlier answer) was held: ruling it cancelled would give the rolls
    bound to it a second chance."""
    from bot.lottery.asking import held_by_sources, holders

    held = holders(session, day)
    if held:
        raise Rejection(f"{held_by_sources(day, held)}: it was held, so it cannot be ruled cancelled; its rolls wait "
                        "for it (stored once two sources agree, legatus lotto fetch, or from the official archive, "
                        "legatus lotto import)")


def sources_word(posting: Any, day: date, ask: Callable[[date], Any]) -> Any:
    """What the sources said of ``day`` for this post (asked before its transaction, or now as a last resort), kept
    in ``fetched_draw`` within the post's transaction."""
    from bot.lottery.asking import keep_answers

    asked = posting.asked.get(day)
    if asked is None:
        asked = ask(day)
    keep_answers(posting.session, asked, commit=False)
    return asked
