"""Claims of the bot's own posts made many at a time (``claim_many``, ``mark_many_sent``): the same answers as one
``claim`` each, in a number of statements that does not grow with the claims (a burst of posts brings a heads-up
each), on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import Session, select

from bot.service.heads_up import HeadsUp, claim_heads_ups, heads_ups_sent
from bot.service.legatus import Legatus
from bot.store import posted
from bot.store.campaigns import find_campaign
from bot.store.db import open_engine
from bot.store.player_settings import HEADS_UP, save_setting, settings_of
from bot.store.posted import PostedRow, claim, claim_many, find, mark_many_sent
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)
from tests.conftest import PLAYERS

AT = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def service(db_url: str) -> Legatus:  # noqa: F811
    service = Legatus(open_engine(db_url))
    assert service.create_campaign("a", "mare-nostrum", "gm", dict(PLAYERS)).ok
    return service


def campaign_id(service: Legatus) -> int:
    with Session(service.engine) as session:
        row = find_campaign(session, "a")
        assert row is not None and row.id is not None
        return row.id


def keys_and_kinds(service: Legatus) -> list[tuple[str, str, str | None, str | None]]:
    with Session(service.engine) as session:
        rows = session.exec(select(PostedRow).order_by(PostedRow.key)).all()  # type: ignore[arg-type]
        return [(r.key, r.kind, r.message_id, r.channel_id) for r in rows]


def test_claim_many_claims_each_new_key_once_in_the_callers_transaction(service: Legatus) -> None:
    cid = campaign_id(service)
    with Session(service.engine) as session:
        assert claim(session, "old", cid, "reminder", at=AT)
    with Session(service.engine) as session:
        wanted = [("old", cid, "heads-up"), ("new", cid, "heads-up"), ("new", cid, "heads-up"), ("other", cid, "map")]
        assert claim_many(session, wanted, at=AT) == [False, True, False, True]
        session.rollback()  # not committed by claim_many: the caller's transaction decides
    assert keys_and_kinds(service) == [("old", "reminder", None, None)]
    with Session(service.engine) as session:
        assert claim_many(session, [("new", cid, "heads-up"), ("other", cid, "map")], at=AT) == [True, True]
        session.commit()
    assert keys_and_kinds(service) == [("new", "heads-up", None, None), ("old", "reminder", None, None),
                                       ("other", "map", None, None)]


def test_a_key_claimed_between_the_query_and_the_insert_falls_back_to_one_claim_each(
        service: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's claim that lands after the query (PostgreSQL holds no write lock before the insert)."""
    cid = campaign_id(service)
    with Session(service.engine) as session:
        assert claim(session, "raced", cid, "heads-up", at=AT)
    monkeypatch.setattr(posted, "claimed_keys", lambda session, keys: set())  # the query saw none of them
    with Session(service.engine) as session:
        assert claim_many(session, [("first", cid, "heads-up"), ("raced", cid, "heads-up"),
                                    ("first", cid, "heads-up")], at=AT) == [True, False, False]
        session.commit()
    assert keys_and_kinds(service) == [("first", "heads-up", None, None), ("raced", "heads-up", None, None)]


def test_mark_many_sent_fills_the_claims_there_and_says_which_are_gone(service: Legatus) -> None:
    cid = campaign_id(service)
    with Session(service.engine) as session:
        assert claim_many(session, [("a", cid, "heads-up"), ("b", cid, "heads-up")], at=AT) == [True, True]
        session.commit()
    with Session(service.engine) as session:
        assert mark_many_sent(session, [("a", "11", "22"), ("gone", "33", None), ("b", "44", None)]) == [
            True, False, True]
        session.commit()
    assert keys_and_kinds(service) == [("a", "heads-up", "11", "22"), ("b", "heads-up", "44", None)]


def test_settings_of_gives_each_players_setting_or_its_default(service: Legatus) -> None:
    cid = campaign_id(service)
    with Session(service.engine) as session:
        save_setting(session, cid, "philip", HEADS_UP, "off")
        session.commit()
        assert settings_of(session, {(cid, "philip"), (cid, "ptolemy")}, HEADS_UP) == {
            (cid, "philip"): "off", (cid, "ptolemy"): "on"}


def statements(service: Legatus, work: Any) -> int:
    count = 0

    def counted(*_: Any) -> None:
        nonlocal count
        count += 1

    event.listen(service.engine, "before_cursor_execute", counted)
    try:
        work()
    finally:
        event.remove(service.engine, "before_cursor_execute", counted)
    return count


def test_heads_ups_of_a_burst_cost_as_many_statements_as_one(service: Legatus) -> None:
    """Before: a savepoint, an insert and its release per claim, a query per mark (about 400 statements for 100)."""
    cid = campaign_id(service)

    def told(i: int) -> HeadsUp:
        return HeadsUp(cid, i, f"Turn {i}", "Seleucids", "Ptolemaics", "ptolemy")

    one = statements(service, lambda: claim_heads_ups(service.engine, [told(0)]))
    hundred = statements(service, lambda: claim_heads_ups(service.engine, [told(i) for i in range(1, 101)]))
    assert hundred == one
    marked_one = statements(service, lambda: heads_ups_sent(service.engine, [(told(0), "1", "2")]))
    marked = statements(service, lambda: heads_ups_sent(service.engine, [(told(i), str(i), "2")
                                                                         for i in range(1, 101)]))
    assert marked == marked_one
    with Session(service.engine) as session:
        row = find(session, told(100).key)
        assert row is not None and (row.message_id, row.channel_id) == ("100", "2")
