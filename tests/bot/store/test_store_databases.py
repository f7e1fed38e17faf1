"""The store and the service on both databases: a SQLite file and PostgreSQL (see tests/bot/databases.py)."""
from __future__ import annotations

import datetime as dt
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from bot.store import posted
from bot.schedule.clock import FixedClock
from bot.store.db import current_revision, head_revision, open_engine, table_names
from bot.store.draws import get_draw, import_archive
from bot.store.fetched_draws import FetchedDraw, latest_fetches, record_fetch
from bot.service.legatus import Legatus
from bot.store.campaigns import CampaignRow, EventRow, PostRow, find_campaign
from engine.lotto import Draw
from tests.bot.store.databases import db_url, fresh_postgres_schema, log_state  # noqa: F401  (db_url is a fixture)
from tests.conftest import LOTTO, PLAYERS

NOON = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def service_on(url: str) -> Legatus:
    return Legatus(open_engine(url), clock=FixedClock(NOON))


def test_a_new_database_is_at_the_newest_revision(db_url: str) -> None:
    engine = open_engine(db_url)
    assert current_revision(engine) == head_revision()
    assert {"campaign", "event", "post", "draw", "fetched_draw", "posted", "alembic_version"} <= table_names(engine)
    # Opening it again (a restart) changes nothing.
    assert current_revision(open_engine(db_url)) == head_revision()


def test_a_whole_turn_plays_exports_and_replays(db_url: str) -> None:
    service = service_on(db_url)
    report, _ = service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert report.added > 0 and not report.conflicts
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), channel_id="42").changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    # The order of play comes from the draw; everyone builds what they can, then passes.
    for _ in range(12):
        state = service.state()
        nation = state["to_play"]
        if state["phase"] != "orders" or nation is None:
            break
        home = sorted(p for p, v in state["provinces"].items() if v["owner"] == nation)[0]
        reply = service.post(PLAYERS[nation], f"build suburbs in {home}")
        assert reply.ok, reply.render()
        if service.state()["to_play"] == nation:
            assert service.post(PLAYERS[nation], "pass").ok
    service.post("antiochus", "lovely weather in Antioch")  # table talk: kept, not an order
    for battle in service.state()["battles"]:
        assert service.post("gm", f"/battle {battle['province']} winner attacker").ok
    assert service.post("gm", "/turn close").ok
    state = service.state()
    assert state["turn"] == 1 and state["phase"] == "closed"

    log = service.export()
    assert log_state(log) == state
    restarted = service_on(db_url)  # a new process: folds from the database, not from the cache
    assert restarted.state() == state and restarted.export() == log
    with Session(restarted.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None and row.channel_id == "42"
        assert row.created_at.tzinfo is not None  # aware on both: the store must not turn times naive
        posts = session.exec(select(PostRow).order_by(PostRow.id)).all()
        assert "lovely weather in Antioch" in [p.text for p in posts]
        assert all(p.at.tzinfo is not None for p in posts)
        events = session.exec(select(EventRow).order_by(EventRow.seq)).all()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))


def test_the_whole_scripted_campaign_gives_the_same_log_on_postgres(played_campaign: tuple[Path, Path]) -> None:
    url, drop = fresh_postgres_schema()
    from tests.bot.campaign_play import play_full_campaign

    try:
        service, transcript = play_full_campaign(url)  # type: ignore[arg-type]  # a URL is accepted too
        assert transcript.refused() == []
        # Byte for byte the log the same campaign wrote into SQLite: nothing depends on the database.
        assert service.export() == played_campaign[1].read_text(encoding="utf-8")
        service.engine.dispose()
    finally:
        drop()


def test_an_event_number_is_written_once(db_url: str) -> None:
    service = service_on(db_url)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    with Session(service.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None and row.id is not None
        session.add(EventRow(campaign_id=row.id, seq=1, kind="forged", actor="mallory", body="{}"))
        with pytest.raises(IntegrityError):
            session.commit()
    with Session(service.engine) as session:
        session.add(EventRow(campaign_id=9999, seq=1, kind="orphan", actor="mallory", body="{}"))
        with pytest.raises(IntegrityError):
            session.commit()  # foreign keys hold on SQLite too (PRAGMA foreign_keys)


def test_draws_and_fetched_answers_round_trip(db_url: str) -> None:
    engine = open_engine(db_url)
    day = dt.date(2023, 1, 3)
    with Session(engine) as session:
        report = import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "file")
        assert report.added > 0
        again = import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "file")
        assert again.added == 0 and again.unchanged == report.added
        draw = get_draw(session, day)
        assert draw is not None
        at = datetime(2023, 1, 3, 20, 5, 7, tzinfo=timezone(dt.timedelta(hours=1)))
        raw = bytes(range(256))  # any bytes, not only text
        assert record_fetch(session, FetchedDraw("archive", "http://127.0.0.1/x.zip", draw, raw, at))
        assert not record_fetch(session, FetchedDraw("archive", "http://127.0.0.1/x.zip", draw, raw, at))
        latest = latest_fetches(session, day)["archive"]
        assert latest.raw == raw
        assert latest.fetched_at == at and latest.fetched_at.tzinfo == timezone.utc
        assert latest.draw == Draw(day, dict(draw.numbers))


def test_a_scheduled_post_is_claimed_once(db_url: str) -> None:
    service = service_on(db_url)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    with Session(service.engine) as session:
        campaign = session.exec(select(CampaignRow)).one()
        assert campaign.id is not None
        assert posted.claim(session, "c:turn-1:reminder", campaign.id, "reminder", "42", at=NOON)
        assert not posted.claim(session, "c:turn-1:reminder", campaign.id, "reminder", "42")
        assert posted.claim(session, "c:turn-1:deadline", campaign.id, "deadline")
        posted.mark_sent(session, "c:turn-1:reminder", "1001")
    with Session(service.engine) as session:
        row = posted.find(session, "c:turn-1:reminder")
        assert row is not None and (row.message_id, row.channel_id, row.posted_at) == ("1001", "42", NOON)
        unsent = posted.find(session, "c:turn-1:deadline")
        assert unsent is not None and unsent.message_id is None
        with pytest.raises(KeyError):
            posted.mark_sent(session, "never-claimed", "1")
