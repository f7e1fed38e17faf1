"""The heads-up claims a killed process leaves open (bot/service/heads_up.py): read back with their campaign's
guild, turn and seat, and judged against the campaign as it stands: still true (its seat is next after the one
playing, in its turn), or no longer (the turn moved on), when a restart would mislead by sending it."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlmodel import Session

from bot.service.heads_up import OpenHeadsUp, claim_heads_ups, heads_up, open_heads_ups, record_heads_up, still_due
from bot.service.legatus import Change, Legatus
from bot.store.db import open_engine
from bot.store.draws import import_archive
from bot.store.posted import find
from tests.bot.discord.sharded_world import DRAWS, NATIONS

PLAYERS = {nation: f"<@{i + 1}>" for i, nation in enumerate(NATIONS)}


def _campaign(tmp_path: Path) -> tuple[Legatus, list[Change]]:
    service = Legatus(open_engine(tmp_path / "c.db"))
    with Session(service.engine) as session:
        import_archive(session, DRAWS.read_text(encoding="utf-8"), "test")
        session.commit()
    changes: list[Change] = []
    service.observers.append(changes.append)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), "historical", "9", "10").ok
    assert service.post("gm", "/turn open 2023-01-03", "c", is_gm=True).ok
    return service, changes


def test_an_open_claim_is_still_due_until_its_seat_is_no_longer_next(tmp_path: Path) -> None:
    service, changes = _campaign(tmp_path)
    told = heads_up(changes[-1])
    assert told is not None and told.turn == 1
    order = list(service.summary("c").order)
    assert (told.playing, told.seat) == (order[0], order[1])
    assert claim_heads_ups(service.engine, [told]) == [True]
    (claimed,) = open_heads_ups(service.engine)
    assert claimed == OpenHeadsUp(told.key, 1, "9", 1, order[1], claimed.claimed_at)
    assert abs(claimed.claimed_at - dt.datetime.now(dt.timezone.utc)) < dt.timedelta(minutes=1)
    assert still_due(service, claimed) == told
    # The first seat plays: the heads-up to the second would tell its player they are next when they play now.
    assert service.post(PLAYERS[order[0]], "pass", "c").ok
    assert still_due(service, claimed) is None
    record_heads_up(service.engine, told.key, "", None)
    assert open_heads_ups(service.engine) == []
    with Session(service.engine) as session:
        row = find(session, told.key)
        assert row is not None and row.message_id == ""
