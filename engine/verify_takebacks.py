"""``legatus verify``'s account of every take-back: each undo and void with the bindings it removed, and a finding
for any undo made after one of those bindings' values was public (engine/takeback.py says when that is).

The fold refuses such an undo only in campaigns created under the clock rules; an operator who holds the database
can still write one into a log (an older ``campaign.created``, the chain hashed anew). The check here reads the
undo's timestamp against the draw's 20:00 in Rome or the round's time in every log, whatever its rules.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import takeback
from engine.chance import registry
from engine.events import Event
from engine.log import PLAYER_UNDO, UNDO, VOID

WHO = {UNDO: "GM undo", VOID: "GM void", PLAYER_UNDO: "player undo"}


@dataclass(frozen=True)
class TakeBack:
    """One undo or void as the fold ran it: the event, what it took back, the bindings that went with it."""

    seq: int
    kind: str
    actor: str
    at: str
    target: int | None
    removed: tuple[dict[str, Any], ...]


def taken(event: Event, before: list[dict[str, Any]], after: list[dict[str, Any]],
          effective_before: Sequence[Event], effective_after: Sequence[Event]) -> TakeBack:
    """What ``event`` took back, from the ledgers and the events in effect just before and just after it."""
    left = {e.seq for e in effective_after}
    target = next((e.seq for e in effective_before if e.seq not in left), None)
    return TakeBack(event.seq, event.kind, event.actor, event.at, target, tuple(takeback.removed(before, after)))


def where_words(entry: Mapping[str, Any]) -> str:
    """Where a removed binding's values came from: draw and slots, round, or label."""
    source, key = str(entry.get("source")), str(entry.get("key"))
    slots = [s for s in entry.get("slots") or () if isinstance(s, (list, tuple)) and len(s) >= 3]
    named = registry.get(source)
    if named is not None and named.lottery and slots:
        if len(slots) > 3:
            return f"lottery {', '.join(sorted({str(s[0]) for s in slots}))} ({len(slots)} numbers)"
        return "lottery " + ", ".join(f"{s[0]} {s[1]} #{s[2]}" for s in slots)
    # The game's own words name the round and the label (or the commit-reveal label and its mixing round).
    return str(entry.get("where") or f"{source} '{key}'")


def check(takebacks: list[TakeBack], created: Mapping[str, Any]) -> tuple[list[tuple[int, str, str]], list[str]]:
    """(findings as (seq, purpose, detail), notes): every take-back listed, every late undo flagged."""
    findings: list[tuple[int, str, str]] = []
    notes: list[str] = []
    for t in takebacks:
        of = f" of event #{t.target}" if t.target is not None else ""
        took = f" took back event #{t.target}" if t.target is not None else ""
        bindings = "; ".join(f"{takeback.roll_words(e)} on {where_words(e)}" for e in t.removed)
        notes.append(f"{WHO.get(t.kind, t.kind)} event #{t.seq}{took} (by {t.actor} at {t.at or 'no time'}): "
                     + (f"bindings removed: {bindings}" if bindings else "no binding removed"))
        if t.kind == VOID:
            continue  # a void keeps the record: its outcomes stay listed, nothing was drawn again in secret
        late, readable = takeback.public_by(t.removed, created, t.at)
        what = f"{'player ' if t.kind == PLAYER_UNDO else ''}undo{of}"
        for p in late:
            if readable:
                detail = (f"{p.roll} was bound to {p.where}, public since {p.since.isoformat()}; the undo was made at "
                          f"{t.at}, after it: whoever undid it could know the outcome and bind the roll again")
            else:
                detail = (f"{p.roll} was bound to {p.where}, public since {p.since.isoformat()}; the undo's time "
                          f"({t.at or 'none'}) cannot be read, so nothing shows it came before")
            findings.append((t.seq, what, detail))
    return findings, notes
