"""A campaign's public record, built from its exported log alone: what the campaign site shows.

The site reads nothing but the export (``legatus export``): the same lines anyone can download, with sealed
contents as their digests. So nothing private can reach a page by mistake: the fold below never sees the private
store, and a test checks that a campaign with sealed content leaves none of it in the site.

What the server computes here (the turns, the ledger, which event bound each roll, the maps) is a convenience for
reading; the checks that matter run again in the reader's browser (bot/site/static/verify.js) from the log itself.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.events import Event, Rejection
from engine.log import start, step
from engine.ruleset import Picture, Ruleset
from engine.rulesets import load_ruleset
from engine.verify import binding_events

MAX_ANNOUNCEMENTS_PER_TURN = 400  # a turn's messages on the page; the whole record stays in the log


@dataclass
class TurnRecord:
    """One game turn as the page shows it: its label, the messages of its events, the map when it ended."""

    number: int
    label: str
    first_seq: int
    last_seq: int = 0
    head: str = ""  # the chain's head after the turn's last event: an anchor to compare with Discord's
    messages: list[tuple[int, str]] = field(default_factory=list)
    picture: Picture | None = None


@dataclass
class CampaignRecord:
    name: str
    ruleset: Ruleset
    events: list[Event]
    turns: list[TurnRecord]
    state: Any
    head: str
    last_seq: int


class NotAPublicLog(ValueError):
    """An export that cannot be read or replayed: the message names the line or event and why."""


def read_events(log_text: str) -> list[Event]:
    events = []
    for number, line in enumerate(log_text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            events.append(Event.from_dict(raw))
        except (ValueError, KeyError, TypeError) as exc:
            raise NotAPublicLog(f"line {number} of the log is not an event ({exc})") from None
    if not events:
        raise NotAPublicLog("the log is empty")
    return events


def build(name: str, log_text: str, data_dir: Path) -> CampaignRecord:
    """Replay the export event by event, keeping each turn's messages, head and closing map."""
    events = read_events(log_text)
    try:
        ruleset = load_ruleset(str(events[0].data.get("ruleset", "")), data_dir)
    except (KeyError, ValueError, LookupError) as exc:
        raise NotAPublicLog(f"campaign '{name}': its game cannot be loaded ({exc})") from None
    try:
        folded, messages = start(ruleset, events[0])
    except Rejection as exc:
        raise NotAPublicLog(f"campaign '{name}': {exc.reason}") from None
    turns: list[TurnRecord] = []
    current = _turn(ruleset, folded.state, 1)
    current.head = folded.head
    current.messages.extend((1, m) for m in messages)
    for event in events[1:]:
        try:
            # The fold is this function's own: stepping in place saves copying the state at every event.
            folded, messages = step(ruleset, folded, event, in_place=True)
        except Rejection as exc:
            raise NotAPublicLog(f"campaign '{name}', event #{event.seq}: {exc.reason}") from None
        summary = ruleset.summary(folded.state)
        if summary.turn != current.number:
            current.picture = ruleset.picture(folded.state)  # the map as the turn ended: the next one's start
            turns.append(current)
            current = _turn(ruleset, folded.state, event.seq)
        if len(current.messages) < MAX_ANNOUNCEMENTS_PER_TURN:
            current.messages.extend((event.seq, m) for m in messages)
        current.last_seq, current.head = event.seq, folded.head
    current.picture = ruleset.picture(folded.state)
    turns.append(current)
    return CampaignRecord(name, ruleset, events, turns, folded.state, folded.head, folded.last_seq)


def _turn(ruleset: Ruleset, state: Any, first_seq: int) -> TurnRecord:
    summary = ruleset.summary(state)
    return TurnRecord(summary.turn, summary.turn_label, first_seq, first_seq)


def ledger(record: CampaignRecord) -> list[dict[str, Any]]:
    """The ledger of the final state, each roll with the event that bound it (``bound_seq``)."""
    bound = binding_events(record.ruleset, record.events)
    entries = []
    for entry in record.ruleset.ledger(record.state):
        entries.append({**entry, "bound_seq": bound.get(str(entry.get("id")))})
    return entries


def standings(picture: Picture | None) -> list[dict[str, Any]]:
    if picture is None:
        return []
    if picture.standings:
        return [{"power": s.power or "unheld", "text": s.text, "player": s.player, "count": s.count, "alive": s.alive}
                for s in picture.standings]
    return [{"power": power, "text": text, "player": None, "count": None, "alive": True} for power, text in picture.legend]
