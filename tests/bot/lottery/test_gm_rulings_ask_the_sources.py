"""Hole: "typed and cancelled draws override the sources". ``/lotto confirm`` replaced the numbers of a draw a source
had already published, and ``/lotto cancelled`` ruled "not held" a draw a source held, binding its rolls again (a
re-roll). Now a GM's ruling first asks every source, over HTTP as the fetcher does (here a site on 127.0.0.1), and
is refused, naming the source, wherever one holds the draw."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.lottery.asking import env_asker
from bot.lottery.http import RetryPolicy
from bot.lottery.reconcile import Status, confirm_by_gm
from bot.lottery.sources import LottoSettings
from bot.schedule.clock import FixedClock, draw_moment
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.draws import get_draw
from bot.store.fetched_draws import FetchedDraw, FetchedDrawRow, record_fetch
from engine.lotto import Draw
from tests.bot.lottery.lotto_fakes import (
    ARCHIVE_PATH, CALENDAR_PATH, DRAW_PATH, SEP_2026, FakeSite, Reply, archive_lines, archive_zip, fixture_draws,
)
from tests.conftest import PLAYERS
from tests.log_tools import events_of

DAY = dt.date(2026, 9, 1)  # a Tuesday draw of the fixtures
LATER = dt.date(2026, 9, 3)
DRAWS = fixture_draws(SEP_2026)
UP_TO_DAY = [line for line in archive_lines(SEP_2026) if line[:10] <= "2026/09/01"]


def typed(draw: Draw, **changed: tuple[int, ...]) -> str:
    numbers = {**draw.numbers, **changed}
    return "; ".join(f"{w} {' '.join(map(str, n))}" for w, n in numbers.items())


def settings_for(site: FakeSite) -> LottoSettings:
    return LottoSettings(archive_urls=(site.url(ARCHIVE_PATH),), draw_url=site.url(DRAW_PATH),
                         calendar_url=site.url(CALENDAR_PATH), connect_timeout=2.0, read_timeout=2.0,
                         retry=RetryPolicy(attempts=3, base=0.01, factor=2.0, cap=0.01))


@pytest.fixture
def archive_only(site: FakeSite) -> FakeSite:
    """The operator's archive holds the draw of DAY; the official site is down."""
    site.routes[ARCHIVE_PATH] = Reply(body=archive_zip(UP_TO_DAY), content_type="application/zip")
    site.routes[CALENDAR_PATH] = Reply(status=503)
    return site


@pytest.fixture
def waiting(tmp_path: Path) -> Legatus:
    """A live campaign whose turn 1 waits for the draw of DAY; it is now 21:00 in Rome that day."""
    clock = FixedClock(dt.datetime(2026, 9, 1, 10, 0, tzinfo=dt.timezone.utc))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live").changed
    assert service.post("gm", "/turn open").changed
    assert service.state("c")["draw"] == DAY.isoformat()
    clock.moment = draw_moment(DAY) + dt.timedelta(hours=1)
    return service


def _stored(service: Legatus, day: dt.date) -> Draw | None:
    with Session(service.engine) as session:
        return get_draw(session, day)


def test_a_gm_cannot_type_a_draw_a_source_holds(waiting: Legatus, archive_only: FakeSite) -> None:
    """Attacker: GM with Discord, typing the very numbers the archive published (or a source's): a typed draw would
    stand in the log beside the sources' word, and the GM's numbers could then differ anywhere."""
    waiting.lottery_sources = env_asker(lambda: settings_for(archive_only))
    answer = waiting.post("gm", f"/lotto confirm {DAY.isoformat()} {typed(DRAWS[DAY])}")
    said = answer.render()
    assert not answer.changed, said
    assert "held by archive" in said and archive_only.url(ARCHIVE_PATH) in said and "nothing stored" in said
    assert _stored(waiting, DAY) is None
    assert not [e for e in events_of(waiting, "c") if e.kind == "draw.recorded"]
    assert archive_only.hits(ARCHIVE_PATH), "the archive was asked at the moment of the ruling"
    with Session(waiting.engine) as session:  # what the archive said is kept as evidence, like any fetch
        rows = session.exec(select(FetchedDrawRow).where(FetchedDrawRow.date == DAY)).all()
        assert [r.source for r in rows] == ["archive"]


def test_a_gm_cannot_type_numbers_a_source_contradicts(waiting: Legatus, archive_only: FakeSite) -> None:
    """Attacker: GM with Discord, replacing the published numbers of one wheel with numbers of their choice."""
    waiting.lottery_sources = env_asker(lambda: settings_for(archive_only))
    answer = waiting.post("gm", f"/lotto confirm {DAY.isoformat()} {typed(DRAWS[DAY], BA=(1, 2, 3, 4, 5))}")
    said = answer.render()
    assert not answer.changed, said
    ba = " ".join(map(str, DRAWS[DAY].numbers["BA"]))
    assert "held by archive" in said and f"BA {ba} (typed 1 2 3 4 5)" in said, said
    assert _stored(waiting, DAY) is None


def test_a_source_that_held_the_draw_earlier_still_holds_it_when_down(engine, archive_only: FakeSite) -> None:  # type: ignore[no-untyped-def]
    """Attacker: GM with Discord, waiting for the archive to be unreachable: what a source ever said is weighed."""
    after = draw_moment(DAY) + dt.timedelta(hours=1)
    with Session(engine) as session:
        record_fetch(session, FetchedDraw("archive", "https://archive", DRAWS[DAY], b"lines", after))
        outcome = confirm_by_gm(session, DAY, typed(DRAWS[DAY], BA=(1, 2, 3, 4, 5)), "mallory", now=lambda: after)
        assert outcome.status is Status.REFUSED
        assert "held by archive (https://archive" in outcome.message and "typed 1 2 3 4 5" in outcome.message
        assert get_draw(session, DAY) is None


def test_a_draw_no_source_could_give_is_typed_and_says_what_each_said(waiting: Legatus, site: FakeSite) -> None:
    """Attacker: none; the GM's way out when the sources are down or silent, recorded as GM-typed."""
    site.routes[ARCHIVE_PATH] = Reply(status=503)
    site.routes[CALENDAR_PATH] = Reply(status=503)
    waiting.lottery_sources = env_asker(lambda: settings_for(site))
    answer = waiting.post("gm", f"/lotto confirm {DAY.isoformat()} {typed(DRAWS[DAY])}")
    said = answer.render()
    assert answer.changed, said
    assert "stored as confirmed by GM gm" in said and "no source holds it" in said
    assert "archive" in said and "could not be reached" in said and "HTTP 503" in said
    recorded = [e for e in events_of(waiting, "c") if e.kind == "draw.recorded"]
    assert [e.data["source"] for e in recorded] == ["gm:gm"]


def test_a_draw_a_source_holds_cannot_be_ruled_not_held(waiting: Legatus, archive_only: FakeSite) -> None:
    """Attacker: GM with Discord, ruling a held draw "not held" to give its rolls a second chance on a later draw."""
    waiting.lottery_sources = env_asker(lambda: settings_for(archive_only))
    waiting.clock.moment = draw_moment(LATER) + dt.timedelta(hours=1)  # past the day's wait; a later draw stored
    later = [line for line in archive_lines(SEP_2026) if line.startswith("2026/09/03")]
    waiting.import_draws("\n".join(later), "import:later.txt")
    answer = waiting.post("gm", f"/lotto cancelled {DAY.isoformat()} strike")
    said = answer.render()
    assert not answer.changed, said
    assert "held by archive" in said and "cannot be ruled cancelled" in said
    assert not [e for e in events_of(waiting, "c") if e.kind == "draw.cancelled"]
    assert waiting.state("c")["draw"] == DAY.isoformat()


def test_a_player_cannot_make_the_bot_ask_the_sources(waiting: Legatus) -> None:
    """Attacker: player, posting GM rulings to make the bot call the lottery's sites again and again."""
    asked: list[dt.date] = []
    waiting.lottery_sources = lambda day: asked.append(day)  # type: ignore[assignment,func-returns-value]
    from bot.service.post_reading import PostRequest

    [reply] = waiting.post_many([PostRequest("philip", f"/lotto confirm {DAY.isoformat()} {typed(DRAWS[DAY])}",
                                             "c", is_gm=False)])
    assert not reply.changed and "is for the GM" in reply.render() and asked == []


def test_the_bots_writer_never_waits_on_the_sources(waiting: Legatus) -> None:
    """Attacker: outsider whose slow site (or a GM's ruling on a day it serves slowly) would hold every campaign's
    posts: the queue asks on a thread of its own, and the writer applies the post once the sources answered."""
    import threading

    from bot.lottery.asking import SourcesAsked, SourceWord
    from bot.service.post_queue import PostQueue

    threads: list[str] = []

    def ask(day: dt.date) -> SourcesAsked:
        threads.append(threading.current_thread().name)
        return SourcesAsked(day, (SourceWord("archive", "http://127.0.0.1:9/x", problem="cannot connect", reached=False),))

    waiting.lottery_sources = ask
    queue = PostQueue(waiting)
    try:
        reply = queue.submit("gm", f"/lotto confirm {DAY.isoformat()} {typed(DRAWS[DAY])}", "c").result(timeout=20)
    finally:
        queue.close()
    assert reply.changed, reply.render()
    assert threads == ["legatus-ask-sources"]
    assert "archive (http://127.0.0.1:9/x) could not be reached" in reply.render()
