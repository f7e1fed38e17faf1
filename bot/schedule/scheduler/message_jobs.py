"""The other jobs: a closed turn's results, notes to the GM, the lottery fetch and what each draw decided, the retry of
a turn's thread, and the resending of messages claimed and never sent."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session

from bot.service.deadlines import Acting, acting_of
from bot.lottery.fetch import next_fetch_time
from bot.lottery.reconcile import Outcome, Status
from bot.store.db import writer
from bot.store.posted import claim, find
from bot.store.schedule_tables import as_utc, unsent
from bot.store.campaigns import CampaignRow, list_campaigns, load_events
from bot.schedule.scheduler.app import (
    BOT, LOTTO_JOB, LOTTO_RETRIES, App, installed, current_app, _campaign_locked, LOCKED_RETRY, work_lock,
    _exclusive, _add, _send, _sent, open_since,
)
from bot.schedule.scheduler.deadline_jobs import deadline_job_id, remind, act_on_deadline

log = logging.getLogger("legatus.scheduler")


def schedule_next_fetch(now: datetime | None = None) -> datetime:
    """Schedule ``fetch_lotto`` for the next draw's publication; returns when."""
    app = current_app()
    now = as_utc(now or app.clock.now())
    when = next_fetch_time(now)
    day = when.astimezone(ZoneInfo("Europe/Rome")).date()
    _add(app.scheduler, LOTTO_JOB, fetch_lotto, when, [day.isoformat()])
    return when


def _resume_job(row: Any) -> tuple[str, Callable[..., Any], list[Any]] | None:
    """The job that sends a claimed, unsent message again (its id, function and arguments), if it has one."""
    if row.kind in ("reminder", "deadline") and row.key.startswith("deadline-"):
        deadline_id = int(row.key.split(":")[0].removeprefix("deadline-"))
        return deadline_job_id(deadline_id), remind if row.kind == "reminder" else act_on_deadline, [row.campaign_id, deadline_id]
    if row.kind == "lotto" and row.key.startswith("lotto:"):
        day = row.key.split(":")[1]
        return f"lotto-resume-{day}", fetch_lotto, [day]
    if row.kind == "results":
        turn = _turn_of(row.key)
        return f"results-{row.campaign_id}-{turn}", post_results, [row.campaign_id, turn]
    return None


def resume_unsent(campaign_id: int | None = None, when: datetime | None = None) -> None:
    """Schedule every claimed, unsent message (of one campaign) to be sent again at ``when`` (default: now)."""
    app = installed()
    if app is None or app.scheduler is None:
        return
    when = when or as_utc(app.clock.now())
    busy = app.locks.held()  # claims this process is sending right now are not to be sent again
    with Session(app.engine) as session:
        jobs = [_resume_job(r) for r in unsent(session, campaign_id) if work_lock(r.key) not in busy]
    # Added with the session closed: the job store writes through its own connection.
    for job in jobs:
        if job is not None:
            _add(app.scheduler, job[0], job[1], when, job[2])


def schedule_turn_thread(campaign_id: int, turn: int, after: timedelta) -> None:
    """Try again to open a turn's thread (one job per turn: scheduling it twice keeps one)."""
    app = installed()
    if app is not None:
        when = as_utc(app.clock.now()) + after
        _add(app.scheduler, f"turn-thread-{campaign_id}-{turn}", open_turn_thread, when, [campaign_id, turn])


async def open_turn_thread(campaign_id: int, turn: int) -> None:
    """The job behind ``schedule_turn_thread``: idempotent, the poster opens the thread only if it has none."""
    opener = getattr(current_app().poster, "open_turn", None)
    if opener is not None:
        await opener(campaign_id)


def results_files(service: Any, campaign: str, turn: int) -> tuple[str, list[tuple[str, bytes]]]:
    """The text and pictures posted with a closed turn's results: the map as it stood, and the provinces chart."""
    from bot.render.history import folded_at_turn
    from bot.render.pictures import pictures

    ruleset, state = folded_at_turn(service, campaign, turn)
    return f"{ruleset.summary(state).turn_label}: the map and the provinces so far.", pictures(ruleset, state)


def _turn_of(key: str) -> int:
    return int(key.split(":turn-")[1].split(":")[0])


async def post_results(campaign_id: int, turn: int) -> None:
    app = current_app()
    key = f"campaign-{campaign_id}:turn-{turn}:results"
    async with _exclusive(app, work_lock(key), (f"results-{campaign_id}-{turn}", post_results, [campaign_id, turn])) as mine:
        if mine:
            await _post_results(app, campaign_id, turn, key)


async def _post_results(app: App, campaign_id: int, turn: int, key: str) -> None:
    now = as_utc(app.clock.now())

    def claimed() -> tuple[str, datetime | None] | None:
        # Claims are written under the write lock taken at BEGIN (``writer``): on SQLite a read transaction that
        # turns into a write fails at once when another process wrote in between.
        with Session(writer(app.engine)) as session:
            sent = _sent(session, key)
            since = open_since(session, key)
            if sent or (sent is None and not claim(session, key, campaign_id, "results", at=now)):
                return None
            campaign = session.get(CampaignRow, campaign_id)
            return (campaign.name, since) if campaign else None

    found = await asyncio.to_thread(claimed)
    if found is None:
        return
    name, since = found
    text, files = await asyncio.to_thread(results_files, app.service, name, turn)
    await _send(app, key, campaign_id, text, [], files, turn=turn, since=since)


def _repaired_text(fixes: list[str]) -> str:
    return ("GM: Legatus repaired stored values it could not use at start-up: " + "; ".join(fixes)
            + ". Check them with /campaign settings and /turn status.")


async def tell_gm(campaign_id: int, text: str) -> None:
    """A note to the campaign's GM (values repaired at start-up), posted once per text."""
    import hashlib

    app = current_app()
    key = f"campaign-{campaign_id}:repaired:{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    async with _exclusive(app, work_lock(key), (f"repaired-{campaign_id}", tell_gm, [campaign_id, text])) as mine:
        if mine:
            await _tell_gm(app, campaign_id, text, key)


async def _tell_gm(app: App, campaign_id: int, text: str, key: str) -> None:
    def claimed() -> str | None:
        with Session(writer(app.engine)) as session:
            campaign = session.get(CampaignRow, campaign_id)
            if campaign is None or _sent(session, key) or not claim(session, key, campaign_id, "notice",
                                                                    at=as_utc(app.clock.now())):
                return None
            return campaign.gm

    gm = await asyncio.to_thread(claimed)
    if gm is not None:
        await _send(app, key, campaign_id, text, [gm])


def _draw_messages_since(app: App, campaign_id: int, since: datetime) -> list[str]:
    """What ``pump`` said for the draws the bot recorded since ``since``, rebuilt by replaying the log."""
    from engine.log import replay, step
    from engine.rulesets import load_ruleset

    floor = as_utc(since).isoformat(timespec="seconds")
    with Session(app.engine) as session:
        campaign = session.get(CampaignRow, campaign_id)
        assert campaign is not None
        events = load_events(session, campaign_id)
    ours = [i for i, e in enumerate(events) if e.kind == "draw.recorded" and e.actor == BOT and e.at >= floor]
    if not ours:
        return []
    ruleset = load_ruleset(campaign.ruleset, app.service.data_dir)
    folded = replay(ruleset, events[:ours[0]])
    messages: list[str] = []
    for i, event in enumerate(events[ours[0]:], start=ours[0]):
        folded, new = step(ruleset, folded, event)
        if i in ours:
            messages += [f"Lottery draw of {event.data.get('date')} recorded.", *new]
    from bot.service.post_reading import head_line

    return messages + [head_line(folded)]


async def fetch_lotto(day_iso: str, attempt: int = 0) -> None:
    app = current_app()
    now = as_utc(app.clock.now())
    day = date.fromisoformat(day_iso)
    outcome = await _fetch_once(app, day)
    if outcome.status is Status.WAITING and attempt < len(LOTTO_RETRIES):
        _add(app.scheduler, f"lotto-retry-{day_iso}", fetch_lotto, now + timedelta(minutes=LOTTO_RETRIES[attempt]),
             [day_iso, attempt + 1])
        return
    def own() -> list[tuple[int | None, str, str]]:
        with Session(app.engine) as session:
            # Each shard tells its own campaigns (their channels are in its guilds).
            return [(c.id, c.name, c.gm) for c in list_campaigns(session) if app.owns(c)]

    campaigns = await asyncio.to_thread(own)
    busy = False
    for campaign_id, name, gm in campaigns:
        assert campaign_id is not None
        key = f"lotto:{day_iso}:{campaign_id}"
        async with _exclusive(app, work_lock(key)) as mine:
            if not mine:
                busy = True  # another process is telling this campaign; looked at again below
                continue
            await _tell_draw(app, key, campaign_id, name, gm, outcome, now)
    if busy:
        _add(app.scheduler, f"lotto-resume-{day_iso}", fetch_lotto, now + LOCKED_RETRY, [day_iso])
    if app.scheduler is not None and app.scheduler.get_job(LOTTO_JOB) is None:
        schedule_next_fetch(now)


async def _fetch_once(app: App, day: date) -> Outcome:
    """Fetch the draw, one process at a time: a process that waited finds it stored and asks no source again."""
    from bot.lottery.reconcile import reconcile as reconcile_draw
    from bot.store.draws import get_draw
    from engine.lotto import missing_wheels

    name = f"lotto-fetch:{day.isoformat()}"
    while not await asyncio.to_thread(app.locks.try_acquire, name):
        await asyncio.sleep(1)  # another process is fetching it: a few seconds of HTTP at most
    def stored_whole() -> Outcome | None:
        with Session(app.engine) as session:
            stored = get_draw(session, day)
            if stored is not None and not missing_wheels(stored):
                known = reconcile_draw(session, day)
                if known.stored:
                    return known
        return None

    try:
        if not app.shard.whole:
            known = await asyncio.to_thread(stored_whole)
            if known is not None:
                return known
        return await app.fetch(app.engine, day)
    finally:
        await asyncio.to_thread(app.locks.release, name)


async def _tell_draw(app: App, key: str, campaign_id: int, name: str, gm: str, outcome: Outcome,
                     now: datetime) -> None:
    """Record the fetched draw in one campaign (``pump``) and post what it decided, under the claim ``key``."""

    def claimed() -> tuple[bool, datetime] | None:
        """(resumed, since when) once claimed; None: done, or another process claimed it first and tells it."""
        with Session(writer(app.engine)) as session:
            sent = _sent(session, key)
            if sent:
                return None
            if sent is None:
                return (False, now) if claim(session, key, campaign_id, "lotto", at=now) else None
            row = find(session, key)
            assert row is not None
            return True, row.posted_at

    resumed = await asyncio.to_thread(claimed)
    if resumed is None:
        return
    async with _campaign_locked(app, name):
        before = await asyncio.to_thread(acting_of, app.service, name)
        messages = await asyncio.to_thread(app.service.pump, name)
        after = await asyncio.to_thread(acting_of, app.service, name)
        if resumed[0]:
            # Resumed: an earlier run may have pumped and died before posting; its messages are in the log.
            messages = await asyncio.to_thread(_draw_messages_since, app, campaign_id, resumed[1])
            before = Acting(None, (), {}) if messages else after
    alert = outcome.alert or outcome.status is Status.WAITING
    lines = (outcome.lines() if alert else []) + list(messages)
    ping = [gm] if alert else []
    ping += [p for n in after.seats if n not in before.seats and (p := after.players.get(n))]
    await _send(app, key, campaign_id, "\n".join(lines) if lines else None, ping,
                since=resumed[1] if resumed[0] else None)
