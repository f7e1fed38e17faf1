"""A stored log that no longer verifies: a row damaged after it was written (a flipped byte, a hand that edited it).

Every reader turns a stored event that is not readable, or does not follow the hash chain, into ``DamagedLog``,
which every command and transport answers with one line naming the campaign and the event, and the way out
(a backup). Nothing is ever appended to such a log: the service refuses the post, since the chain it would extend
no longer exports as a log anyone can verify.

Walking the whole chain costs a hash per event, so it is done where the log is read whole anyway (export, ledger,
backup, restore, verify), when a long-running service first folds a campaign from its snapshot, and each time the
log crosses a snapshot boundary (``walk_due``); a fold from a snapshot checks only the events after it.
Standard library and the engine only: the direct writer and the read-only commands use it without SQLAlchemy.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.events import Event, Rejection
from engine.ledger import chain_problems

T = TypeVar("T")


class DamagedLog(Exception):
    """A stored event that cannot be read, or a chain that does not hold; ``problem`` names the event."""

    def __init__(self, problem: str, campaign: str | None = None) -> None:
        self.problem, self.campaign = problem, campaign
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = f"campaign '{self.campaign}'" if self.campaign else "this campaign"
        return (f"the stored log of {where} does not verify: {self.problem}. Nothing was changed, and nothing will "
                "be added to it: restore the last good backup (legatus restore --from BACKUP --db FILE --force)")

    def of(self, campaign: str) -> "DamagedLog":
        """The same damage, named with its campaign (the store that found it knew only the campaign's id)."""
        return self if self.campaign else DamagedLog(self.problem, campaign)


def event_from_body(body: Any, seq: int | None = None) -> Event:
    """The event a stored row holds; DamagedLog when the row is not a readable event."""
    try:
        return Event.from_dict(json.loads(body))
    except (ValueError, TypeError, KeyError, AttributeError):
        where = f"event #{seq}" if seq is not None else "an event"
        raise DamagedLog(f"{where} is not readable JSON") from None


def chain_break(events: Iterable[Event]) -> str | None:
    """The first break of a whole log read from the store (a gap, a changed event), in words; None when it holds."""
    listed = list(events)
    for number, event in enumerate(listed, start=1):
        if event.seq != number:
            return f"event #{number} is missing (the log jumps to #{event.seq})"
    for seq, _ in chain_problems(listed):
        return f"event #{seq} does not match the hash chain (it or the one before it was changed)"
    return None


def check_whole(events: Iterable[Event], campaign: str | None = None) -> None:
    """Raise DamagedLog when the whole stored log does not verify."""
    problem = chain_break(events)
    if problem is not None:
        raise DamagedLog(problem, campaign)


def check_stored(read: Callable[[], Iterable[Event]], campaign: str) -> None:
    """Walk the whole stored log ``read()`` gives: DamagedLog, naming ``campaign``, when a row is not readable or
    the chain does not hold."""
    try:
        check_whole(read(), campaign)
    except DamagedLog as exc:
        raise exc.of(campaign) from None


def walk_due(before_seq: int, after_seq: int, every: int) -> bool:
    """Whether a post that took the log from ``before_seq`` to ``after_seq`` crossed a snapshot boundary: the
    moments the whole chain is walked again, so damage under a running writer is found within ``every`` events
    (and, the post being refused, every post after it walks again until the log is restored)."""
    return after_seq // every != before_seq // every


def checked_export(text: str, campaign: str | None = None) -> str:
    """An exported log (one stored body a line), returned only when it verifies: a log handed out (export, ledger,
    /verify) must be one that anyone can check, not the damage passed on."""
    try:
        events = [event_from_body(line, n) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    except DamagedLog as exc:
        raise exc.of(campaign) if campaign else exc from None
    check_whole(events, campaign)
    return text


def replayed(fold: Callable[[], T], stored: Callable[[], list[Event]], campaign: str) -> T:
    """``fold()`` over stored events, with a stored event the engine refuses turned into DamagedLog naming it: a
    chain that breaks is named by ``chain_break`` over the ``stored()`` log, else the refusal is quoted."""
    try:
        return fold()
    except DamagedLog as exc:
        raise exc.of(campaign) from None
    except Rejection as exc:
        try:
            problem = chain_break(stored())
        except DamagedLog as unreadable:
            raise unreadable.of(campaign) from None
        raise DamagedLog(problem or f"its events do not replay with this version of Legatus ({exc.reason})",
                         campaign) from None
