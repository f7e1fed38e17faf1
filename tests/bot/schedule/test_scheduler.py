"""The scheduler over whole turns: the persistent job store, a restart in the middle, and SIGKILL anywhere."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.service import legatus as service_module
from bot.schedule.clock import FixedClock
from bot.schedule.signed_job_store import SignedJobStore
from bot.store.db import open_engine
from bot.store.posted import PostedRow
from bot.store.schedule_tables import DeadlineRow
from bot.service.legatus import Legatus
from tests.bot.schedule import scheduler_drive as drive
from tests.bot.schedule.drive_forks import Forks

UTC = timezone.utc
DRIVE = Path(drive.__file__)


@pytest.fixture(autouse=True)
def restore(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # The driver patches these for its kill points; keep them from leaking into other tests.
    monkeypatch.setattr(service_module, "append_event", service_module.append_event)
    monkeypatch.setattr(S, "crash_hook", None)
    yield
    S.install(None)


def test_jobs_pickle_through_the_sqlalchemy_job_store_and_deadlines_are_rebuilt_from_their_table(tmp_path: Path) -> None:
    clock = FixedClock(drive.START)
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(drive.PLAYERS), clock="live")
    kept: dict[str, Any] = {}

    async def main() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=drive.fake_fetch, run=False)
        service.post("gm", "/turn open", "c")
        await S.run_due(scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)
        kept.update({job.id: job for job in scheduler.get_jobs(jobstore=S.MEMORY)})
        scheduler.shutdown(wait=False)
        S.install(None)
        # A new process: its memory is empty, and reconcile schedules the deadline again from its row.
        again = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=drive.fake_fetch, run=False)
        kept.update({f"again:{job.id}": job for job in again.get_jobs(jobstore=S.MEMORY)})
        again.shutdown(wait=False)

    asyncio.run(main())
    # A store opened afresh (another process) reads the persistent jobs back: module-level functions, ids only.
    store = SignedJobStore(url=str(service.engine.url))  # the bot's rows are signed: bot/schedule/signed_job_store.py
    store.start(None, "default")  # type: ignore[arg-type]
    jobs = {job.id: job for job in store.get_all_jobs()}
    assert set(jobs) == {"lotto-next"}  # a deadline's job is not written to the table: its row is the truth
    assert jobs["lotto-next"].func is S.fetch_lotto and jobs["lotto-next"].args == ("2026-09-03",)
    assert jobs["lotto-next"].misfire_grace_time is None and jobs["lotto-next"].coalesce is True
    assert set(kept) == {"deadline-1", "again:deadline-1"}
    for job in kept.values():
        assert job.func is S.remind and job.args == (1, 1)
        assert job.next_run_time == datetime(2026, 9, 3, 6, 15, tzinfo=UTC)
        assert job.misfire_grace_time is None and job.coalesce is True


def test_a_deadline_job_left_in_the_table_by_an_older_legatus_moves_to_memory(tmp_path: Path) -> None:
    clock = FixedClock(drive.START)
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(drive.PLAYERS), clock="live")
    found: list[tuple[str, str | None]] = []

    async def older() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=drive.fake_fetch, run=False)
        service.post("gm", "/turn open", "c")
        await S.run_due(scheduler, datetime(2026, 9, 1, 18, 15, tzinfo=UTC), clock)  # the draw: deadline 1 is made
        scheduler.remove_job("deadline-1", jobstore=S.MEMORY)
        # Where an older Legatus kept it.
        scheduler.add_job(S.remind, trigger="date", run_date=datetime(2026, 9, 3, 6, 15, tzinfo=UTC), args=[1, 1],
                          id="deadline-1", jobstore="default", **S.JOB_DEFAULTS)
        assert [(j.id, j._jobstore_alias) for j in scheduler.get_jobs() if j.id.startswith("deadline-")] == [
            ("deadline-1", "default")]
        scheduler.shutdown(wait=False)
        S.install(None)

    async def main() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=drive.fake_fetch, run=False)
        found.extend((job.id, job._jobstore_alias) for job in scheduler.get_jobs() if job.id.startswith("deadline-"))
        scheduler.shutdown(wait=False)

    asyncio.run(older())
    asyncio.run(main())
    assert found == [("deadline-1", S.MEMORY)]  # once, in memory: not a second copy from the table


def run_drive(tmp_path: Path, until: datetime | None = None) -> None:
    if until is not None:
        drive.END = until
    asyncio.run(drive.main(tmp_path / "c.db", tmp_path / "posts.jsonl"))


def posts(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_turns_of_deadlines_reminders_and_draws_with_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drive, "END", drive.END)
    run_drive(tmp_path, datetime(2026, 9, 6, 12, 0, tzinfo=UTC))
    # Restart: a new service, scheduler and job store on the same file, reconciled, and played on.
    run_drive(tmp_path, datetime(2026, 9, 16, 0, 0, tzinfo=UTC))
    sent = posts(tmp_path / "posts.jsonl")
    assert [p["key"] for p in sent] == [
        "lotto:2026-09-01:1",
        "deadline-1:remind:1788459300", "deadline-1:timeout:1788459300",  # Gauls never play
        "deadline-4:remind:1788668100",  # Macedonians play 40h in: after their reminder
        "deadline-6:remind:1788815700", "deadline-6:timeout:1788815700",  # Seleucids never play
        "campaign-1:turn-1:results",  # the map and chart of the closed turn
        "lotto:2026-09-08:1",
        "deadline-7:remind:1789064100", "deadline-7:timeout:1789064100",
        "deadline-8:remind:1789236900", "deadline-8:timeout:1789236900",
        "deadline-11:remind:1789445700",
        "campaign-1:turn-2:results",
        "lotto:2026-09-15:1",
    ]
    assert "Turn 2, 280 BC: draw of 2026-09-08" in str(sent[7]["text"])
    assert sent[6]["files"] == ["map-turn-1.png", "provinces-turn-1.png"]
    assert sent[1]["text"] == "brennus your turn ends <t:1788459300:R> (<t:1788459300:F>)" and sent[1]["ping"] == ["brennus"]
    assert str(sent[2]["text"]).startswith("Time is up for the Gauls.\n✓ line 1 “/gm pass Gauls timeout”")
    assert sent[2]["ping"] == ["ptolemy"]
    engine = open_engine(tmp_path / "c.db")
    with Session(engine) as session:
        rows = {p.key: p for p in session.exec(select(PostedRow)).all()}
        deadlines = {d.id: d for d in session.exec(select(DeadlineRow)).all()}
    # Every claim is closed; those with nothing to say (a draw no campaign waited for) sent nothing.
    assert all(r.message_id is not None for r in rows.values())
    assert {k for k, r in rows.items() if r.message_id} == {p["key"] for p in sent}
    # Every post went out at its time: reminders 36h and timeouts 48h after the turn came (the draw at 20:15 Rome).
    for key, row in rows.items():
        if not row.message_id:
            continue
        if key.endswith(":results"):
            continue  # posted as soon as the turn closed
        if key.startswith("deadline-"):
            d = deadlines[int(key.split(":")[0].split("-")[1])]
            expected = d.due_at - timedelta(hours=12) if ":remind:" in key else d.due_at
            assert row.posted_at == expected == d.created_at + timedelta(hours=36 if ":remind:" in key else 48), key
        else:
            assert row.posted_at.astimezone(drive.START.tzinfo).strftime("%H:%M") == "18:15"


# Kill points for one chain of runs: each run dies at its point (counted within that run), the next resumes.
KILLS = ["append:1", "commit:1", "claimed:1", "sent:1", "recorded:1"] * 3 + ["append:2", "commit:2", "sent:2", "claimed:2"]


def drive_process(db: Path, out: Path, kill: str | None) -> int:
    env = {**os.environ, "LEGATUS_KILL": kill or ""}
    result = subprocess.run([sys.executable, str(DRIVE), str(db), str(out)], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, -signal.SIGKILL), result.stderr[-3000:]
    return result.returncode


def outcome(db: Path, out: Path) -> tuple[dict[str, object], list[tuple[str, str]], list[str]]:
    service = Legatus(open_engine(db))
    with Session(service.engine) as session:
        keys = sorted(p.key for p in session.exec(select(PostedRow)).all() if p.message_id)
    events = [(e["kind"], json.dumps(e["data"], sort_keys=True)) for e in map(json.loads, service.export().splitlines())]
    return service.state("c"), events, keys


def test_killed_anywhere_and_restarted_it_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    reference.mkdir()
    assert drive_process(reference / "c.db", reference / "posts.jsonl", None) == 0
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    killed = 0
    # The runs to kill are forked from a process that imported the drive once (drive_forks.py): each still dies
    # by SIGKILL as a process of its own, without the ~0.7 s of imports a fresh interpreter spends.
    forks = Forks()
    try:
        def forked(kill: str | None) -> int:
            code, errors = forks.run(crashed / "c.db", crashed / "posts.jsonl", kill)
            assert code in (0, -signal.SIGKILL), errors
            return code

        for kill in KILLS:
            if forked(kill) == -signal.SIGKILL:
                killed += 1
        while forked(None) != 0:
            pass
    finally:
        forks.close()
    assert killed >= len(KILLS) - 2, "most kill points must be reached, or the test proves little"
    state, events, keys = outcome(crashed / "c.db", crashed / "posts.jsonl")
    ref_state, ref_events, ref_keys = outcome(reference / "c.db", reference / "posts.jsonl")
    assert state == ref_state
    assert events == ref_events
    assert keys == ref_keys
    sent, ref_sent = posts(crashed / "posts.jsonl"), posts(reference / "posts.jsonl")
    # None missing, none doubled, in the same order, to the same people.
    assert [(p["key"], p["ping"]) for p in sent] == [(p["key"], p["ping"]) for p in ref_sent]
    for mine, theirs in zip(sent, ref_sent):
        # A timeout whose pass was committed before a kill is announced without the original reply, under the
        # same first line, by which a restart finds the message the killed run may have sent (bot/discord/poster.py).
        if mine["text"] != theirs["text"]:
            assert str(mine["text"]).endswith("\nThe GM passed them (timeout)."), (mine, theirs)
            assert str(mine["text"]).split("\n")[0] == str(theirs["text"]).split("\n")[0], (mine, theirs)


def test_jobs_added_together_from_another_thread_wake_the_scheduler_once_and_all_run(tmp_path: Path) -> None:
    service = Legatus(open_engine(tmp_path / "c.db"))
    ran: list[int] = []
    wakes: list[int] = []

    async def main() -> None:
        scheduler = S.make_scheduler(service.engine)
        process = scheduler._process_jobs

        def counted() -> float | None:
            wakes.append(1)
            return process()

        scheduler._process_jobs = counted  # type: ignore[method-assign]
        scheduler.start()
        done = asyncio.Event()
        loop = asyncio.get_running_loop()

        async def job(k: int) -> None:
            ran.append(k)
            if len(ran) == 200:
                loop.call_soon(done.set)

        def add_many() -> None:  # as the writer thread adds a burst's deadline jobs
            when = datetime.now(UTC) + timedelta(milliseconds=200)
            for k in range(200):
                scheduler.add_job(job, trigger="date", run_date=when, args=[k], id=f"deadline-{k}", jobstore=S.MEMORY)

        before = len(wakes)
        await asyncio.to_thread(add_many)
        await asyncio.wait_for(done.wait(), 30)
        scheduler.shutdown(wait=False)
        assert len(wakes) - before < 20, len(wakes) - before  # 200 wake-ups before

    asyncio.run(main())
    assert sorted(ran) == list(range(200))
