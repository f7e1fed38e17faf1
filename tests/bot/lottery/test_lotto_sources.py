"""The lottery fetcher end to end: the real requests-based sources against fake sites on 127.0.0.1 that
serve the real fixtures in the published formats, into a real SQLite file."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from bot.schedule.clock import ROME, draw_weekdays
from bot.store.db import open_engine
from bot.store.draws import DrawRow, get_draw
from bot.cli.lotto_fetch import add_commands
from bot.lottery.fetch import draw_days_to_fetch, fetch_draw, fetch_draw_async, fetch_until_available, next_fetch_time
from bot.lottery.formats import Unusable, draw_from_json
from bot.lottery.http import RetryPolicy, backoff_delays
from bot.lottery.reconcile import Status, confirm_by_gm
from bot.lottery.sources import (
    DEFAULT_ARCHIVE_URLS,
    LottoSettings,
    OfficialSource,
    build_sources,
)
from bot.store.fetched_draws import FetchedDrawRow
from engine.lotto import Draw, wheels_on
from tests.bot.lottery.lotto_fakes import (
    ARCHIVE_PATH,
    CALENDAR_PATH,
    DRAW_PATH,
    JAN_2023,
    SEP_2026,
    FakeSite,
    Reply,
    archive_lines,
    archive_zip,
    fixture_draws,
    json_answer,
    moved,
)

D = dt.date
SEP_1 = D(2026, 9, 1)
NOW = dt.datetime(2026, 9, 30, 19, 0, tzinfo=dt.timezone.utc)
DRAWS = fixture_draws(JAN_2023, SEP_2026)
LINES = archive_lines(JAN_2023, SEP_2026)


@pytest.fixture
def sleeps() -> list[float]:
    return []


def settings_for(site: FakeSite, **overrides: object) -> LottoSettings:
    base = LottoSettings(
        archive_urls=(site.url(ARCHIVE_PATH),),
        draw_url=site.url(DRAW_PATH),
        calendar_url=site.url(CALENDAR_PATH),
        connect_timeout=2.0,
        read_timeout=2.0,
        retry=RetryPolicy(attempts=3, base=1.0, factor=2.0, cap=30.0),
    )
    return LottoSettings(**{**base.__dict__, **overrides})  # type: ignore[arg-type]


def sources_for(site: FakeSite, sleeps: list[float], **overrides: object):  # type: ignore[no-untyped-def]
    return build_sources(settings_for(site, **overrides), sleeper=sleeps.append, now=lambda: NOW)


def serve_fixtures(site: FakeSite, tmp_path: Path) -> bytes:
    zipped = archive_zip(LINES, tmp=tmp_path)
    site.routes[ARCHIVE_PATH] = Reply(body=zipped, content_type="application/zip")
    site.serve_official(DRAWS)
    return zipped


def day_lines(day: dt.date) -> bytes:
    prefix = day.strftime("%Y/%m/%d")
    return "".join(line + "\n" for line in LINES if line.startswith(prefix)).encode()


def draw_rows(session: Session, day: dt.date) -> list[DrawRow]:
    return list(session.exec(select(DrawRow).where(DrawRow.date == day)).all())


def fetched_rows(session: Session, day: dt.date | None = None) -> list[FetchedDrawRow]:
    query = select(FetchedDrawRow)
    if day is not None:
        query = query.where(FetchedDrawRow.date == day)
    return list(session.exec(query.order_by(col(FetchedDrawRow.id))).all())


# --- the happy path --------------------------------------------------------------------------------


def test_two_sources_that_agree_store_the_draw_and_keep_the_raw_bytes(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    serve_fixtures(site, tmp_path)
    with Session(engine) as session:
        outcome = fetch_draw(session, SEP_1, sources_for(site, sleeps))
        assert outcome.status is Status.STORED
        assert outcome.lines() == ["the draw of 2026-09-01 (Tue) is stored: archive and lotto-italia agree on all 11 wheels"]

        assert get_draw(session, SEP_1) == DRAWS[SEP_1]
        rows = draw_rows(session, SEP_1)
        assert len(rows) == 11 and {r.source for r in rows} == {"agreed: archive, lotto-italia"}
        assert rows[0].line == "2026/09/01\tBA\t56\t3\t8\t36\t64"

        archive, official = fetched_rows(session, SEP_1)
        assert (archive.source, archive.url) == ("archive", site.url(ARCHIVE_PATH))
        assert archive.raw == day_lines(SEP_1)  # the day's lines of storico01-oggi.txt, byte for byte
        assert archive.raw.startswith(b"2026/09/01\tBA\t56\t3\t8\t36\t64\n")
        assert (official.source, official.url) == ("lotto-italia", site.url(DRAW_PATH))
        assert official.raw == json_answer(DRAWS[SEP_1])  # the answer exactly as served
        for row in (archive, official):
            assert row.sha256 == hashlib.sha256(row.raw).hexdigest()
            assert row.fetched_at == NOW and row.fetched_at.tzinfo is not None
            assert row.numbers.startswith('{"BA":[56,3,8,36,64],"CA":')
            assert row.draw == DRAWS[SEP_1]
    # The requests the official site's own page makes: the month's calendar, then the day as YYYYMMDD.
    assert [r.json for r in site.hits(CALENDAR_PATH)] == [{"mese": 9, "anno": 2026}]
    assert [r.json for r in site.hits(DRAW_PATH)] == [{"data": "20260901"}]
    assert sleeps == []


def test_fetching_twice_stores_once(site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]) -> None:
    serve_fixtures(site, tmp_path)
    day = D(2023, 1, 3)
    with Session(engine) as session:
        first = fetch_draw(session, day, sources_for(site, sleeps))
        second = fetch_draw(session, day, sources_for(site, sleeps))
        assert first.status is Status.STORED
        assert second.status is Status.ALREADY_STORED
        assert second.message == ("the draw of 2023-01-03 (Tue) is already stored (from agreed: archive, lotto-italia); "
                                  "archive and lotto-italia agree")
        assert session.exec(select(func.count()).select_from(DrawRow)).one() == 11
        assert len(fetched_rows(session)) == 2  # the same bytes again are not recorded twice
        assert get_draw(session, day) == DRAWS[day]


def test_a_draw_moved_to_a_monday_is_taken_from_the_calendar(
    site: FakeSite, engine: Engine, sleeps: list[float]
) -> None:
    # Fabricated: as if the Tuesday 2026-09-08 draw had been held on Monday the 7th (as 2010-05-03 was).
    monday, tuesday = D(2026, 9, 7), D(2026, 9, 8)
    assert monday.weekday() == 0 and monday.weekday() not in draw_weekdays(monday)
    shifted = {d: v for d, v in DRAWS.items() if d != tuesday} | {monday: moved(DRAWS[tuesday], monday)}
    lines = [ln.replace("2026/09/08", "2026/09/07") for ln in LINES]
    site.routes[ARCHIVE_PATH] = Reply(body=archive_zip(lines), content_type="application/zip")
    site.serve_official(shifted, calendar={(2026, 9): [1, 3, 4, 5, 7, 10, 11, 12]})
    with Session(engine) as session:
        outcome = fetch_draw(session, monday, sources_for(site, sleeps))
        assert outcome.status is Status.STORED, outcome.lines()
        assert outcome.message.startswith("the draw of 2026-09-07 (Mon) is stored")
        assert get_draw(session, monday) == moved(DRAWS[tuesday], monday)

        refused = fetch_draw(session, tuesday, sources_for(site, sleeps))
        assert refused.status is Status.WAITING
        assert refused.faults == (
            f"archive ({site.url(ARCHIVE_PATH)}): the archive has no draw on 2026-09-08 (Tue): not a draw day",
            f"lotto-italia ({site.url(CALENDAR_PATH)}): the calendar of 2026-09 lists 1 3 4 5 7 10 11 12, "
            f"not 2026-09-08: not a draw day, or not held yet",
        )
        assert get_draw(session, tuesday) is None
        assert site.hits(DRAW_PATH)[-1].json == {"data": "20260907"}  # the Tuesday was never asked for

        official = next(s for s in sources_for(site, sleeps) if isinstance(s, OfficialSource))
        to_fetch = draw_days_to_fetch(session, official, D(2026, 9, 1), D(2026, 9, 12))
        assert to_fetch == [D(2026, 9, d) for d in (1, 3, 4, 5, 10, 11, 12)]


# --- GM confirmation -------------------------------------------------------------------------------


def test_a_draw_only_one_source_gave_is_not_for_a_gm_to_type(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    """Attacker: GM with Discord. One source holds the draw: its numbers stand, and a GM's typing would only put a
    GM's word in the log in place of the sources' (issue 22). It waits for a second source, or the operator's import."""
    serve_fixtures(site, tmp_path)
    site.routes[ARCHIVE_PATH] = Reply(status=503)
    day = D(2026, 9, 3)
    with Session(engine) as session:
        waiting = fetch_draw(session, day, sources_for(site, sleeps))
        assert waiting.status is Status.WAITING
        assert waiting.message == ("the draw of 2026-09-03 (Thu) is not stored: only lotto-italia has given it so far; "
                                   "it needs a second source that agrees, or the operator's import of the official archive")
        assert get_draw(session, day) is None

        typed = day_lines(day).decode()  # the GM pastes the archive lines from the official page
        refused = confirm_by_gm(session, day, typed, "alice", now=lambda: NOW)
        assert refused.status is Status.REFUSED
        assert refused.message.startswith("the draw of 2026-09-03 (Thu) is held by lotto-italia (http://127.0.0.1:")
        assert refused.message.endswith("not typed by a GM; nothing stored")
        assert get_draw(session, day) is None and [r.source for r in fetched_rows(session, day)] == ["lotto-italia"]

        # The archive comes back later and agrees: the fetcher stores it from the two sources.
        site.routes[ARCHIVE_PATH] = Reply(body=archive_zip(LINES), content_type="application/zip")
        again = fetch_draw(session, day, sources_for(site, sleeps))
        assert again.status is Status.STORED and get_draw(session, day) == DRAWS[day]


def test_a_gm_cannot_settle_sources_that_disagree(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    """Attacker: GM with Discord, picking between two sources that disagree (or typing a third answer): the
    operator's import of the official archive settles it, not a GM."""
    serve_fixtures(site, tmp_path)
    day = D(2026, 9, 4)
    wrong = Draw(day, {**DRAWS[day].numbers, "BA": (1, 2, 3, 4, 5)})
    site.serve_official({**DRAWS, day: wrong})
    with Session(engine) as session:
        assert fetch_draw(session, day, sources_for(site, sleeps)).status is Status.DISAGREEMENT
        text = "; ".join(f"{w} {' '.join(map(str, n))}" for w, n in DRAWS[day].numbers.items())
        refused = confirm_by_gm(session, day, text, "bob")
        assert refused.status is Status.REFUSED
        assert "held by archive (" in refused.message and "; lotto-italia (" in refused.message
        assert "lotto-italia (" in refused.message and "other numbers: BA 1 2 3 4 5 (typed 76 30 75 20 55)" in refused.message
        assert get_draw(session, day) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("BA 56 3 8 36 64", "wheels CA FI GE MI NA PA RM RN TO VE are missing; a draw of 2026-09-01 has 11"),
        ("Bari 56 3 8 36", "'Bari 56 3 8 36' needs the wheel and 5 numbers"),
        ("XX 1 2 3 4 5", "'XX 1 2 3 4 5' does not start with a wheel (BA, CA, ... or Bari, Cagliari, ...)"),
        ("BA 56 3 8 36 91", "91 is out of range 1..90"),
        ("BA 56 3 8 36 56", "56 appears twice; the 5 numbers of a wheel are distinct"),
        ("2026/09/02 BA 56 3 8 36 64", "'2026/09/02 BA 56 3 8 36 64' is dated 2026-09-02, not 2026-09-01"),
    ],
)
def test_a_gm_confirmation_that_cannot_be_read_stores_nothing(engine: Engine, text: str, problem: str) -> None:
    with Session(engine) as session:
        outcome = confirm_by_gm(session, SEP_1, text, "alice")
        assert outcome.status is Status.REFUSED
        assert outcome.message == f"GM alice's numbers for 2026-09-01 (Tue) are not stored: {problem}"
        assert draw_rows(session, SEP_1) == [] and fetched_rows(session) == []


def test_a_gm_cannot_silently_overwrite_a_stored_draw(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    serve_fixtures(site, tmp_path)
    with Session(engine) as session:
        assert fetch_draw(session, SEP_1, sources_for(site, sleeps)).stored
        text = day_lines(SEP_1).decode().replace("56\t3\t8\t36\t64", "56\t3\t8\t36\t65")
        outcome = confirm_by_gm(session, SEP_1, text, "mallory")
        assert outcome.status is Status.CONTRADICTS_STORED
        assert outcome.message == ("the draw of 2026-09-01 (Tue) contradicts the stored draw (from agreed: archive, "
                                   "lotto-italia): GM mallory says BA stored 56 3 8 36 64 vs 56 3 8 36 65; "
                                   "the stored draw is kept")
        assert get_draw(session, SEP_1) == DRAWS[SEP_1]


# --- retries, scheduling, async --------------------------------------------------------------------


def test_backoff_delays_are_exponential_capped_and_deterministic() -> None:
    assert backoff_delays(1, 1.0) == ()
    assert backoff_delays(5, 1.0, 2.0, cap=5.0) == (1.0, 2.0, 4.0, 5.0)
    assert backoff_delays(4, 120.0, 2.0, cap=1800.0) == (120.0, 240.0, 480.0)
    assert backoff_delays(3, 0.5, 3.0) == (0.5, 1.5)
    assert RetryPolicy(attempts=8, base=120, cap=1800).delays() == (120, 240, 480, 960, 1800, 1800, 1800)
    with pytest.raises(ValueError):
        backoff_delays(0, 1.0)


def test_a_failing_request_is_retried_with_backoff(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    zipped = serve_fixtures(site, tmp_path)
    site.routes[ARCHIVE_PATH] = [Reply(status=500), Reply(status=502), Reply(body=zipped)]
    with Session(engine) as session:
        outcome = fetch_draw(session, SEP_1, sources_for(site, sleeps))
        assert outcome.status is Status.STORED and outcome.faults == ()
    assert sleeps == [1.0, 2.0]
    assert len(site.hits(ARCHIVE_PATH)) == 3


def test_fetch_until_available_waits_for_the_draw_to_be_published(
    site: FakeSite, engine: Engine, sleeps: list[float]
) -> None:
    day = D(2026, 9, 24)
    before = [ln for ln in LINES if not ln.startswith("2026/09/24")]
    site.routes[ARCHIVE_PATH] = [Reply(body=archive_zip(before))] * 2 + [Reply(body=archive_zip(LINES))]
    published = {"yet": 0}

    def official_draw(request):  # type: ignore[no-untyped-def]
        published["yet"] += 1
        if published["yet"] <= 1:
            return Reply(body=b"")  # the site answers empty until the draw is out
        return Reply(body=json_answer(DRAWS[day]))

    site.serve_official(DRAWS)
    site.routes[DRAW_PATH] = official_draw
    policy = RetryPolicy(attempts=5, base=60.0, factor=2.0, cap=600.0)
    outcome = fetch_until_available(engine, day, sources_for(site, sleeps), policy=policy, sleeper=sleeps.append)
    assert outcome.status is Status.STORED
    assert sleeps == [60.0, 120.0]  # three rounds: the archive lacked the day twice
    with Session(engine) as session:
        assert get_draw(session, day) == DRAWS[day]
    # Already stored: answered from the store, without a request.
    count = len(site.requests)
    again = fetch_until_available(engine, day, sources_for(site, sleeps), policy=policy, sleeper=sleeps.append)
    assert again.status is Status.ALREADY_STORED and len(site.requests) == count


def test_fetch_until_available_gives_up_after_n_attempts_with_the_last_error(
    site: FakeSite, engine: Engine, tmp_path: Path, sleeps: list[float]
) -> None:
    serve_fixtures(site, tmp_path)
    site.routes[CALENDAR_PATH] = Reply(body=b"[1,3,4,5,8,10,11,12,15,17,18,19,22,24,25]")
    day = D(2026, 9, 25)
    policy = RetryPolicy(attempts=4, base=30.0, factor=2.0, cap=None)
    outcome = fetch_until_available(engine, day, sources_for(site, sleeps), policy=policy, sleeper=sleeps.append)
    assert outcome.status is Status.GAVE_UP and outcome.alert
    assert outcome.message == (
        f"gave up on the draw of 2026-09-25 (Fri) after 4 attempts; last error: lotto-italia ({site.url(DRAW_PATH)}): "
        f"the draw of 2026-09-25 (Fri) is not yet published (esito 'KO'; Errore nel recupero dell'estrazione)"
    )
    assert outcome.faults[0] == (f"archive ({site.url(ARCHIVE_PATH)}): the draw of 2026-09-25 (Fri) is not yet "
                                 f"published (the archive ends on 2026-09-24)")
    assert sleeps == [30.0, 60.0, 120.0]
    with Session(engine) as session:
        assert draw_rows(session, day) == [] and fetched_rows(session) == []


@pytest.mark.parametrize(
    ("after", "expected"),
    [
        # Summer time: 20:15 Rome is 18:15 UTC. Monday has no draw; Tuesday does.
        (dt.datetime(2026, 9, 7, 10, 0, tzinfo=dt.timezone.utc), dt.datetime(2026, 9, 8, 18, 15, tzinfo=dt.timezone.utc)),
        (dt.datetime(2026, 9, 8, 20, 14, tzinfo=ROME), dt.datetime(2026, 9, 8, 18, 15, tzinfo=dt.timezone.utc)),
        (dt.datetime(2026, 9, 8, 20, 15, tzinfo=ROME), dt.datetime(2026, 9, 10, 18, 15, tzinfo=dt.timezone.utc)),
        # Since July 2023 Friday is a draw day too.
        (dt.datetime(2026, 9, 10, 21, 0, tzinfo=ROME), dt.datetime(2026, 9, 11, 18, 15, tzinfo=dt.timezone.utc)),
        # Winter time, Tue/Thu/Sat schedule: after Thursday's fetch comes Saturday's, at 19:15 UTC.
        (dt.datetime(2023, 1, 5, 21, 0, tzinfo=ROME), dt.datetime(2023, 1, 7, 19, 15, tzinfo=dt.timezone.utc)),
    ],
)
def test_next_fetch_time_is_a_few_minutes_after_the_next_scheduled_draw(after: dt.datetime, expected: dt.datetime) -> None:
    assert next_fetch_time(after) == expected


def test_next_fetch_time_needs_an_aware_datetime() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        next_fetch_time(dt.datetime(2026, 9, 8, 12, 0))


def test_the_async_fetch_does_not_block_the_event_loop(site: FakeSite, engine: Engine, tmp_path: Path) -> None:
    zipped = serve_fixtures(site, tmp_path)
    site.routes[ARCHIVE_PATH] = Reply(body=zipped, delay=0.4)
    site.routes[CALENDAR_PATH] = Reply(body=b"[1,3,4,5]", delay=0.4)
    ticks: list[float] = []

    async def main():  # type: ignore[no-untyped-def]
        async def ticker() -> None:
            while True:
                ticks.append(time.monotonic())
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        started = time.monotonic()
        outcome = await fetch_draw_async(engine, SEP_1, settings=settings_for(site))
        elapsed = time.monotonic() - started
        task.cancel()
        return outcome, elapsed

    outcome, elapsed = asyncio.run(main())
    assert outcome.status is Status.STORED
    assert elapsed >= 0.8  # the slow site really made the fetch slow...
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    # ...and the loop kept ticking all along: a blocking fetch would leave one gap of the whole 0.8 s. The bound
    # leaves room for a loaded machine, where the thread parsing the zip holds the GIL for a while.
    assert len(ticks) >= 15 and max(gaps) < 0.5


# --- formats, settings, command line ---------------------------------------------------------------


def test_before_may_2005_a_draw_has_ten_wheels() -> None:
    old = D(2004, 5, 5)
    ten = Draw(old, {w: n for w, n in DRAWS[D(2023, 1, 3)].numbers.items() if w != "RN"})
    assert draw_from_json(json_answer(ten), old).wheels == wheels_on(old)
    eleven = json.loads(json_answer(DRAWS[D(2023, 1, 3)]))
    eleven["data"] = json.loads(json_answer(ten))["data"]
    with pytest.raises(Unusable, match="the Nazionale wheel \\(RN\\) was only drawn from 2005/05/04"):
        draw_from_json(json.dumps(eleven).encode(), old)


def test_the_json_may_name_wheels_in_full() -> None:
    day = D(2023, 1, 3)
    body = json.loads(json_answer(DRAWS[day]))
    names = {"BA": "Bari", "RN": "Nazionale", "RM": "roma"}
    for entry in body["estrazione"]:
        entry["ruota"] = names.get(entry["ruota"], entry["ruota"])
    assert draw_from_json(json.dumps(body).encode(), day) == DRAWS[day]


def test_settings_come_from_the_environment() -> None:
    assert LottoSettings.from_env({}).archive_urls == DEFAULT_ARCHIVE_URLS
    settings = LottoSettings.from_env({
        "LEGATUS_LOTTO_ARCHIVE_URLS": "http://a/x.zip, http://b/x.zip",
        "LEGATUS_LOTTO_DRAW_URL": "http://c/draw.json",
        "LEGATUS_LOTTO_CALENDAR_URL": "http://c/cal.json",
        "LEGATUS_LOTTO_CONNECT_TIMEOUT": "3",
        "LEGATUS_LOTTO_READ_TIMEOUT": "7.5",
    })
    assert settings.archive_urls == ("http://a/x.zip", "http://b/x.zip")
    assert (settings.draw_url, settings.calendar_url) == ("http://c/draw.json", "http://c/cal.json")
    assert (settings.connect_timeout, settings.read_timeout) == (3.0, 7.5)
    with pytest.raises(ValueError, match="LEGATUS_LOTTO_READ_TIMEOUT='soon' is not a number"):
        LottoSettings.from_env({"LEGATUS_LOTTO_READ_TIMEOUT": "soon"})
    with pytest.raises(ValueError, match="LEGATUS_LOTTO_RETRIES='0' must be a whole number >= 1"):
        LottoSettings.from_env({"LEGATUS_LOTTO_RETRIES": "0"})
    retrying = LottoSettings.from_env({"LEGATUS_LOTTO_RETRIES": "4", "LEGATUS_LOTTO_BACKOFF": "0.5"}).retry
    assert retrying.delays() == (0.5, 1.0, 2.0)


def lotto_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="legatus")
    lotto = parser.add_subparsers().add_parser("lotto").add_subparsers()
    add_commands(lotto)
    return parser


def test_the_fetch_command(
    site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_fixtures(site, tmp_path)
    monkeypatch.setenv("LEGATUS_LOTTO_ARCHIVE_URLS", site.url(ARCHIVE_PATH))
    monkeypatch.setenv("LEGATUS_LOTTO_DRAW_URL", site.url(DRAW_PATH))
    monkeypatch.setenv("LEGATUS_LOTTO_CALENDAR_URL", site.url(CALENDAR_PATH))
    db = str(tmp_path / "cli.db")

    args = lotto_parser().parse_args(["lotto", "fetch", "--db", db, "--date", "2026-09-05"])
    assert args.func(args) == 0
    assert capsys.readouterr().out == "the draw of 2026-09-05 (Sat) is stored: archive and lotto-italia agree on all 11 wheels\n"

    args = lotto_parser().parse_args(["lotto", "fetch", "--db", db, "--date", "2026-09-10", "--sources", "archive"])
    assert args.func(args) == 1
    assert capsys.readouterr().out == ("the draw of 2026-09-10 (Thu) is not stored: only archive has given it so far; "
                                       "it needs a second source that agrees, or the operator's import of the official archive\n")

    args = lotto_parser().parse_args(["lotto", "fetch", "--db", db, "--date", "2026-09-05", "--sources", "archive,oracle"])
    assert args.func(args) == 1
    assert capsys.readouterr().out == "unknown source oracle; the sources are archive, lotto-italia\n"

    with pytest.raises(SystemExit):
        lotto_parser().parse_args(["lotto", "fetch", "--db", db, "--date", "5 Sept"])
    assert "'5 Sept' is not a date (YYYY-MM-DD)" in capsys.readouterr().err
    engine = open_engine(db)
    with Session(engine) as session:
        assert get_draw(session, D(2026, 9, 5)) == DRAWS[D(2026, 9, 5)]
        assert get_draw(session, D(2026, 9, 10)) is None
    engine.dispose()


def test_the_fetch_command_lets_a_waiting_campaign_move_on(
    site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.schedule.clock import FixedClock
    from bot.service.legatus import Legatus
    from tests.conftest import PLAYERS

    serve_fixtures(site, tmp_path)
    for name, path in (("ARCHIVE_URLS", ARCHIVE_PATH), ("DRAW_URL", DRAW_PATH), ("CALENDAR_URL", CALENDAR_PATH)):
        monkeypatch.setenv(f"LEGATUS_LOTTO_{name}", site.url(path))
    db = tmp_path / "camp.db"
    engine = open_engine(db)
    service = Legatus(engine, clock=FixedClock(dt.datetime(2026, 8, 31, 12, 0, tzinfo=dt.timezone.utc)))
    service.create_campaign("mare-nostrum", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    assert "bound to the lottery draw of 2026-09-01" in service.post("gm", "/turn open").render()
    engine.dispose()

    args = lotto_parser().parse_args(["lotto", "fetch", "--db", str(db), "--date", "2026-09-01"])
    assert args.func(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["the draw of 2026-09-01 (Tue) is stored: archive and lotto-italia agree on all 11 wheels",
                       "Campaign 'mare-nostrum':"]
    assert any("Order of play: Gauls (CA 67)" in line for line in out)


def test_a_fetch_cancelled_mid_retry_stops_its_thread_at_once(site: FakeSite, engine: Engine, tmp_path: Path) -> None:
    """A bot stopping while a fetch waits between retries must not wait them out: asyncio.run's end joins the
    worker thread, so a 60 s back-off would hold the bot's stop (and every test that stops a bot) for minutes."""
    site.routes[ARCHIVE_PATH] = Reply(status=503, body=b"busy", content_type="text/plain")
    site.routes[DRAW_PATH] = Reply(status=503, body=b"busy", content_type="text/plain")
    slow = settings_for(site, retry=RetryPolicy(attempts=3, base=60.0, factor=2.0, cap=120.0))
    threads: list[threading.Thread] = []

    async def main() -> None:
        task = asyncio.create_task(fetch_draw_async(engine, SEP_1, settings=slow))
        while not site.hits(ARCHIVE_PATH):  # the first try was made: the thread now sleeps before the next
            await asyncio.sleep(0.01)
        threads.extend(t for t in threading.enumerate() if t.name.startswith("asyncio"))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    started = time.monotonic()
    asyncio.run(main())  # returns only once the loop's worker threads have ended
    assert threads and not any(t.is_alive() for t in threads)
    assert time.monotonic() - started < 30  # the back-off alone is 60 s: the stop did not wait it out
    assert len(site.hits(ARCHIVE_PATH)) == 1  # and no source was asked again after the stop
