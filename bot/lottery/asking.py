"""Asking the sources about one draw at the moment a GM rules on it, and what they hold of it.

A GM may type a draw (``/lotto confirm``) or rule it not held (``/lotto cancelled``) only where no source holds it:
otherwise the GM would replace a published result, or give its rolls a second chance. So the ruling first asks
every source now, over HTTP as the fetcher does (each answer it gets is kept in ``fetched_draw`` like any fetch),
and then weighs everything any source ever said of that day (``holders``): a source that held it yesterday and is
down today still held it.

The ask is one try per source, without the fetcher's back-off: a GM waits for the answer, and a source that cannot
be reached now says nothing either way (the ruling is then recorded as such and ``verify`` still checks it against
the official archive).
"""
from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sqlmodel import Session

from bot.lottery.formats import iso
from bot.lottery.http import SourceFault
from bot.lottery.sources import SOURCE_NAMES, LottoSettings, Source, build_sources
from bot.store.fetched_draws import FetchedDraw, FetchedDrawRow, latest_fetches, record_fetch
from engine.lotto import Draw, format_numbers

_log = logging.getLogger("legatus.lotto")

# Faults that say the source answered that it has no such draw (yet): it was reached, and it does not hold it.
_LACKS = ("not-published", "not-a-draw-day")


@dataclass(frozen=True)
class SourceWord:
    """What one source said when asked: the draw it holds (as fetched), or why it gave none."""

    source: str
    url: str
    fetched: FetchedDraw | None = None
    problem: str = ""
    reached: bool = True

    def __str__(self) -> str:
        if self.fetched is not None:
            return f"{self.source} ({self.url}) holds it"
        how = "has not got it" if self.reached else "could not be reached"
        return f"{self.source} ({self.url}) {how}: {self.problem}"


@dataclass(frozen=True)
class SourcesAsked:
    """Every source's word on one day, asked at one moment."""

    day: dt.date
    words: tuple[SourceWord, ...]

    def summary(self) -> str:
        if not self.words:
            return "no lottery source is configured to ask"
        return "asked now: " + "; ".join(str(w) for w in self.words)


Asker = Callable[[dt.date], SourcesAsked]


def ask_sources(day: dt.date, sources: Sequence[Source]) -> SourcesAsked:
    """Ask each source once for the draw of ``day``: the network only (``keep_answers`` stores what they gave)."""
    words: list[SourceWord] = []
    for source in sources:
        try:
            fetched = source.fetch(day)
        except SourceFault as fault:
            words.append(SourceWord(source.name, fault.url, problem=fault.problem, reached=fault.kind in _LACKS))
            continue
        words.append(SourceWord(source.name, fetched.url, fetched=fetched))
    return SourcesAsked(day, tuple(words))


def keep_answers(session: Session, asked: SourcesAsked, *, commit: bool) -> None:
    """Keep every draw a source gave in ``fetched_draw``, like any fetch: the evidence of what it said and when."""
    for word in asked.words:
        if word.fetched is not None:
            record_fetch(session, word.fetched, commit=commit)


def env_asker(settings: Callable[[], LottoSettings] = LottoSettings.from_env) -> Asker:
    """The bot's asker: the sources the environment names (as the scheduled fetch uses), one try each."""

    def ask(day: dt.date) -> SourcesAsked:
        try:
            chosen = settings()
        except ValueError as exc:  # a bad setting must not stop a ruling with a traceback: it asked nobody
            _log.warning("the lottery sources cannot be asked: %s", exc)
            return SourcesAsked(day, tuple(SourceWord(name, "-", problem=f"not asked: {exc}", reached=False)
                                           for name in SOURCE_NAMES))
        once = replace(chosen, retry=replace(chosen.retry, attempts=1))
        return ask_sources(day, build_sources(once))

    return ask


def holders(session: Session, day: dt.date) -> dict[str, FetchedDrawRow]:
    """Each source that ever gave the draw of ``day`` (its latest answer), a GM's typing excluded."""
    return latest_fetches(session, day)


def held_by_sources(day: dt.date, held: dict[str, FetchedDrawRow], typed: Draw | None = None) -> str:
    """Which sources hold the draw of ``day``, and where ``typed`` differs from each: for a refusal message."""
    parts = []
    for name, row in held.items():
        theirs = row.draw
        differing = [w for w in theirs.numbers if typed is not None and typed.numbers.get(w) != theirs.numbers[w]]
        said = ", with other numbers: " + ", ".join(
            f"{w} {format_numbers(theirs.numbers[w])} (typed {_typed(typed, w)})" for w in differing) if differing else ""
        parts.append(f"{name} ({row.url}, fetched {row.fetched_at.strftime('%Y-%m-%d %H:%M')} UTC){said}")
    return f"the draw of {iso(day)} is held by " + "; ".join(parts)


def _typed(typed: Draw | None, wheel: str) -> str:
    return format_numbers(typed.numbers[wheel]) if typed is not None and wheel in typed.numbers else "none"
