"""Reading a campaign's log in tests, and forging one as a dishonest operator would (edited, then hashed anew)."""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.events import Event
from engine.ledger import GENESIS, event_hash


def events_of(service: Any, campaign: str | None = None) -> list[Event]:
    """The campaign's exported log as events (``service``: a bot.service.Legatus)."""
    return [Event.from_dict(json.loads(line)) for line in service.export(campaign).splitlines() if line.strip()]


def rechained(events: list[Event]) -> list[Event]:
    """The events with a whole new hash chain: what an operator who edited the log would publish."""
    head, out = GENESIS, []
    for event in events:
        event = replace(event, hash="")
        event = replace(event, hash=event_hash(head, event))
        head = event.hash
        out.append(event)
    return out


class Unmarked:
    """A ruleset without ``ledger_mark``: ``verify`` then reads the whole ledger after every event."""

    def __init__(self, ruleset: Any) -> None:
        self._ruleset = ruleset

    def __getattr__(self, name: str) -> Any:
        if name == "ledger_mark":
            raise AttributeError(name)
        return getattr(self._ruleset, name)


def assert_trace_as_without_marks(ruleset: Any, events: list[Event]) -> None:
    """``verify`` reads the ledger only when the game's ``ledger_mark`` changes: what it learns of every roll (when it
    was bound, what each lottery number served, the commit-reveal ranges) must be what a read after every event
    learns."""
    from engine.verify import _trace

    marked, every = _trace(ruleset, events), _trace(Unmarked(ruleset), events)
    assert marked.bound_at == every.bound_at
    assert marked.slots == every.slots
    assert (marked.ranges, marked.mixes, marked.voids) == (every.ranges, every.mixes, every.voids)
    assert getattr(ruleset, "ledger_mark", None) is not None and marked.bound_at, "nothing was compared"
