"""A live campaign played by scripted players, a GM and the scheduler's jobs on a FixedClock: the crash test's subject.

    python tests/bot/scheduler_drive.py DB POSTS_FILE

Everything it does next is derived from the database (who is to act, since when, which jobs are due), so
a run killed anywhere and started again carries on where it was. The clock is the one thing kept outside:
the time being played is written to ``DB.clock`` before anything happens at that time, so a restart
replays that moment. ``LEGATUS_KILL=what:N`` kills the process with SIGKILL at the Nth ``what`` of this
run: ``append`` (events appended, before their commit), ``commit`` (a post committed, before the
observers), ``claimed``/``sent``/``recorded`` (around a scheduler post).
"""
from __future__ import annotations

from collections.abc import Sequence

import asyncio
import json
import os
import signal
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

from sqlmodel import Session  # noqa: E402

from bot.schedule import scheduler as S  # noqa: E402
from bot.service import legatus as service_module  # noqa: E402
from bot.schedule.clock import FixedClock  # noqa: E402
from bot.store.db import open_engine  # noqa: E402
from bot.store.draws import import_archive  # noqa: E402
from bot.lottery.reconcile import Outcome, Status  # noqa: E402
from bot.store.schedule_tables import PLAYER_TURN, active_deadlines, save_settings  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from bot.store.campaigns import find_campaign  # noqa: E402
from tests.fixture_paths import LOTTO  # noqa: E402

START = datetime(2026, 9, 1, 6, 0, tzinfo=timezone.utc)
END = datetime(2026, 9, 16, 0, 0, tzinfo=timezone.utc)
PLAYERS = {
    "Carthaginians": "hanno", "Gauls": "brennus", "Macedonians": "philip",
    "Ptolemaics": "ptolemy", "Romans": "scipio", "Seleucids": "antiochus",
}
# Hours after their turn comes before each nation plays; None: never (the timeout passes them).
# 40 is after the reminder (48 - 12), so those players are reminded first.
DELAY: dict[str, int | None] = {
    "Carthaginians": 3, "Gauls": None, "Macedonians": 40, "Ptolemaics": 7, "Romans": 1, "Seleucids": None,
}

_counts: Counter[str] = Counter()
_kill = os.environ.get("LEGATUS_KILL", "")


def maybe_die(what: str) -> None:
    _counts[what] += 1
    if _kill and _kill == f"{what}:{_counts[what]}":
        os.kill(os.getpid(), signal.SIGKILL)


class FilePoster(S.RecordingPoster):
    """Appends every post to a JSON-lines file, synced, so a killed run's posts survive it."""

    def __init__(self, path: Path) -> None:
        super().__init__(honour_keys=os.environ.get("LEGATUS_HONOUR_KEYS", "1") == "1")
        self.path = path
        if path.exists():
            self.sent = [self._load(line) for line in path.read_text(encoding="utf-8").splitlines()]

    @staticmethod
    def _load(line: str) -> S.Sent:
        raw = json.loads(line)
        return S.Sent(raw["campaign_id"], raw["text"], raw["ping"], raw["key"], [(name, b"") for name in raw.get("files", [])])

    async def post(self, campaign_id: int, text: str, *, ping: list[str] = [], key: str,  # noqa: B006
                   files: Sequence[tuple[str, bytes]] = (), turn: int | None = None,
                   since: datetime | None = None) -> str | None:
        before = len(self.sent)
        result = await super().post(campaign_id, text, ping=ping, key=key, files=files, turn=turn, since=since)
        if len(self.sent) > before:
            sent = self.sent[-1]
            with self.path.open("a", encoding="utf-8") as out:
                record = {"campaign_id": sent.campaign_id, "text": sent.text, "ping": sent.ping, "key": sent.key,
                          "files": [name for name, _ in sent.files]}
                out.write(json.dumps(record) + "\n")
                out.flush()
                os.fsync(out.fileno())
        return result


def archive_lines() -> list[str]:
    return [line for line in (LOTTO / "draws-2026-09.txt").read_text(encoding="utf-8").splitlines() if line[:1].isdigit()]


async def fake_fetch(engine: Any, day: date) -> Outcome:
    tag = day.strftime("%Y/%m/%d")
    mine = [line for line in archive_lines() if line.startswith(tag)]
    if not mine:
        return Outcome(day, Status.WAITING, f"the draw of {day} is not published yet")
    with Session(engine) as session:
        import_archive(session, "\n".join(mine) + "\n", "fake")
    return Outcome(day, Status.STORED, f"the draw of {day} is stored")


def read_clock(path: Path) -> datetime | None:
    return datetime.fromisoformat(path.read_text()) if path.exists() else None


def write_clock(path: Path, moment: datetime) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(moment.isoformat())
    os.replace(tmp, path)


def player_due(service: Legatus) -> list[tuple[datetime, str]]:
    """When each nation now to act will post its orders (by its DELAY from the start of its deadline)."""
    out = []
    with Session(service.engine) as session:
        row = find_campaign(session, "c")
        assert row is not None and row.id is not None
        for d in active_deadlines(session, row.id):
            delay = DELAY.get(d.seat or "")
            if d.kind == PLAYER_TURN and delay is not None:
                out.append((d.created_at + timedelta(hours=delay), d.seat or ""))
    return out


async def main(db: Path, posts: Path) -> None:
    clock_file = db.with_suffix(".clock")
    moment = read_clock(clock_file) or START
    clock = FixedClock(moment)
    service = Legatus(open_engine(db), clock=clock)
    original_append = service_module.append_event

    def counting_append(*args: Any, **kwargs: Any) -> None:
        original_append(*args, **kwargs)
        maybe_die("append")

    service_module.append_event = counting_append  # type: ignore[assignment]
    original_insert = service_module.insert_rows

    def counting_insert(session: Any, events: list[Any], posts: list[Any]) -> None:
        # Posts write their events in one statement per transaction: a kill after it is one before the commit.
        original_insert(session, events, posts)
        if events:
            maybe_die("append")

    service_module.insert_rows = counting_insert  # type: ignore[assignment]
    S.crash_hook = maybe_die
    if not service.campaign_names():
        write_clock(clock_file, START)
        service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    with Session(service.engine) as session:
        campaign = find_campaign(session, "c")
        assert campaign is not None and campaign.id is not None
    scheduler = await S.start_scheduler(service, FilePoster(posts), clock, fetch=fake_fetch, run=False)
    save_settings(service.engine, campaign.id, player_hours=48, remind_hours_before=12, on_timeout="pass")
    service.observers.insert(0, lambda change: maybe_die("commit"))
    while clock.now() < END:
        now = clock.now()
        await S.run_due(scheduler, now, clock)
        phase = service.state("c")["phase"]
        if phase in ("setup", "closed"):
            service.post("gm", "/turn open", "c")
        elif phase == "battles":
            service.post("gm", "/turn close", "c")
        for when, nation in player_due(service):
            if when <= now:
                service.post(PLAYERS[nation], "pass", "c")
        times = [j.next_run_time for j in scheduler.get_jobs() if j.next_run_time is not None]
        times += [when for when, _ in player_due(service)]
        later = [t for t in times if t > now]
        if service.state("c")["phase"] in ("setup", "closed", "battles"):
            continue  # the GM acts again at once
        nxt = min(later) if later else END
        write_clock(clock_file, nxt)
        clock.moment = nxt
    scheduler.shutdown(wait=False)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
