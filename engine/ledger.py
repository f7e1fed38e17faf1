"""The hash chain over a campaign's log: no event can be slipped in, dropped or changed afterwards.

Each event's hash is SHA-256 of the previous event's hash and the event's canonical JSON (without its own
hash). The head of the chain is shown with the bindings the bot posts, so a copy of the log can be checked
against what was public at the time.
"""
from __future__ import annotations

from engine import canonical
from engine.events import Event

GENESIS = "0" * 64


def event_hash(previous: str, event: Event) -> str:
    return canonical.sha256_hex(previous + "\n" + canonical.dumps(event.to_dict(with_hash=False)))


def chain_problems(events: list[Event]) -> list[tuple[int, str]]:
    """(seq, problem) for every event whose hash does not follow from the one before it."""
    problems = []
    head = GENESIS
    for event in events:
        expected = event_hash(head, event)
        if not event.hash:
            problems.append((event.seq, "has no hash: the log was not written by Legatus, or was edited"))
        elif event.hash != expected:
            problems.append((event.seq, "does not match the hash chain: this event (or the one before it) was changed or inserted"))
        # Continue from the stored hash, so one edited event is reported once, not for every event after it.
        head = event.hash or expected
    return problems
