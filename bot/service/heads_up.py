"""The "you are next" heads-up: when the turn passes to a seat in a game with an order of play, the player of the
seat after it is told, once per turn, unless they turned it off (``/settings heads-up off``).

Transport-neutral: it reads a ``Change`` through the ruleset boundary (``Summary.order``, ``prompts``,
``player_of``); a transport posts the text where the turn's messages go, mentioning that player alone.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from bot.store.campaigns import CampaignRow
from bot.store.db import writer
from bot.store.player_settings import HEADS_UP, settings_of
from bot.store.posted import PostedRow, claim_many, mark_many_sent
from engine.ruleset import IN_TURN

log = logging.getLogger("legatus.heads_up")


@dataclass(frozen=True)
class HeadsUp:
    campaign_id: int
    turn: int
    turn_label: str
    playing: str  # the seat whose turn it now is
    seat: str  # the seat after it in the order of play
    player: str  # that seat's player, the one told

    @property
    def key(self) -> str:
        """One heads-up per seat per turn, whatever undoes and replays happen in between (bot/store/posted.py)."""
        return f"campaign-{self.campaign_id}:turn-{self.turn}:heads-up-{self.seat}"

    def text(self) -> str:
        return (f"{self.player}: {marker(self.seat)}, after the {self.playing} who play now "
                f"({self.turn_label}). /settings heads-up off stops these.")


def marker(seat: str) -> str:
    """What every heads-up to ``seat`` says, whoever plays it now: how a restart knows one an earlier attempt sent."""
    return f"heads-up, you are next ({seat})"


def heads_up(change: Any) -> HeadsUp | None:
    """The heads-up a change calls for: a seat began to play in turn, and a seat of another player follows it."""
    summary, ruleset, state = change.summary, change.ruleset, change.state
    if summary is None or ruleset is None or not summary.order or not summary.playing or summary.over:
        return None
    started = [p.seat for p in ruleset.prompts(state) if p.mode == IN_TURN and p.seat not in change.to_act_before]
    if len(started) != 1 or started[0] not in summary.order:
        return None
    playing = started[0]
    following = list(summary.order)[list(summary.order).index(playing) + 1:]
    if not following:
        return None
    seat = following[0]
    player = ruleset.player_of(state, seat)
    if not player or player == ruleset.player_of(state, playing):
        return None  # no player to tell, or the one playing now: they know
    return HeadsUp(change.campaign_id, summary.turn, summary.turn_label, playing, seat, str(player))


def claim_heads_ups(engine: Engine, many: list[HeadsUp]) -> list[bool]:
    """For each: True once per heads-up, and only if its player has not turned heads-ups off. One transaction for
    all (a burst of posts brings a heads-up per post: bot/service/post_queue.py ``call_many``), and a few queries:
    the players' settings, the claims made before, the new claims."""
    with Session(writer(engine)) as session:  # read-then-write: the write lock first, or SQLite is busy
        values = settings_of(session, {(told.campaign_id, told.player) for told in many}, HEADS_UP)
        on = [values[(told.campaign_id, told.player)] == "on" for told in many]
        claimed = iter(claim_many(session, [(told.key, told.campaign_id, "heads-up")
                                            for told, wanted in zip(many, on) if wanted]))
        result = [wanted and next(claimed) for wanted in on]
        session.commit()
    return result


def heads_ups_sent(engine: Engine, many: list[tuple[HeadsUp, str, str | None]]) -> list[None]:
    """Each heads-up's message, as Discord returned it, in one transaction."""
    with Session(writer(engine)) as session:
        found = mark_many_sent(session, [(told.key, message_id, channel_id) for told, message_id, channel_id in many])
        session.commit()
    for (told, message_id, _), there in zip(many, found):
        if not there:  # its claim is gone (a restored backup): the others are recorded all the same
            log.warning("heads-up %s was sent as message %s but its claim is gone", told.key, message_id)
    return [None for _ in many]


@dataclass(frozen=True)
class OpenHeadsUp:
    """A heads-up claimed and never recorded sent: the process that claimed it died before, or after, its send."""
    key: str
    campaign_id: int
    guild_id: str | None
    turn: int
    seat: str
    claimed_at: datetime


def open_heads_ups(engine: Engine) -> list[OpenHeadsUp]:
    with Session(engine) as session:
        rows = session.exec(select(PostedRow, CampaignRow.guild_id).join(
            CampaignRow, col(CampaignRow.id) == col(PostedRow.campaign_id)).where(
            PostedRow.kind == "heads-up", PostedRow.message_id == None)).all()  # noqa: E711
    found = []
    for row, guild_id in rows:
        _, turn, seat = row.key.split(":", 2)  # HeadsUp.key
        found.append(OpenHeadsUp(row.key, row.campaign_id, guild_id, int(turn.removeprefix("turn-")),
                                 seat.removeprefix("heads-up-"), row.posted_at))
    return found


def still_due(service: Any, claimed: OpenHeadsUp) -> HeadsUp | None:
    """The heads-up ``claimed`` stands for, if it is still true now (its seat is next after the one playing, in its
    turn): what a restart sends for a claim whose message is nowhere. None: the turn moved on, it would mislead."""
    from bot.service.legatus import Change

    with Session(service.engine) as session:
        campaign = session.get(CampaignRow, claimed.campaign_id)
    if campaign is None:
        return None
    ruleset, state = service.folded(campaign.name)
    now = Change(campaign.name, claimed.campaign_id, (), (), tuple(ruleset.to_act(state)), state, ruleset,
                 ruleset.summary(state))
    told = heads_up(now)
    return told if told is not None and told.key == claimed.key else None


def record_heads_up(engine: Engine, key: str, message_id: str, channel_id: str | None) -> None:
    """Close an open heads-up claim: the message found or sent, or NOTHING_SENT."""
    with Session(writer(engine)) as session:
        mark_many_sent(session, [(key, message_id, channel_id)])
        session.commit()
