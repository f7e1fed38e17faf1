"""A campaign's public state as it stood at the close of a past turn: the fold of its log up to that close.

A GM may undo a ``turn.closed`` and close the turn again later; the close that counts is the one still in
effect in the campaign's log today, found through the fold's ``effective`` events, and the state is the
replay of every event up to and including it (undos on the way included, exactly as they happened).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.events import Event
from engine.log import Folded, replay, start, step
from engine.ruleset import Ruleset
from engine.rulesets import load_ruleset

if TYPE_CHECKING:  # the read-only commands import this module without SQLAlchemy (bot/store/reader.py)
    from sqlalchemy.engine import Engine
    from sqlmodel import Session


class CampaignService(Protocol):
    """What this module needs of ``bot.service.Legatus``; the service sits above render and is not imported."""

    engine: Engine
    data_dir: Path

    def state(self, campaign: str | None = None) -> dict[str, Any]: ...

    def _campaign(self, session: Session, name: str | None) -> Any: ...

    def folded(self, campaign: str | None = None) -> tuple[Ruleset, Any]: ...

CLOSED = "turn.closed"


class TurnNotPlayed(LookupError):
    """The turn asked for has not been closed: the message says which turns have."""


def closed_turns_text(count: int) -> str:
    if count == 0:
        return "no turn has been closed yet"
    if count == 1:
        return "only turn 1 has been closed"
    return f"turns 1 to {count} have been closed"


def state_at_turn(service: CampaignService, campaign: str | None, turn: int | None) -> dict[str, Any]:
    """The public state (as ``Legatus.state``) when turn ``turn`` was closed; ``None`` for the state now.

    Raises ``bot.service.CampaignNotFound`` for an unknown campaign and ``TurnNotPlayed`` for a turn that
    has not been closed yet.
    """
    if turn is None:
        return service.state(campaign)
    ruleset, state = folded_at_turn(service, campaign, turn)
    return ruleset.public_view(state)


def folded_at_turn(service: CampaignService, campaign: str | None, turn: int | None) -> tuple[Ruleset, Any]:
    """The campaign's ruleset and its game state (opaque, for ``ruleset.picture`` or ``summary``) when turn
    ``turn`` was closed; ``None`` for the state now. Raises as ``state_at_turn``."""
    from sqlmodel import Session

    from bot.store.campaigns import load_events

    if turn is None:
        return service.folded(campaign)
    with Session(service.engine) as session:
        # The service's own lookup, so that an unknown or ambiguous campaign reads exactly as everywhere else.
        row = service._campaign(session, campaign)
        assert row.id is not None
        events = load_events(session, row.id)
    ruleset = load_ruleset(row.ruleset, service.data_dir)
    return ruleset, state_at_close(ruleset, events, turn)


def state_at_close(ruleset: Ruleset, events: list[Event], turn: int, now: Folded | None = None) -> Any:
    """The game state when turn ``turn`` was closed, from the campaign's whole log; raises TurnNotPlayed.

    A game whose GM closes turns (a ``turn.closed`` event) is read at that event; a game whose turns end by play
    (the last order of a round) has no such event, and is read at the first event after which its summary counts
    the turn as closed. ``now``: the fold of all of ``events``, where the caller has it (the read-only reader
    takes it from the campaign's snapshot), so that the log is replayed once, to the close, not twice."""
    if now is None:
        now = replay(ruleset, events)
    closes = [e for e in now.effective if e.kind == CLOSED]
    summary = ruleset.summary(now.state)
    closed = len(closes) if closes else summary.closed_turn
    if turn < 1 or turn > closed:
        extra = f"; turn {turn} is being played now" if summary.turn == turn and turn > closed else ""
        raise TurnNotPlayed(f"turn {turn} has not been closed: {closed_turns_text(closed)}{extra}")
    if closes:
        close = closes[turn - 1]
        return replay(ruleset, [e for e in events if e.seq <= close.seq]).state
    return _state_when_played_to(ruleset, events, turn)


def _state_when_played_to(ruleset: Ruleset, events: list[Event], turn: int) -> Any:
    """The state at the first event (undos on the way played as they happened) that closed ``turn`` by play."""
    folded, _ = start(ruleset, events[0])
    for event in events[1:]:
        # The fold owns its state here: nothing else holds it, so no copy per event.
        folded, _ = step(ruleset, folded, event, in_place=True)
        if ruleset.summary(folded.state).closed_turn >= turn:
            return folded.state
    raise TurnNotPlayed(f"turn {turn} has not been closed")  # unreachable: the whole log's summary closed it
