"""`legatus post` with no bot running writes the post itself over Python's own sqlite3 (bot/service/direct_post.py):
the same answers and the same rows as the service, and the service's answer whenever the light path cannot give it.

The parity tests play the same posts into two stores, one through the service, one through the direct writer, and
compare every answer and every row but the wall-clock time a post was stored at."""
from __future__ import annotations

import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from itertools import count
from pathlib import Path

import pytest

from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.direct_post import DirectPoster, post_directly
from bot.service.legatus import Legatus
from bot.store.at_rest import open_row
from bot.store.db import open_engine
from tests.bot.campaign_play import PLAYERS, play_full_campaign
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, serving
from tests.fixture_paths import LOTTO

CLOCK = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)  # tests/bot/campaign_play.py's


def rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row a post writes, but the moment it was stored (the wall clock's), sealed contents opened."""
    connection = sqlite3.connect(db)
    try:
        return {
            "event": connection.execute("SELECT campaign_id, seq, kind, actor, body FROM event ORDER BY id").fetchall(),
            "post": connection.execute(
                "SELECT campaign_id, author, text, answer, first_seq, last_seq FROM post ORDER BY id").fetchall(),
            # Opened: each row is encrypted under a nonce of its own (bot/store/at_rest.py), so the same content is
            # never the same bytes twice; what both writers must agree on is what the rows hold.
            "sealed": [(c, s, open_row(c, s, content, salt)) for c, s, content, salt in connection.execute(
                "SELECT campaign_id, seq, content, salt FROM sealed_content ORDER BY campaign_id, seq")],
            "snapshot": connection.execute("SELECT campaign_id, seq, head, key FROM snapshot").fetchall(),
            "times": connection.execute("SELECT at FROM post ORDER BY id").fetchall(),
        }
    finally:
        connection.close()


def mare_nostrum_store(db: Path) -> Legatus:
    service = Legatus(open_engine(db), clock=FixedClock(CLOCK))
    for name in ("draws-2023-01.txt", "draws-2026-09.txt"):
        service.import_draws((LOTTO / name).read_text(encoding="utf-8"), name)
    assert service.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS)).changed
    return service


def test_a_campaign_posted_directly_is_the_campaign_posted_through_the_service(tmp_path: Path) -> None:
    """Four turns of the scripted campaign (orders, refusals, battles and their claims, turn changes, draws)."""
    served, transcript = play_full_campaign(tmp_path / "service.db", max_turns=4)
    served.engine.dispose()
    direct_db = tmp_path / "direct.db"
    fallback = mare_nostrum_store(direct_db)
    poster = DirectPoster(clock=FixedClock(CLOCK))
    directly = 0
    for author, text, answer in transcript.posts:
        reply = post_directly(direct_db, author, text, poster=poster)
        if reply is None:
            reply = fallback.post(author, text)
        else:
            directly += 1
        assert reply.render() == answer, text
    assert directly == len(transcript.posts)  # none of these needs the service
    expected, got = rows(tmp_path / "service.db"), rows(direct_db)
    for table in ("event", "post", "sealed", "snapshot"):
        assert got[table] == expected[table], table
    assert all(len(at) == 26 for (at,) in got["times"])  # stored as SQLAlchemy stores a DateTime: 2026-11-24 21:46:58.292528
    assert {at[:10] for (at,) in got["times"]} == {at[:10] for (at,) in expected["times"]}
    assert len(expected["snapshot"]) == 1 and expected["snapshot"][0][1] > 64  # the snapshot was rewritten on the way


def with_beacons(db: Path, relay: FakeRelay, start: datetime) -> Legatus:
    """A service on ``db`` fetching beacons from the test relay: a campaign it creates logs the test chain."""
    clock = FixedClock(start)
    service = Legatus(open_engine(db), clock=clock)
    service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                   test_chain=True,  # the tests hold its key: an explicit opt-in
                                   clock=lambda: clock.now().timestamp())
    return service


def post_both_ways(tmp_path: Path, base: Path, relay: FakeRelay, start: datetime,
                   script: list[tuple[str | None, str]]) -> dict[str, list[tuple[object, ...]]]:
    """``script`` posted into two copies of ``base``, one through the service, one through the direct writer (an
    author None: the clock moves 30 s on, and a bound drand round comes); both must answer and store alike. The
    salts of sealed contents count up, the same in both. The direct store's rows."""
    answers: dict[str, list[str]] = {}
    for how in ("service", "direct"):
        db = tmp_path / f"{how}.db"
        shutil.copyfile(base, db)  # one campaign, one nonce: the same seed behind both
        service = with_beacons(db, relay, start)
        salts = count()
        service.salt = lambda: f"{next(salts):032x}"
        poster = DirectPoster(clock=service.clock, salt=service.salt)
        poster.beacons = service.beacons
        said = answers[how] = []
        for author, text in script:
            if author is None:
                service.clock.advance(timedelta(seconds=30))
                continue
            reply = post_directly(db, author, text, poster=poster) if how == "direct" else service.post(author, text)
            assert reply is not None, text
            said.append(reply.render())
        service.engine.dispose()
    assert answers["direct"] == answers["service"]
    expected, got = rows(tmp_path / "service.db"), rows(tmp_path / "direct.db")
    for table in ("event", "post", "sealed", "snapshot"):
        assert got[table] == expected[table], table
    return got


def test_sealed_bids_posted_directly_keep_the_same_private_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' sealed-bid game (a plugin): sealed contents, their reveal, a drand tie settled by a later post."""
    monkeypatch.setenv("LEGATUS_RULESETS", "blind-auction=tests.games.blind_auction:load")
    script = [("ann", "hand 9 5 2"), ("bob", "hand 3 5 8"), ("ann", "bid 7"), ("ann", "bid 5"), ("bob", "bid 5"),
              ("bob", "/ledger"), ("ann", "/private"), (None, ""), ("ann", "/ledger"), ("ann", "bid 9"),
              ("bob", "bid 3"), (None, ""), ("gm", "/ledger"), ("ann", "bid 2"), ("bob", "bid 8"), (None, ""),
              ("gm", "/state")]
    start = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    base = tmp_path / "base.db"
    with serving(FakeRelay()) as relay:
        made = with_beacons(base, relay, start)
        assert made.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"}).changed
        made.engine.dispose()
        got = post_both_ways(tmp_path, base, relay, start, script)
    assert len(got["sealed"]) == 8 and any(e[2] == "beacon.recorded" for e in got["event"])


def test_a_commit_reveal_campaign_posted_directly_derives_the_same_numbers(tmp_path: Path) -> None:
    """The seed made from the server key and the stored nonce, mixed with a drand round recorded by a later post."""
    script = [("gm", "/turn open 2023-01-03"), ("gm", "/roll 2d6 omen of Apollo"), ("antiochus", "peace treaty with Gauls"),
              (None, ""), ("gm", "/ledger"), ("gm", "/roll 1d6 second omen"), (None, ""), ("ptolemy", "hello"),
              ("gm", "/ledger")]
    base = tmp_path / "base.db"
    with serving(FakeRelay()) as relay:
        made = with_beacons(base, relay, CLOCK)
        made.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
        assert made.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS),
                                    randomness="commit-reveal").changed
        made.engine.dispose()
        got = post_both_ways(tmp_path, base, relay, CLOCK, script)
    assert sum(e[2] == "random.recorded" for e in got["event"]) >= 2


@pytest.mark.parametrize("text", ["/gm extend Gauls 24", "/settings heads-up off", "/campaign reveal",
                                  "/lotto confirm 2023-01-05 BA 1 2 3 4 5"])
def test_a_post_the_direct_writer_cannot_make_is_left_to_the_service_untouched(tmp_path: Path, text: str) -> None:
    db = tmp_path / "camp.db"
    service = mare_nostrum_store(db)
    assert service.post("gm", "/turn open 2023-01-03").ok
    before = rows(db)
    author = "brennus" if text.startswith("/settings") else "gm"
    assert post_directly(db, author, text) is None
    assert rows(db) == before  # nothing of it written, not even its record
    assert service.post(author, text).render()  # the service answers it


def test_what_the_direct_writer_cannot_open_is_left_to_the_service(tmp_path: Path) -> None:
    assert post_directly(tmp_path / "missing.db", "gm", "hello") is None
    assert post_directly("postgresql://nobody@127.0.0.1:9/none", "gm", "hello") is None
    old = tmp_path / "old.db"
    service = mare_nostrum_store(old)
    service.engine.dispose()
    connection = sqlite3.connect(old)
    connection.execute("UPDATE alembic_version SET version_num = '0001'")
    connection.commit()
    connection.close()
    assert post_directly(old, "gm", "/turn open 2023-01-03") is None  # the service migrates first
    db = tmp_path / "camp.db"
    mare_nostrum_store(db).engine.dispose()
    assert post_directly(db, "gm", "hello", "no-such-campaign") is None  # the service words the refusal
    holder = sqlite3.connect(db, isolation_level=None, timeout=0)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the wait: the service retries
    try:
        import bot.store.sqlite_post_store as light

        original = light.sqlite3.connect
        light.sqlite3.connect = lambda *a, **k: original(*a, **{**k, "timeout": 0.1})  # type: ignore[assignment]
        try:
            assert post_directly(db, "gm", "hello") is None
        finally:
            light.sqlite3.connect = original  # type: ignore[assignment]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
