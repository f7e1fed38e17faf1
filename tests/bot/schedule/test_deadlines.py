"""Deadlines: who gets one and when, times in the GM's zone and across DST, GM tools, idempotent jobs."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.service import deadlines as D
from bot.schedule.clock import FixedClock
from bot.store.db import open_engine
from bot.store.posted import PostedRow
from bot.store.schedule_tables import CANCELLED, DONE, PENDING, REMINDED, DeadlineRow, active_deadlines, save_settings
from bot.service.legatus import Legatus
from bot.store.campaigns import EventRow
from tests.bot.schedule.scheduler_drive import START, fake_fetch
from tests.conftest import PLAYERS

ROME = ZoneInfo("Europe/Rome")
UTC = timezone.utc


@pytest.fixture(autouse=True)
def no_app() -> Iterator[None]:
    yield
    S.install(None)


def live_service(path: Path, moment: datetime = START) -> tuple[Legatus, FixedClock]:
    clock = FixedClock(moment)
    service = Legatus(open_engine(path), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    return service, clock


def deadlines(service: Legatus) -> list[DeadlineRow]:
    with Session(service.engine) as session:
        return list(session.exec(select(DeadlineRow).order_by(DeadlineRow.id)).all())  # type: ignore[arg-type]


async def opened(service: Legatus, clock: FixedClock) -> tuple[S.RecordingPoster, object]:
    """A live campaign whose turn 1 is open and drawn (the lottery fetched at 20:15 Rome)."""
    poster = S.RecordingPoster()
    scheduler = await S.start_scheduler(service, poster, clock, fetch=fake_fetch, run=False)
    assert service.post("gm", "/turn open").ok
    await S.run_due(scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
    assert service.state()["to_play"] == "Gauls"
    return poster, scheduler


def test_discord_timestamps() -> None:
    moment = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    assert D.discord_time(moment) == "<t:1796151600:F>"
    assert D.discord_when(moment) == "<t:1796151600:R> (<t:1796151600:F>)"
    with pytest.raises(ValueError):
        D.discord_time(datetime(2026, 12, 1, 19, 0))


def test_gm_times_are_read_in_the_campaign_zone() -> None:
    assert D.local_to_utc("2026-12-01 20:00", "Europe/Rome") == datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    assert D.local_to_utc("2026-07-01 20:00", "Europe/Rome") == datetime(2026, 7, 1, 18, 0, tzinfo=UTC)
    assert D.local_to_utc("2026-12-01 20:00", "America/New_York") == datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    with pytest.raises(ValueError, match="does not exist"):
        D.local_to_utc("2026-03-29 02:30", "Europe/Rome")  # the spring-forward gap
    with pytest.raises(ValueError, match="YYYY-MM-DD HH:MM"):
        D.local_to_utc("next tuesday", "Europe/Rome")


def test_a_deadline_set_across_the_october_dst_change_keeps_its_wall_time(tmp_path: Path) -> None:
    # Set on Saturday 24 October 2026 (CEST, UTC+2) for Monday 26 October 20:00 (CET, UTC+1): the change
    # happens in between, on the 25th. The GM meant 20:00 on the wall: 19:00 UTC, not 18:00.
    service, clock = live_service(tmp_path / "c.db", datetime(2026, 10, 24, 10, 0, tzinfo=UTC))

    async def main() -> None:
        await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=fake_fetch, run=False)
        S.sync_deadlines(service, clock.now())  # the campaign is in setup: nobody to act, nothing made
        with Session(service.engine) as session:
            session.add(DeadlineRow(campaign_id=1, seat="Romans", turn=None,
                                    due_at=clock.now() + timedelta(hours=48), created_at=clock.now()))
            session.commit()
        message = D.set_deadline(service, "c", "Romans", "2026-10-26 20:00", "gm")
        assert "<t:1793041200:R>" in message

    asyncio.run(main())
    (row,) = deadlines(service)
    assert row.due_at == datetime(2026, 10, 26, 19, 0, tzinfo=UTC)
    assert row.due_at.astimezone(ROME).strftime("%H:%M %Z") == "20:00 CET"
    assert row.remind_at == datetime(2026, 10, 26, 7, 0, tzinfo=UTC)  # 12 real hours before


def test_player_hours_are_real_hours_across_dst() -> None:
    # Documented choice: "48 hours" is 48 elapsed hours; across the change the wall time moves by one hour.
    start = datetime(2026, 10, 24, 20, 0, tzinfo=ROME).astimezone(UTC)
    due = start + timedelta(hours=48)
    assert due.astimezone(ROME).strftime("%a %H:%M") == "Mon 19:00"


def test_the_nation_to_act_gets_a_deadline_and_the_previous_loses_its_own(tmp_path: Path) -> None:
    service, clock = live_service(tmp_path / "c.db")

    async def main() -> None:
        poster, _ = await opened(service, clock)
        (gauls,) = deadlines(service)
        assert (gauls.seat, gauls.turn, gauls.state) == ("Gauls", 1, PENDING)
        assert gauls.due_at == datetime(2026, 9, 3, 18, 15, tzinfo=UTC)
        assert gauls.remind_at == datetime(2026, 9, 3, 6, 15, tzinfo=UTC)
        assert poster.sent[0].ping == ["brennus"] and "Turn 1" in poster.sent[0].text
        clock.moment = datetime(2026, 9, 2, 9, 0, tzinfo=UTC)
        assert service.post("brennus", "pass").ok
        gauls, ptolemaics = deadlines(service)
        assert gauls.state == CANCELLED
        assert (ptolemaics.seat, ptolemaics.state) == ("Ptolemaics", PENDING)
        assert ptolemaics.due_at == clock.moment + timedelta(hours=48)
        line = f"Ptolemaics (ptolemy): until {D.discord_when(ptolemaics.due_at)}"
        status = service.post("ptolemy", "/status").render()
        assert f"    Deadlines:\n    {line}\n" in status + "\n", status
        # A post read over sqlite3 (`legatus post` with no bot running) words the same deadlines the same way.
        from bot.service.direct_post import DirectPoster, post_directly

        direct = post_directly(tmp_path / "c.db", "ptolemy", "/status", poster=DirectPoster(clock=clock))
        assert direct is not None and direct.render() == status

    asyncio.run(main())


def test_extend_moves_the_deadline_and_brings_a_new_reminder(tmp_path: Path) -> None:
    service, clock = live_service(tmp_path / "c.db")

    async def main() -> None:
        poster, scheduler = await opened(service, clock)
        await S.run_due(scheduler, datetime(2026, 9, 3, 7, 0, tzinfo=UTC), clock)
        assert [s.key for s in poster.sent][-1] == "deadline-1:remind:1788459300"
        assert deadlines(service)[0].state == REMINDED
        message = D.extend_deadline(service, "c", "Gauls", 24, "gm")
        assert message.startswith("gm extended the Gauls' turn by 24h: it now ends <t:1788545700:R>")
        (d,) = deadlines(service)
        assert (d.state, d.due_at) == (PENDING, datetime(2026, 9, 4, 18, 15, tzinfo=UTC))
        # The old due time passes without a timeout; the new reminder and then the timeout come.
        await S.run_due(scheduler, datetime(2026, 9, 4, 0, 0, tzinfo=UTC), clock)
        assert service.state()["to_play"] == "Gauls"
        await S.run_due(scheduler, datetime(2026, 9, 4, 19, 0, tzinfo=UTC), clock)
        assert [s.key for s in poster.sent][-3:] == [
            "deadline-1:remind:1788459300", "deadline-1:remind:1788545700", "deadline-1:timeout:1788545700",
        ]
        assert service.state()["to_play"] == "Ptolemaics"
        assert D.extend_deadline(service, "c", "Gauls", 5, "gm") == "the Gauls have no running deadline"

    asyncio.run(main())


def test_every_job_run_twice_posts_once(tmp_path: Path) -> None:
    service, clock = live_service(tmp_path / "c.db")

    async def main() -> None:
        poster, _ = await opened(service, clock)
        clock.moment = datetime(2026, 9, 3, 6, 15, tzinfo=UTC)
        await S.remind(1, 1)
        await S.remind(1, 1)
        clock.moment = datetime(2026, 9, 3, 18, 15, tzinfo=UTC)
        await S.act_on_deadline(1, 1)
        await S.act_on_deadline(1, 1)
        await S.fetch_lotto("2026-09-01")
        await S.fetch_lotto("2026-09-01")
        keys = [s.key for s in poster.sent]
        assert keys == ["lotto:2026-09-01:1", "deadline-1:remind:1788459300", "deadline-1:timeout:1788459300"]
        with Session(service.engine) as session:
            passes = session.exec(select(EventRow).where(EventRow.kind == "gm.pass")).all()
            posted = session.exec(select(PostedRow)).all()
        assert len(passes) == 1
        assert sorted(p.key for p in posted) == sorted(keys) and all(p.message_id for p in posted)
        assert deadlines(service)[0].state == DONE

    asyncio.run(main())


def test_wait_mode_tells_the_gm_and_passes_nobody(tmp_path: Path) -> None:
    service, clock = live_service(tmp_path / "c.db")
    save_settings(service.engine, 1, on_timeout="wait")

    async def main() -> None:
        poster, scheduler = await opened(service, clock)
        await S.run_due(scheduler, datetime(2026, 9, 3, 19, 0, tzinfo=UTC), clock)
        last = poster.sent[-1]
        assert last.text == "gm the Gauls' time is up: /gm pass Gauls or extend"
        assert last.ping == ["gm"]
        assert service.state()["to_play"] == "Gauls"

    asyncio.run(main())


def test_a_deadline_missed_while_down_is_acted_on_once_at_start_up(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    service, clock = live_service(db)

    async def first() -> None:
        await opened(service, clock)

    asyncio.run(first())
    # Down from the 2nd to the 5th: the reminder and the timeout of the Gauls both passed unseen.
    clock2 = FixedClock(datetime(2026, 9, 5, 9, 0, tzinfo=UTC))
    again = Legatus(open_engine(db), clock=clock2)

    async def restart() -> list[S.Sent]:
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(again, poster, clock2, fetch=fake_fetch, run=False)
        await S.run_due(scheduler, clock2.now(), clock2)
        await S.run_due(scheduler, clock2.now(), clock2)
        return poster.sent

    sent = asyncio.run(restart())
    # Too late to remind: acted on at once, once; the lotto fetches due meanwhile ran too.
    timeouts = [s for s in sent if s.key.startswith("deadline-1:")]
    assert [s.key for s in timeouts] == ["deadline-1:timeout:1788459300"]
    assert again.state()["to_play"] == "Ptolemaics"
    with Session(again.engine) as session:
        (pending,) = active_deadlines(session)
    assert pending.seat == "Ptolemaics" and pending.created_at == clock2.now()
