"""Secrets at rest: the sealed contents (bids, hands, the stratagem pick key) are in neither the database's bytes nor
a backup's, on both stores; a key that does not open them never stops the bot, and says how to give it back."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from itertools import count
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlmodel import Session

from bot.cli.backup import add_commands
from bot.schedule.clock import FixedClock
from bot.service.legatus import INTERNAL_ERROR, Legatus
from bot.store import sealed as sealed_store
from bot.store.at_rest import SEALED_PREFIX
from bot.store.db import open_engine
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: each test on SQLite and PostgreSQL)
from tests.conftest import PLAYERS as MN_PLAYERS
from tests.conftest import LOTTO
from tests.games.mediterranean_empires_players import standard_set_up

AUCTION = {"LEGATUS_RULESETS": "blind-auction=tests.games.blind_auction:load"}
START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


def with_salts(service: Legatus) -> list[str]:
    """Records each salt the service draws for a sealed content (from the OS, as live): the surest trace of a secret."""
    drawn: list[str] = []
    real = service.salt

    def salt() -> str:
        drawn.append(real())
        return drawn[-1]

    service.salt = salt
    return drawn


def auction(db: str | Path) -> tuple[Legatus, list[str]]:
    service = Legatus(open_engine(db), clock=FixedClock(START))
    salts = with_salts(service)
    assert service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"}).changed
    assert service.post("ann", "hand 9 4 2").ok
    assert service.post("bob", "hand 3 6 8").ok
    assert service.post("ann", "bid 4").ok  # South has not bid: North's bid stays sealed
    assert len(salts) == 3
    return service, salts


def hand_shown(service: Legatus) -> bool:
    return '"hand":[2,4,9]' in "".join(service.post("ann", "/private").render().split())


# What a reader of the bytes would look for: the salts, the contents as stored before, the orders as typed.
def traces(salts: list[str]) -> list[bytes]:
    return [s.encode() for s in salts] + [b"[9, 4, 2]", b"[2, 4, 9]", b'{"card": 4}', b"hand 9 4 2", b"bid 4"]


def backup(db: Path, out: Path) -> None:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["backup", "--db", str(db), "--out", str(out)])
    assert int(args.func(args)) == 0


def raw_bytes(db: Path) -> bytes:
    """The database file and whatever lies beside it (-wal, -shm): all an outsider copying the folder gets."""
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name) and p.is_file())


def started_scheduler(service: Legatus) -> None:
    from bot.schedule import scheduler as S
    from tests.bot.schedule import scheduler_drive as drive

    async def start() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), service.clock, fetch=drive.fake_fetch, run=False)
        scheduler.shutdown(wait=False)

    try:
        asyncio.run(start())
    finally:
        S.install(None)


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in AUCTION.items():
        monkeypatch.setenv(name, value)


def test_sealed_bids_are_not_in_the_database_file_nor_in_its_backup(plugin: None, tmp_path: Path) -> None:
    """Attacker: an outsider with a copy of the database file (a leaked disk, a local user) or of a backup, reading
    the bids and hands still sealed."""
    db = tmp_path / "auction.db"
    service, salts = auction(db)
    assert hand_shown(service), "the seat still sees its own hand"
    backup(db, tmp_path / "auction.bak")
    live = raw_bytes(db)  # while the bot runs: its -wal too
    service.engine.dispose()
    for where, data in (("database", live), ("database", raw_bytes(db)), ("backup", (tmp_path / "auction.bak").read_bytes())):
        found = [t for t in traces(salts) if t in data]
        assert not found, f"the {where} shows sealed content: {found}"


def test_the_stratagem_pick_key_is_not_in_the_database_file_nor_in_its_backup(tmp_path: Path) -> None:
    """Attacker: the operator (or anyone) with a copy of the database or a backup of a Mediterranean Empires game,
    wanting the pick key that says which marker every coming pick draws."""
    db = tmp_path / "me.db"
    service = Legatus(open_engine(db), clock=FixedClock(START))
    salts = with_salts(service)
    players = {"Player A": "ann", "Player B": "bob"}
    assert service.create_campaign("sea", "mediterranean-empires", "gm", players).changed
    standard_set_up(service, "sea")
    assert "Waiting for the roll" in service.post("ann", "draw").render()
    assert salts, "the first draw sealed the pick key"
    with Session(service.engine) as session:
        assert sealed_store.all_for(session, 1), "the bot keeps the pick key"
    backup(db, tmp_path / "me.bak")
    service.engine.dispose()
    for data in (raw_bytes(db), (tmp_path / "me.bak").read_bytes()):
        assert not [s for s in salts if s.encode() in data]


def test_neither_store_keeps_a_sealed_content_readable(plugin: None, db_url: str) -> None:
    """Attacker: the operator with the database (SQLite or PostgreSQL, a dump of it): no column of the tables the
    bot writes beside the log holds a sealed content or its salt."""
    service, salts = auction(db_url)
    with service.engine.connect() as connection:
        rows = [str(r) for table in ("sealed_content", "post", "event", "campaign_secret")
                for r in connection.execute(text(f"SELECT * FROM {table}"))]  # noqa: S608 (fixed names)
        bodies = [bytes(r[0]) for r in connection.execute(text("SELECT body FROM snapshot"))]
    assert bodies, "a snapshot was written"
    dumped = "\n".join(rows).encode() + b"".join(bodies)
    assert not [t for t in traces(salts) if t in dumped]
    assert all(r.startswith(f"(1, {seq}, '{SEALED_PREFIX}") for r, seq in zip(sorted(rows[:3]), (2, 3, 4)))
    service.engine.dispose()


def test_with_a_wrong_key_the_bot_starts_and_the_campaign_says_the_key_is_missing(
        plugin: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The operator restarts with another key (lost, mistyped, a restored database on a new machine): nothing
    crashes, the campaign answers one line saying the key is missing and how to supply it, another campaign
    plays on, and nothing is half-applied."""
    db = tmp_path / "auction.db"
    service, _ = auction(db)
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("open", "mare-nostrum", "gm", dict(MN_PLAYERS)).changed
    events = len(service.export("auction").splitlines())
    service.engine.dispose()
    monkeypatch.setenv("LEGATUS_SECRET_KEY", "another key")

    restarted = Legatus(open_engine(db), clock=FixedClock(START))  # starts: nothing is read that needs the key
    started_scheduler(restarted)  # and so does its scheduler, which folds every campaign to schedule it
    reply = restarted.post("bob", "bid 6", campaign="auction")
    said = reply.render()
    assert INTERNAL_ERROR not in said and "Traceback" not in said
    assert "key" in said and "LEGATUS_SECRET_KEY" in said and "\n" not in said.strip(), said
    assert len(restarted.export("auction").splitlines()) == events, "nothing of the post was written"
    assert restarted.post("gm", "/turn open 2023-01-03", campaign="open").ok, "a campaign with no secret plays on"

    from bot.cli.main import main

    capsys.readouterr()
    assert main(["state", "--db", str(db), "--campaign", "auction"]) != 0
    out = capsys.readouterr()
    assert "LEGATUS_SECRET_KEY" in out.out + out.err and "Traceback" not in out.out + out.err
    restarted.engine.dispose()

    monkeypatch.setenv("LEGATUS_SECRET_KEY", "legatus test server key")  # the key given back: all is there
    again = Legatus(open_engine(db), clock=FixedClock(START))
    assert again.post("bob", "bid 6", campaign="auction").ok
    again.engine.dispose()


def test_a_sealed_row_moved_to_another_event_is_not_read_as_that_event_s(plugin: None, tmp_path: Path) -> None:
    """Attacker: the operator with the database, copying North's sealed hand over South's to make the bot fold (and
    later reveal) a content that was never sealed for that event: the row opens only at its own place."""
    db = tmp_path / "auction.db"
    service, _ = auction(db)
    service.engine.dispose()
    with sqlite3.connect(db) as connection:
        (north,) = connection.execute("SELECT content FROM sealed_content WHERE seq = 2").fetchone()
        connection.execute("UPDATE sealed_content SET content = ? WHERE seq = 3", (north,))
    connection.close()
    said = Legatus(open_engine(db), clock=FixedClock(START)).post("bob", "bid 6").render()
    assert "cannot be read" in said and INTERNAL_ERROR not in said


def test_plain_rows_of_an_older_version_are_encrypted_when_the_bot_opens_the_database(plugin: None, tmp_path: Path) -> None:
    """Attacker: anyone reading a database an older Legatus wrote, once the new one has opened it: the clear rows
    are encrypted then, and their old bytes are gone from the file."""
    db = tmp_path / "auction.db"
    service, salts = auction(db)
    service.engine.dispose()
    with sqlite3.connect(db) as connection:  # as an older version kept them
        connection.execute("UPDATE sealed_content SET content = ?, salt = ? WHERE seq = 4", ('{"card": 4}', salts[2]))
    connection.close()
    assert salts[2].encode() in raw_bytes(db)

    reopened = Legatus(open_engine(db), clock=FixedClock(START))
    with Session(reopened.engine) as session:
        assert sealed_store.get(session, 1, 4) == {"content": {"card": 4}, "salt": salts[2]}
        stored = session.execute(text("SELECT content, salt FROM sealed_content WHERE seq = 4")).one()
    assert stored[0].startswith(SEALED_PREFIX) and stored[1] == ""
    reopened.engine.dispose()
    assert salts[2].encode() not in raw_bytes(db)
    again = Legatus(open_engine(db), clock=FixedClock(START))
    assert again.post("bob", "bid 6").ok, "the reveal of both bids reads the encrypted row"
    again.engine.dispose()


@pytest.fixture
def no_server_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.delenv("LEGATUS_SECRET_KEY", raising=False)
    monkeypatch.delenv("LEGATUS_SECRET_KEY_FILE", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    yield tmp_path / "state" / "legatus" / "secret.key"


def test_with_no_key_set_the_bot_makes_its_own_outside_the_database_and_the_backup(
        plugin: None, no_server_key: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attacker: an outsider with the database file and a backup, where the operator set no key: the key the bot
    made for itself is in neither, and the log names its file, never its content."""
    db = tmp_path / "data" / "auction.db"
    db.parent.mkdir()
    with caplog.at_level(logging.INFO, logger="legatus.secrets"):
        service, salts = auction(db)
    assert no_server_key.is_file() and (no_server_key.stat().st_mode & 0o777) == 0o600
    key = no_server_key.read_text(encoding="utf-8").strip()
    assert str(no_server_key) in caplog.text and key not in caplog.text
    backup(db, tmp_path / "data" / "auction.bak")
    service.engine.dispose()
    for data in (raw_bytes(db), (tmp_path / "data" / "auction.bak").read_bytes()):
        assert key.encode() not in data and not [t for t in traces(salts) if t in data]
    restarted = Legatus(open_engine(db), clock=FixedClock(START))
    assert hand_shown(restarted), "a new process reads them with the same key"
    restarted.engine.dispose()
