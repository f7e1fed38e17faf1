"""The seals a campaign needs before anything else, made in the transaction that creates it: a game with hidden
decks gets its deck key sealed as event 2 (engine/tabletop/table.py), so no post, and nothing a post reveals of the
players' intentions, comes before the key whoever runs the bot draws."""
from __future__ import annotations

from typing import Any

from sqlmodel import Session

from bot.service.post_reading import PostReading, _Posting
from bot.service.public_values import BOT
from bot.store.campaigns import append_event
from bot.store.session_post_store import SessionPostStore
from engine.log import Folded
from engine.ruleset import NEED_SEAL, Ruleset


def seal_at_creation(reading: PostReading, session: Session, row: Any, ruleset: Ruleset,
                     folded: Folded) -> tuple[Folded, list[str]]:
    """Append the bot's seals the new campaign waits for (none for most games), with their contents kept in the
    private store; returns the fold after them and what they said."""
    if not any(n.source == NEED_SEAL for n in ruleset.needs(folded.state)):
        return folded, []
    posting = _Posting(SessionPostStore(session), row, ruleset, folded, BOT)
    messages = reading._seal_secrets(posting)
    for event in posting.new_events:
        append_event(session, row.id, event)
    if posting.new_events:
        reading._keep_beside_the_log(posting)
    return posting.folded, messages
