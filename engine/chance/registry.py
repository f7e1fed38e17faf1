"""The sources of chance, registered in one place: the book, verify, takeback and the shell read them here.

To add a source: write its module in ``engine/chance/sources/`` (one object satisfying
engine/chance/source.py's ``Source``), add it to ``SOURCES`` below, and test it in tests/engine/chance/sources/.
"""
from __future__ import annotations

import datetime as dt

from engine.chance.source import Rounds, Source
from engine.chance.sources import commit_reveal, drand, fixed, lottery

SOURCES: tuple[Source, ...] = (lottery.SOURCE, drand.SOURCE, commit_reveal.SOURCE, fixed.SOURCE)
DEFAULT = lottery.NAME  # a campaign whose game names no source (and every log from before sources were named)
_BY_NAME = {s.name: s for s in SOURCES}
NAMES = tuple(_BY_NAME)


def get(name: str) -> Source | None:
    return _BY_NAME.get(name)


def offered() -> tuple[Source, ...]:
    """The sources a campaign may choose (Discord's and the CLI's choices); the others serve scenario tests."""
    return tuple(s for s in SOURCES if s.offered)


def offered_names() -> tuple[str, ...]:
    return tuple(s.name for s in offered())


def choices_words() -> str:
    """The names a campaign may choose, for a message: "'lottery', 'drand' or 'commit-reveal'"."""
    names = [f"'{n}'" for n in offered_names()]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def recording(kind: str) -> Source | None:
    """The source whose public values an event of ``kind`` brings (None for any other event)."""
    return next((s for s in SOURCES if kind in s.records), None)


def record_kinds() -> tuple[str, ...]:
    """Every event kind that brings a public value into a book."""
    return tuple(k for s in SOURCES for k in s.records)


def behind(source: str, key: str) -> tuple[Source, str] | None:
    """The clocked public value a binding waits for (``source``, ``key`` as the ledger names them): its own or
    another source's (a mixed commit-reveal label waits for its drand round); None when no clock makes it public
    (a label of the seed alone, a value given in advance, a source this code does not know)."""
    named = get(source)
    value = named.waits_for(key) if named is not None else None
    clocked = get(value[0]) if value is not None else None
    return None if value is None or clocked is None or not clocked.clocked else (clocked, value[1])


def public_moment(source: str, key: str, rounds: Rounds) -> tuple[Source, str, dt.datetime] | None:
    """The public value with a clock behind a binding (``source``, ``key`` as the ledger names them), and when it is
    public: (its source, its key, the moment); None when no clock makes it public (a label of the seed alone, a
    value given in advance) or the key cannot be read."""
    value = behind(source, key)
    moment = value[0].moment(value[1], rounds) if value is not None else None
    return None if value is None or moment is None else (value[0], value[1], moment)
