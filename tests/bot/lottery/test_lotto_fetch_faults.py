"""Every way a source can fail, as the GM reads it: one line naming the source and its URL. In every case
nothing is stored and no wrong number is used."""
from __future__ import annotations

import datetime as dt
import json
import socket
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from bot.store.draws import DrawRow, get_draw, import_archive
from bot.lottery.fetch import fetch_draw, fetch_until_available
from bot.lottery.http import RetryPolicy
from bot.lottery.reconcile import Outcome, Status
from bot.lottery.sources import LottoSettings, build_sources
from bot.store.fetched_draws import FetchedDrawRow
from engine.lotto import Draw
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
    with_numbers,
)

DAY = dt.date(2026, 9, 1)
DRAWS = fixture_draws(JAN_2023, SEP_2026)
LINES = archive_lines(JAN_2023, SEP_2026)
ZIPPED = archive_zip(LINES)


@pytest.fixture
def healthy(site: FakeSite) -> FakeSite:
    site.routes[ARCHIVE_PATH] = Reply(body=ZIPPED, content_type="application/zip")
    site.serve_official(DRAWS)
    return site


def fetch(site: FakeSite, engine: Engine, day: dt.date = DAY, sleeps: list[float] | None = None,
          **settings: object) -> Outcome:
    base = dict(
        archive_urls=(site.url(ARCHIVE_PATH),), draw_url=site.url(DRAW_PATH), calendar_url=site.url(CALENDAR_PATH),
        connect_timeout=2.0, read_timeout=2.0, retry=RetryPolicy(attempts=3, base=1.0, factor=2.0, cap=30.0),
    )
    sources = build_sources(LottoSettings(**{**base, **settings}),  # type: ignore[arg-type]
                            sleeper=(sleeps if sleeps is not None else []).append)
    with Session(engine) as session:
        return fetch_draw(session, day, sources)


def stored_rows(engine: Engine) -> list[DrawRow]:
    with Session(engine) as session:
        return list(session.exec(select(DrawRow)).all())


def fetched_sources(engine: Engine) -> list[str]:
    with Session(engine) as session:
        return [row.source for row in session.exec(select(FetchedDrawRow).order_by(col(FetchedDrawRow.id))).all()]


def assert_nothing_stored(engine: Engine, outcome: Outcome, answered: list[str]) -> None:
    assert not outcome.stored
    assert stored_rows(engine) == []
    assert fetched_sources(engine) == answered  # only sound answers are kept as evidence


def json_reply(body: object) -> Reply:
    return Reply(body=json.dumps(body).encode())


def answer_with(draw: Draw, **changes: object) -> Reply:
    body = json.loads(json_answer(draw))
    body.update(changes)
    return json_reply(body)


WAITING_FOR_ONE = ("the draw of 2026-09-01 (Tue) is not stored: only archive has given it so far; "
                   "it needs a second source that agrees, or the operator's import of the official archive")


# --- the network -----------------------------------------------------------------------------------


def test_http_500_is_retried_then_reported(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[DRAW_PATH] = Reply(status=500, body=b"<html>Internal error</html>", content_type="text/html")
    sleeps: list[float] = []
    outcome = fetch(healthy, engine, sleeps=sleeps)
    assert outcome.lines() == [
        f"lotto-italia ({healthy.url(DRAW_PATH)}): HTTP 500 Internal Server Error (the server failed)",
        WAITING_FOR_ONE,
    ]
    assert sleeps == [1.0, 2.0] and len(healthy.hits(DRAW_PATH)) == 3
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_timeout_is_reported_with_its_limit(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[DRAW_PATH] = Reply(body=json_answer(DRAWS[DAY]), delay=1.0)
    outcome = fetch(healthy, engine, read_timeout=0.3, retry=RetryPolicy(attempts=2, base=0.0))
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): no answer within 0.3 s (read timeout)",)
    assert outcome.message == WAITING_FOR_ONE
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_site_that_cannot_be_reached(healthy: FakeSite, engine: Engine) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}{ARCHIVE_PATH}"
    outcome = fetch(healthy, engine, archive_urls=(dead,), retry=RetryPolicy(attempts=1))
    assert outcome.faults == (f"archive ({dead}): cannot connect: connection refused",)
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_a_mirror_that_fails_falls_back_to_the_next(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes["/moved.zip"] = Reply(body=b"<!DOCTYPE html><html><title>Pagina spostata</title></html>",
                                         content_type="text/html")
    outcome = fetch(healthy, engine, archive_urls=(healthy.url("/moved.zip"), healthy.url(ARCHIVE_PATH)))
    assert outcome.status is Status.STORED and outcome.faults == ()
    with Session(engine) as session:
        row = session.exec(select(FetchedDrawRow).where(FetchedDrawRow.source == "archive")).one()
        assert row.url == healthy.url(ARCHIVE_PATH)


# --- the archive zip -------------------------------------------------------------------------------


def test_a_truncated_zip(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[ARCHIVE_PATH] = Reply(body=ZIPPED[: len(ZIPPED) // 2], content_type="application/zip")
    outcome = fetch(healthy, engine, retry=RetryPolicy(attempts=1))
    assert len(outcome.faults) == 1
    assert outcome.faults[0].startswith(
        f"archive ({healthy.url(ARCHIVE_PATH)}): not a complete zip archive ({len(ZIPPED) // 2} bytes; "
        f"truncated or damaged: ")
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_a_download_that_breaks_off(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[ARCHIVE_PATH] = Reply(body=ZIPPED[:1000], content_length=len(ZIPPED))
    sleeps: list[float] = []
    outcome = fetch(healthy, engine, sleeps=sleeps)
    assert outcome.faults == (
        f"archive ({healthy.url(ARCHIVE_PATH)}): the download broke off before its end "
        f"({len(ZIPPED)} bytes announced); truncated",)
    assert sleeps == [1.0, 2.0]  # a broken download is worth trying again
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_an_html_page_instead_of_the_zip(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[ARCHIVE_PATH] = Reply(
        body=b"\n<!DOCTYPE html>\n<html><head><title>IGT Lotto</title></head><body>Manutenzione</body></html>",
        content_type="text/html; charset=utf-8")
    sleeps: list[float] = []
    outcome = fetch(healthy, engine, sleeps=sleeps)
    assert outcome.faults == (f"archive ({healthy.url(ARCHIVE_PATH)}): got an HTML page, not the zip archive "
                              f"(the address may have moved)",)
    assert sleeps == []  # a page in place of the file will not heal in seconds
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_a_zip_with_another_file(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[ARCHIVE_PATH] = Reply(body=archive_zip(LINES, member="storico.txt"))
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"archive ({healthy.url(ARCHIVE_PATH)}): the zip holds storico.txt, "
                              f"not storico01-oggi.txt (the format has changed)",)
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_an_archive_that_lacks_a_wheel(healthy: FakeSite, engine: Engine) -> None:
    lines = [ln for ln in LINES if not ln.startswith("2026/09/01\tRN")]
    healthy.routes[ARCHIVE_PATH] = Reply(body=archive_zip(lines))
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"archive ({healthy.url(ARCHIVE_PATH)}): the draw of 2026-09-01 (Tue) lacks wheels "
                              f"RN (10 of 11; the format may have changed)",)
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


def test_an_archive_line_with_a_number_out_of_range(healthy: FakeSite, engine: Engine) -> None:
    lines = [ln.replace("\t64", "\t94") if ln.startswith("2026/09/01\tBA") else ln for ln in LINES]
    healthy.routes[ARCHIVE_PATH] = Reply(body=archive_zip(lines))
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"archive ({healthy.url(ARCHIVE_PATH)}): unreadable line for 2026-09-01: "
                              f"'2026/09/01 BA 56 3 8 36 94': 94 is out of range 1..90",)
    assert_nothing_stored(engine, outcome, ["lotto-italia"])


# --- the official JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (json_reply([{"ruota": "BA", "numeri": [56, 3, 8, 36, 64]}]),
         "unknown answer shape: a JSON list, not an object with 'esito' and 'estrazione'"),
        (json_reply({"status": "ok", "draw": {}}), "unknown answer shape: no 'esito' field (fields: draw, status)"),
        (json_reply({"esito": "OK", "data": 1, "risultati": []}),
         "unknown answer shape: esito OK but no 'estrazione' list (fields: data, esito, risultati)"),
        (json_reply({"esito": "OK", "estrazione": {"BA": [56, 3, 8, 36, 64]}}),
         "unknown answer shape: 'estrazione' is a object, not a list"),
        (json_reply({"esito": "OK", "estrazione": [{"nome": "bari", "numeriEstratti": [56, 3, 8, 36, 64]}]}),
         "unknown answer shape: entry 1 of 'estrazione' has no 'ruota' and 'numeri' (nome, numeriEstratti)"),
        (json_reply({"esito": "OK", "estrazione": [{"ruota": "BA", "numeri": "56-3-8-36-64"}]}),
         "unknown answer shape: the numbers of BA are \"56-3-8-36-64\", not a list of integers"),
        (json_reply({"esito": "OK", "estrazione": [{"ruota": "XY", "numeri": [1, 2, 3, 4, 5]}]}),
         "unknown wheel 'XY' in entry 1"),
        (Reply(body=b"<html><body>Servizio non disponibile</body></html>", content_type="text/html"),
         "got an HTML page, not JSON (the address may have moved)"),
        (Reply(body=b'{"esito": "OK", "estraz'), "the answer is not JSON (Unterminated string starting at: "
                                                 "line 1 column 17 (char 16))"),
    ],
)
def test_a_changed_json_format(healthy: FakeSite, engine: Engine, reply: Reply, problem: str) -> None:
    healthy.routes[DRAW_PATH] = reply
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): {problem}",)
    assert outcome.message == WAITING_FOR_ONE
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_json_answer_without_a_wheel(healthy: FakeSite, engine: Engine) -> None:
    ten = Draw(DAY, {w: n for w, n in DRAWS[DAY].numbers.items() if w != "VE"})
    healthy.routes[DRAW_PATH] = Reply(body=json_answer(ten))
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): the draw of 2026-09-01 (Tue) lacks wheels "
                              f"VE (10 of 11; the format may have changed)",)
    assert_nothing_stored(engine, outcome, ["archive"])


@pytest.mark.parametrize(
    ("numbers", "problem"),
    [
        ([56, 3, 8, 36, 56], "invalid numbers: 56 appears twice; the 5 numbers of a wheel are distinct"),
        ([56, 3, 8, 36, 0], "invalid numbers: 0 is out of range 1..90"),
        ([56, 3, 8, 36], "invalid numbers: BA has 4 numbers, not 5"),
        ([56, 3, 8, 36, True], "unknown answer shape: the numbers of BA are [56, 3, 8, 36, true], not a list of integers"),
    ],
)
def test_json_numbers_that_are_not_a_draw(healthy: FakeSite, engine: Engine, numbers: list[object], problem: str) -> None:
    body = json.loads(json_answer(DRAWS[DAY]))
    body["estrazione"][0]["numeri"] = numbers
    healthy.routes[DRAW_PATH] = json_reply(body)
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): {problem}",)
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_json_answer_for_another_day(healthy: FakeSite, engine: Engine) -> None:
    # A site that answers with its latest draw whatever the day asked: the numbers of the 3rd, dated the 3rd.
    healthy.routes[DRAW_PATH] = Reply(body=json_answer(DRAWS[dt.date(2026, 9, 3)]))
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): the answer is the draw of 2026-09-03 (Thu), "
                              f"not of 2026-09-01 (Tue)",)
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_calendar_in_an_unknown_shape(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[CALENDAR_PATH] = json_reply({"giorni": [1, 3, 4, 5]})
    outcome = fetch(healthy, engine)
    assert outcome.faults == (f"lotto-italia ({healthy.url(CALENDAR_PATH)}): unknown calendar shape for 2026-09: "
                              f"{{\"giorni\": [1, 3, 4, 5]}} (expected the list of draw days, e.g. [1, 3, 4])",)
    assert_nothing_stored(engine, outcome, ["archive"])


# --- not yet published -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (json_reply({"esito": "KO", "messaggio": "Estrazione non disponibile"}),
         "the draw of 2026-09-01 (Tue) is not yet published (esito 'KO'; Estrazione non disponibile)"),
        (Reply(body=b""), "empty answer: the draw is not yet published"),
        (json_reply({"esito": "OK", "estrazione": []}), "the draw of 2026-09-01 (Tue) is not yet published (no numbers yet)"),
        (Reply(status=404, body=b"Not Found", content_type="text/plain"),
         "HTTP 404 Not Found: the draw of 2026-09-01 is not yet published"),
    ],
)
def test_a_draw_not_yet_on_the_official_site(healthy: FakeSite, engine: Engine, reply: Reply, problem: str) -> None:
    healthy.routes[DRAW_PATH] = reply
    sleeps: list[float] = []
    outcome = fetch(healthy, engine, sleeps=sleeps)
    assert outcome.faults == (f"lotto-italia ({healthy.url(DRAW_PATH)}): {problem}",)
    assert outcome.status is Status.WAITING and not outcome.alert
    assert sleeps == []  # not published is retried by the slow loop, not hammered
    assert_nothing_stored(engine, outcome, ["archive"])


def test_a_draw_not_yet_in_the_archive(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[ARCHIVE_PATH] = Reply(body=archive_zip([ln for ln in LINES if not ln.startswith("2026/09/24")]))
    outcome = fetch(healthy, engine, day=dt.date(2026, 9, 24))
    assert outcome.faults == (f"archive ({healthy.url(ARCHIVE_PATH)}): the draw of 2026-09-24 (Thu) is not yet "
                              f"published (the archive ends on 2026-09-22)",)
    assert not outcome.stored and stored_rows(engine) == []


# --- sources that disagree -------------------------------------------------------------------------


def test_two_sources_that_disagree_store_nothing_and_alert_the_gm(healthy: FakeSite, engine: Engine) -> None:
    wrong = with_numbers(DRAWS[DAY], BA=(56, 3, 8, 36, 65), VE=(1, 2, 3, 4, 5))
    healthy.serve_official({**DRAWS, DAY: wrong})
    outcome = fetch(healthy, engine)
    assert outcome.status is Status.DISAGREEMENT and outcome.alert
    assert outcome.lines() == [
        f"the draw of 2026-09-01 (Tue) is not stored: archive ({healthy.url(ARCHIVE_PATH)}) and lotto-italia "
        f"({healthy.url(DRAW_PATH)}) disagree on 2 wheels: BA: archive 56 3 8 36 64, lotto-italia 56 3 8 36 65; "
        f"VE: archive {' '.join(map(str, DRAWS[DAY].numbers['VE']))}, lotto-italia 1 2 3 4 5; "
        f"the operator settles it by importing the official archive (legatus lotto import)"
    ]
    assert_nothing_stored(engine, outcome, ["archive", "lotto-italia"])  # both answers are kept as evidence


def test_a_source_that_contradicts_the_stored_draw_is_reported_and_the_stored_draw_kept(
    healthy: FakeSite, engine: Engine
) -> None:
    with Session(engine) as session:
        import_archive(session, (Path(SEP_2026)).read_text(encoding="utf-8"), "draws-2026-09.txt")
    healthy.serve_official({**DRAWS, DAY: with_numbers(DRAWS[DAY], RN=(10, 20, 30, 40, 50))})
    outcome = fetch(healthy, engine)
    assert outcome.status is Status.CONTRADICTS_STORED and outcome.alert
    rn = " ".join(map(str, DRAWS[DAY].numbers["RN"]))
    assert outcome.message == (
        f"the draw of 2026-09-01 (Tue) contradicts the stored draw (from draws-2026-09.txt): lotto-italia "
        f"({healthy.url(DRAW_PATH)}) says RN stored {rn} vs 10 20 30 40 50; the stored draw is kept")
    with Session(engine) as session:
        assert get_draw(session, DAY) == DRAWS[DAY]
        assert {r.source for r in session.exec(select(DrawRow).where(DrawRow.date == DAY))} == {"draws-2026-09.txt"}


def test_a_source_that_stops_agreeing_after_the_draw_is_stored(healthy: FakeSite, engine: Engine) -> None:
    assert fetch(healthy, engine).status is Status.STORED
    healthy.serve_official({**DRAWS, DAY: with_numbers(DRAWS[DAY], GE=(1, 2, 3, 4, 5))})
    outcome = fetch(healthy, engine)
    assert outcome.status is Status.CONTRADICTS_STORED
    assert "lotto-italia" in outcome.message and "says GE stored" in outcome.message
    assert outcome.message.endswith("the stored draw is kept")
    with Session(engine) as session:
        assert get_draw(session, DAY) == DRAWS[DAY]


# --- the availability loop -------------------------------------------------------------------------


def test_the_loop_stops_early_when_waiting_cannot_help(healthy: FakeSite, engine: Engine) -> None:
    healthy.routes[DRAW_PATH] = json_reply({"result": "changed"})
    sleeps: list[float] = []
    sources = build_sources(LottoSettings(
        archive_urls=(healthy.url(ARCHIVE_PATH),), draw_url=healthy.url(DRAW_PATH),
        calendar_url=healthy.url(CALENDAR_PATH)), sleeper=sleeps.append)
    outcome = fetch_until_available(engine, DAY, sources, policy=RetryPolicy(attempts=6, base=60.0),
                                    sleeper=sleeps.append)
    assert outcome.status is Status.GAVE_UP
    assert outcome.message == (
        f"gave up on the draw of 2026-09-01 (Tue) after 1 attempt: lotto-italia ({healthy.url(DRAW_PATH)}): "
        f"unknown answer shape: no 'esito' field (fields: result) (trying again will not help); "
        f"a GM may type the numbers only if no source holds them, else the operator imports the official archive "
        f"(legatus lotto import)")
    assert sleeps == []
    assert stored_rows(engine) == []
