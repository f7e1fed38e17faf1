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
