"""The sources of chance, registered in one place: the book, verify, takeback and the shell read them here.

To add a source: write its module in ``engine/chance/sources/`` (one object satisfying
engine/chance/source.py's ``Source``), add it to ``SOURCES`` below, and test it in tests/engine/chance/sources/.
"""
from __future__ import annotations

import datetime as dt

from engine.chance.source import Rounds, Source
from engine.chance.sources import commit_reveal, drand, lottery

SOURCES: tuple[Source, ...] = (lottery.SOURCE, drand.SOURCE, commit_reveal.SOURCE)
_BY_NAME = {s.name: s for s in SOURCES}
NAMES = tuple(_BY_NAME)


def get(name: str) -> Source | None:
    return _BY_NAME.get(name)


def offered() -> tuple[Source, ...]:
    """The sources a campaign may choose (Discord's and the CLI's choices); the others serve scenario tests."""
    return tuple(s for s in SOURCES if s.offered)


def offered_names() -> tuple[str, ...]:
    return tuple(s.name for s in offered())


def recording(kind: str) -> Source | None:
    """The source whose public values an event of ``kind`` brings (None for any other event)."""
    return next((s for s in SOURCES if kind in s.records), None)


def record_kinds() -> tuple[str, ...]:
    """Every event kind that brings a public value into a book."""
    return tuple(k for s in SOURCES for k in s.records)


def public_moment(source: str, key: str, rounds: Rounds) -> tuple[Source, str, dt.datetime] | None:
    """The public value with a clock behind a binding (``source``, ``key`` as the ledger names them), and when it is
    public: (its source, its key, the moment); None when no clock makes it public (a label of the seed alone, a
    value given in advance) or the key cannot be read."""
    named = get(source)
    behind = named.waits_for(key) if named is not None else None
    if behind is None:
        return None
    clocked = get(behind[0])
    moment = clocked.moment(behind[1], rounds) if clocked is not None else None
    return None if clocked is None or moment is None else (clocked, behind[1], moment)
