"""Faults of the database itself, on SQLite and PostgreSQL: a NUL byte in a post (SQLite would keep it, PostgreSQL
refuses text holding it) and a full disk (SQLite: ``PRAGMA max_page_count`` at the file's size; PostgreSQL: its
``53100 disk_full`` raised by a trigger, as a server whose disk filled would). Each gives one clear line, changes
nothing, and loses nothing: the same post goes in once the fault is gone."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.campaigns import PostRow
from bot.store.store_faults import DISK_FULL
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture is used by name)
from tests.conftest import LOTTO, PLAYERS

NUL = ("The post holds a NUL character (\\x00) on line 2, which no text may hold; nothing was changed. Remove it and "
       "post again.")


def _campaign(url: str) -> Legatus:
    service = Legatus(open_engine(url), clock=FixedClock(datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS)).changed
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def _stored(service: Legatus) -> tuple[str, int]:
    """The campaign's exported log and how many posts are kept: what a fault must leave as it was."""
    with Session(service.engine) as session:
        posts = len(session.exec(select(PostRow)).all())
    return service.export("c"), posts


def _to_play(service: Legatus) -> str:
    return PLAYERS[service.state("c")["to_play"]]


def test_a_nul_byte_in_a_post_is_refused_in_one_line_and_changes_nothing(db_url: str) -> None:  # noqa: F811
    service = _campaign(db_url)
    before = _stored(service)
    reply = service.post(_to_play(service), "pass\nbuild temple\x00 in Latium")
    assert reply.failed and reply.render() == NUL
    assert _stored(service) == before
    assert service.post(_to_play(service), "pass").ok  # the store took nothing half-way: the next post goes in


def _fill_the_disk(engine: Engine) -> Any:
    """From now on every write that needs room fails as on a full disk; returns the way to free it."""
    if engine.dialect.name == "sqlite":
        def full(connection: Any, _: Any) -> None:
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count = {pages}")

        engine.dispose()  # the pooled connections predate the limit
        event.listen(engine, "connect", full)

        def free() -> None:
            event.remove(engine, "connect", full)
            engine.dispose()
        return free
    with engine.begin() as connection:
        connection.execute(text(
            "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$"))
        connection.execute(text("CREATE TRIGGER disk_full BEFORE INSERT ON post FOR EACH ROW "
                                "EXECUTE FUNCTION disk_full()"))

    def free_pg() -> None:
        with engine.begin() as connection:
            connection.execute(text("DROP TRIGGER disk_full ON post"))
            connection.execute(text("DROP FUNCTION disk_full()"))
    return free_pg


def test_a_full_disk_refuses_the_post_in_one_line_and_loses_nothing(db_url: str, caplog: Any) -> None:  # noqa: F811
    service = _campaign(db_url)
    # A post long enough that SQLite needs new pages for it (the file is full at its present size); read, it is a
    # refused line, kept with its answer.
    order = "pass " + "and a long word of table talk " * 200
    before = _stored(service)
    player = _to_play(service)
    free = _fill_the_disk(service.engine)
    reply = service.post(player, order)
    assert reply.failed and reply.render() == DISK_FULL
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        "a transaction of 1 post(s) failed, the disk is full; nothing was changed"]
    assert not any(r.exc_info for r in caplog.records)  # no traceback: the operator's fault, plainly said
    free()
    assert _stored(service) == before
    again = service.post(player, order)  # nothing lost: the same post is read once there is room, and kept
    assert not again.failed and again.render().startswith("✗ line 1 “pass and a long word")
    assert _stored(service)[1] == before[1] + 1
