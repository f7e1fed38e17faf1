"""A campaign's public state as it stood at the close of a past turn: the fold of its log up to that close.

A GM may undo a ``turn.closed`` and close the turn again later; the close that counts is the one still in
effect in the campaign's log today, found through the fold's ``effective`` events, and the state is the
replay of every event up to and including it (undos on the way included, exactly as they happened).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.events import Event
from engine.log import replay
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


def state_at_close(ruleset: Ruleset, events: list[Event], turn: int) -> Any:
    """The game state when turn ``turn`` was closed, from the campaign's whole log; raises TurnNotPlayed."""
    now = replay(ruleset, events)
    closes = [e for e in now.effective if e.kind == CLOSED]
    if turn < 1 or turn > len(closes):
        current = ruleset.summary(now.state).turn
        extra = f"; turn {turn} is being played now" if current == turn and turn > len(closes) else ""
        raise TurnNotPlayed(f"turn {turn} has not been closed: {closed_turns_text(len(closes))}{extra}")
    close = closes[turn - 1]
    return replay(ruleset, [e for e in events if e.seq <= close.seq]).state
