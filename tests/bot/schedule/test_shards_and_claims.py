"""The scheduler with several processes on one database: a shard schedules only its guilds' campaigns, keeps its
jobs in a table of its own, and never sends a claim that another live process is still sending; once that process
is dead, the claim is taken over and sent once."""
from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.lottery.reconcile import Outcome, Status
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.campaigns import find_campaign
from bot.store.db import open_engine
from bot.store.draws import import_archive
from bot.store.posted import claim, find
from bot.store.schedule_tables import DONE, PLAYER_TURN, DeadlineRow
from bot.store.shards import Shard, shard_of
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)
from tests.conftest import PLAYERS
from tests.fixture_paths import LOTTO

HOLDER = Path(__file__).resolve().parents[1] / "store" / "lock_holder.py"
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
# Two guild ids on the two shards of 2 (a guild's shard is (id >> 22) % count).
GUILDS = {0: str(1_000 << 22), 1: str(1_001 << 22)}


async def stored(engine: object, day: date) -> Outcome:
    """The lottery fetch, without the network: every draw is there (historical campaigns need none anyway)."""
    return Outcome(day, Status.ALREADY_STORED, f"the draw of {day} is already stored")


@pytest.fixture(autouse=True)
def no_app() -> Iterator[None]:
    yield
    S.install(None)


def campaigns(db: str) -> tuple[Legatus, FixedClock]:
    """One historical campaign per shard, turn 1 open on 2023-01-03 (deadlines come once a scheduler runs)."""
    clock = FixedClock(T0)
    service = Legatus(open_engine(db), clock=clock)
    with Session(service.engine) as session:
        import_archive(session, (LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "test")
        session.commit()
    for shard, guild in GUILDS.items():
        assert shard_of(guild, 2) == shard
        assert service.create_campaign(f"war-{shard}", "mare-nostrum", "gm", dict(PLAYERS), "historical", guild,
                                       f"chan-{shard}").ok
    return service, clock


def campaign_id(service: Legatus, name: str) -> int:
    with Session(service.engine) as session:
        row = find_campaign(session, name)
        assert row is not None and row.id is not None
        return row.id


def deadline_of(service: Legatus, cid: int) -> DeadlineRow:
    with Session(service.engine) as session:
        rows = session.exec(select(DeadlineRow).where(DeadlineRow.campaign_id == cid,
                                                      DeadlineRow.kind == PLAYER_TURN)).all()
        assert len(rows) == 1
        return rows[0]


def test_a_shard_schedules_and_posts_only_for_its_guilds(db_url: str) -> None:
    async def scenario() -> None:
        service, clock = campaigns(db_url)
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=stored, run=False, shard=Shard(1, 2))
        for shard in GUILDS:
            assert service.post("gm", "/turn open 2023-01-03", f"war-{shard}", is_gm=True).ok
        # Shard 1's process reconciles at start-up: its campaigns only get deadline jobs.
        S.reconcile(S.current_app())
        ours, theirs = campaign_id(service, "war-1"), campaign_id(service, "war-0")
        jobs = {job.id for job in scheduler.get_jobs()}
        assert S.deadline_job_id(deadline_of(service, ours).id) in jobs
        assert "apscheduler_jobs_shard_1_of_2" in inspect(service.engine).get_table_names()
        await S.run_due(scheduler, T0 + timedelta(hours=49), clock)
        # The reminder (12 hours before), then the timeout: all for shard 1's campaign.
        assert [(s.campaign_id, s.text.split(" ")[1:3]) for s in poster.sent] == [
            (ours, ["your", "turn"]), (ours, ["is", "up"])]
        # The other shard's deadline is left to the other shard's process: still active, never claimed.
        assert deadline_of(service, theirs).state != DONE
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())


def timeout_claimed_elsewhere(service: Any, clock: Any) -> tuple[DeadlineRow, datetime, str]:
    """Turn 1 of war-0 opened, its first deadline due, and its timeout claimed (the deadline marked done) as the
    process that ran it would have: (the deadline, when it fell due, the claim's key)."""
    assert service.post("gm", "/turn open 2023-01-03", "war-0", is_gm=True).ok
    cid = campaign_id(service, "war-0")
    d = deadline_of(service, cid)
    due = T0 + timedelta(hours=49)
    clock.moment = due
    key = S._key(d, "timeout")
    with Session(service.engine) as session:
        row = session.get(DeadlineRow, d.id)
        assert row is not None
        row.state = DONE
        session.add(row)
        assert claim(session, key, cid, "deadline", at=due)
    return d, due, key


def test_a_claim_another_live_process_is_sending_is_not_sent_again_and_is_taken_over_once_it_died(db_url: str) -> None:
    async def scenario() -> None:
        service, clock = campaigns(db_url)
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=stored, run=False)
        # Another process ran the timeout: it claimed it (and marked the deadline done) and is sending it now.
        d, due, key = timeout_claimed_elsewhere(service, clock)
        holder = subprocess.Popen([sys.executable, str(HOLDER), db_url, S.work_lock(key)], stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            S.resume_unsent()  # what a start-up or a thread opening does with unsent claims
            ran = await S.run_due(scheduler, due, clock)
            assert S.deadline_job_id(d.id) in ran and poster.sent == [], "a live claim is not sent twice"
            retry = scheduler.get_job(S.deadline_job_id(d.id))
            assert retry is not None and retry.next_run_time == due + S.LOCKED_RETRY
        finally:
            holder.send_signal(signal.SIGKILL)
            holder.wait(timeout=30)
        # Dead: the retry takes the claim over and sends it, once (the lock may take moments to be let go on
        # PostgreSQL, hence a few rounds of retry).
        moment = due
        for _ in range(20):
            moment += S.LOCKED_RETRY
            await S.run_due(scheduler, moment, clock)
            if poster.sent:
                break
            await asyncio.sleep(0.5)
        assert [s.text.split(".")[0] for s in poster.sent] == ["Time is up for the Seleucids"]
        with Session(service.engine) as session:
            sent = find(session, key)
            assert sent is not None and sent.message_id is not None
        await S.run_due(scheduler, moment + timedelta(hours=1), clock)
        assert len(poster.sent) == 1
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())


def test_a_second_scheduler_of_a_shard_stands_by_while_the_first_lives(db_url: str) -> None:
    """The lease: while another process runs shard 0 of 2's scheduler, this one reconciles nothing and runs nothing;
    when that process dies, this one takes over."""
    async def scenario() -> None:
        service, clock = campaigns(db_url)
        holder = subprocess.Popen([sys.executable, str(HOLDER), db_url, S.lease_name(Shard(0, 2))],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=stored, run=True,
                                                shard=Shard(0, 2))
            app = S.current_app()
            assert app.standby is not None and scheduler.state == 2  # apscheduler's STATE_PAUSED
            assert scheduler.get_jobs() == []  # not reconciled: nothing scheduled by this process
        finally:
            holder.send_signal(signal.SIGKILL)
            holder.wait(timeout=30)
        await asyncio.wait_for(app.standby, 30)
        assert scheduler.state == 1  # STATE_RUNNING: taken over
        assert S.SWEEP_JOB in {j.id for j in scheduler.get_jobs()}
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())


def test_the_sweep_resumes_an_orphaned_claim_only_once_its_process_is_gone(db_url: str) -> None:
    """Every minute a running scheduler looks for claims nobody is sending (their process died after the job left
    the job table) and for active deadlines without a job; a claim whose lock a live process holds is left alone."""
    async def scenario() -> None:
        service, clock = campaigns(db_url)
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=stored, run=False)
        d, due, key = timeout_claimed_elsewhere(service, clock)
        job = S.deadline_job_id(d.id)
        scheduler.remove_job(job)  # the dead process's job left the table when it started to run
        holder = subprocess.Popen([sys.executable, str(HOLDER), db_url, S.work_lock(key)], stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            await S.sweep()
            assert scheduler.get_job(job) is None, "its claimer is alive: not ours to send"
        finally:
            holder.send_signal(signal.SIGKILL)
            holder.wait(timeout=30)
        for _ in range(40):  # PostgreSQL lets go of a dead session's locks within moments
            await S.sweep()
            if scheduler.get_job(job) is not None:
                break
            await asyncio.sleep(0.25)
        await S.run_due(scheduler, due, clock)
        assert [s.text.split(".")[0] for s in poster.sent] == ["Time is up for the Seleucids"]
        # And a deadline that lost its job gets one back.
        fresh = [x for x in deadlines_of(service, d.campaign_id) if x.state in ("pending", "reminded")]
        assert fresh and all(scheduler.get_job(S.deadline_job_id(x.id)) is not None for x in fresh)
        for x in fresh:
            scheduler.remove_job(S.deadline_job_id(x.id))
        await S.sweep()
        assert all(scheduler.get_job(S.deadline_job_id(x.id)) is not None for x in fresh)
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())


def deadlines_of(service: Legatus, cid: int) -> list[DeadlineRow]:
    with Session(service.engine) as session:
        return list(session.exec(select(DeadlineRow).where(DeadlineRow.campaign_id == cid)).all())
