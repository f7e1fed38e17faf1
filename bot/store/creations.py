"""Things the bot makes on Discord that must exist once (a turn's thread, a campaign's status board), claimed in the
``posted`` table before the call and recorded done with the thing's place, in one transaction.

A claim still open at the next attempt means an earlier attempt may have made the thing and died before saving it:
the caller looks the thing up on Discord by its marker before making it again. Discord's nonce covers a message sent
again within a few minutes; the claim covers a restart long after (bot/discord/made_once.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.engine import Engine
from sqlmodel import Session

from bot.store.db import writer
from bot.store.posted import claim, find, mark_sent


@dataclass(frozen=True)
class Creation:
    key: str
    fresh: bool  # no earlier attempt: nothing to look up
    made: str | None = None  # what an earlier attempt made and recorded (its id)


def begin(engine: Engine, key: str, campaign_id: int, kind: str, channel_id: str | None) -> Creation:
    """Claim ``key`` before the call; an existing claim is an earlier attempt (done, or cut before its record)."""
    with Session(writer(engine)) as session:
        row = find(session, key)
        if row is not None:
            return Creation(key, False, row.message_id)
        claim(session, key, campaign_id, kind, channel_id)
        return Creation(key, True)


def finish(session: Session, key: str | None, made: str) -> None:
    """Record the claim done, in the caller's transaction (the one that saves the thing's place)."""
    if key is not None and find(session, key) is not None:
        mark_sent(session, key, made, commit=False)
