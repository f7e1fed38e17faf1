"""Recording drand beacons when their round comes, without waiting for somebody to post.

A game on drand binds a roll to a round a few seconds ahead, then waits for that beacon (``ruleset.needs``). The
service records a beacon when it folds a post; with nobody posting (a roll that needs no answer, a whole chain of
them), the game would stand still. So after every change that leaves the campaign waiting for drand rounds, a job is
set for the earliest round's time; it records whatever beacons are out (``Legatus.pump``), posts what that caused
to the campaign's turn, mentioning the players now to act, and tries again shortly if the relays are late.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, TypeVar

from sqlmodel import Session

from bot.store.schedule_tables import as_utc
from bot.service.asks import is_question, question_text
from bot.store.campaigns import CampaignRow
from engine.chance.sources import drand as drand_source

log = logging.getLogger("legatus.scheduler")
T = TypeVar("T")

# After a round's time: a beacon takes a moment to reach the relays. Late relays are asked again this often,
# up to ``RETRIES`` times, then the next post or change tries again.
AFTER_ROUND = timedelta(seconds=1)
RETRY = timedelta(seconds=5)
RETRIES = 60


def job_id(campaign_id: int) -> str:
    return f"beacons-{campaign_id}"


def waiting_rounds(ruleset: Any, state: Any) -> list[int]:
    return sorted(int(n.key) for n in ruleset.needs(state) if n.source == drand_source.NAME and n.key.isdigit())


def schedule_first(service: Any, scheduler: Any, clock: Any, campaign_id: int, rounds: list[int]) -> None:
    """The job at the earliest waiting round's time (a moment after it), or now if that time is past."""
    due = datetime.fromtimestamp(service._beacon_source().chain.time_of(rounds[0]), timezone.utc) + AFTER_ROUND
    schedule(scheduler, campaign_id, max(due, as_utc(clock.now())), 0)


class BeaconWatcher:
    """Observer of the service: a campaign left waiting for drand rounds gets a job at the earliest one's time."""

    def __init__(self, service: Any, clock: Any) -> None:
        self.service = service
        self.clock = clock
        self.scheduler: Any = None

    def __call__(self, change: Any) -> None:
        if change.ruleset is None:
            return
        rounds = waiting_rounds(change.ruleset, change.state)
        if rounds:
            schedule_first(self.service, self.scheduler, self.clock, change.campaign_id, rounds)


def resume_waiting(service: Any, scheduler: Any, clock: Any, names: list[str] | None = None) -> None:
    """At start-up: every campaign left waiting for a drand round (the bot was down when it came) gets its job;
    ``names``: only these (a shard's campaigns), else all."""
    for name in service.campaign_names() if names is None else names:
        try:
            ruleset, state = service.folded(name)
            rounds = waiting_rounds(ruleset, state)
            row = service.campaign_for_channel_name(name)
        except Exception:  # one campaign that cannot fold must not keep the others waiting
            log.exception("campaign %s: cannot tell whether it waits for drand rounds", name)
            continue
        if rounds and row is not None and row.id is not None:
            schedule_first(service, scheduler, clock, row.id, rounds)


def schedule(scheduler: Any, campaign_id: int, when: datetime, attempt: int) -> None:
    from bot.schedule.scheduler import _add

    _add(scheduler, job_id(campaign_id), pump_beacons, when, [campaign_id, attempt])


async def pump_beacons(campaign_id: int, attempt: int = 0) -> None:
    """The job: record the beacons that are out, post what they caused, try again if a round is still missing.
    Worked under the campaign's beacon lock across processes (two shards' standby and runner never both pump)."""
    from bot.schedule.scheduler import _exclusive, current_app

    app = current_app()
    job = job_id(campaign_id)
    try:
        async with _exclusive(app, job, (job, pump_beacons, [campaign_id, attempt])) as mine:
            if mine:
                await _pump(app, campaign_id, attempt)
    except asyncio.CancelledError:
        # A stop cut the job at its bound (relays that never answer kept it waiting): the beacons it recorded are in
        # the log, and the next start sets the job again for a campaign still waiting (``resume_waiting``). Said in
        # a line, not as the scheduler's traceback of a job that "raised" (issue 24: 3 of 3 consoles closed so).
        log.info("campaign %s: the drand beacons job was cut by the stop; the next start asks again", campaign_id)


async def _in_daemon_thread(func: Callable[..., T], *args: Any) -> T:
    """``asyncio.to_thread`` in a daemon thread: a fetch from relays that never answer (up to their timeout on
    every relay and attempt) must not hold the process's exit once a stop has cut the job waiting for it; the
    default executor's threads are all waited for when the loop ends. A write it was making is one transaction:
    the exit leaves it whole or undone."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not done.done():
            outcome()

    def work() -> None:
        try:
            result = func(*args)
        except BaseException as exc:  # handed to the awaiting job, which reports it like any failure
            error = exc
            tell(lambda: settle(lambda: done.set_exception(error)))
        else:
            tell(lambda: settle(lambda: done.set_result(result)))

    def tell(callback: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has ended: nobody waits for the answer any more
            loop.call_soon_threadsafe(callback)

    threading.Thread(target=work, name="legatus-beacons", daemon=True).start()
    return await done


async def _pump(app: Any, campaign_id: int, attempt: int) -> None:
    from bot.schedule.scheduler import _campaign_locked, _send, acting_of, claim, writer

    with Session(app.engine) as session:
        row = session.get(CampaignRow, campaign_id)
        if row is None or not app.owns(row):
            return
        name, gm = row.name, row.gm
    async with _campaign_locked(app, name):
        before = acting_of(app.service, name)
        messages = await _in_daemon_thread(app.service.pump, name)
        after = acting_of(app.service, name)
        ruleset, state = await asyncio.to_thread(app.service.folded, name)
    still = [n for n in ruleset.needs(state) if n.source == drand_source.NAME]
    if still and not messages:
        if attempt == 0:
            await _tell_unreachable(app, campaign_id, still[0].key)
        if attempt < RETRIES:
            schedule(app.scheduler, campaign_id, as_utc(app.clock.now()) + RETRY, attempt + 1)
        else:
            log.warning("campaign %s: drand round %s is still missing after %d tries", name, still[0].key, attempt)
        return
    if not messages:
        return
    now = as_utc(app.clock.now())
    key = f"beacons:{campaign_id}:{now.isoformat(timespec='microseconds')}"
    with Session(writer(app.engine)) as session:  # claims are written under the write lock (see bot/schedule/scheduler/)
        if not claim(session, key, campaign_id, "beacons", at=now):
            return
    ping = [p for n in after.seats if n not in before.seats and (p := after.players.get(n)) and p != gm]
    # A question that the rolls lead to is said with them (the transport adds its one-click answers).
    asked = [f"{player}: " + (question_text(p.seat, p.what, tuple(p.choices), p.on_timeout) if is_question(p.mode)
                               else f"it is your turn ({p.seat}: {p.what}).")
             for p in ruleset.prompts(state) if p.seat not in before.seats and (player := after.players.get(p.seat))]
    await _send(app, key, campaign_id, "\n".join([*messages, *asked]), ping)


def unreachable_text(relays: tuple[str, ...]) -> str:
    return (f"The drand round this campaign waits for is out, but no relay answered (tried: {', '.join(relays)}): the "
            f"roll waits, and Legatus asks again every {int(RETRY.total_seconds())} s. The operator can point "
            "LEGATUS_DRAND_RELAYS at relays this machine reaches; a campaign meant to be played offline is created "
            "with --randomness lottery (stored draws).")


async def _tell_unreachable(app: Any, campaign_id: int, key: str) -> None:
    """Say once per round, in the campaign's place, that its round is out and no relay gave it: players would
    otherwise wait on a roll with no word of why."""
    from bot.schedule.scheduler import _send, claim, writer

    source = getattr(app.service, "beacons", None)
    digits = str(key).removeprefix(drand_source.PREFIX)
    round_number = int(digits) if digits.isdigit() else None
    relays = getattr(source, "unreachable", {}).get(round_number) if round_number is not None else None
    if not relays:
        return  # not produced yet, or a relay answered late: the retries will tell
    now = as_utc(app.clock.now())
    told = f"beacons-unreachable:{campaign_id}:{round_number}"
    with Session(writer(app.engine)) as session:  # claims are written under the write lock (see bot/schedule/scheduler/)
        if not claim(session, told, campaign_id, "beacons", at=now):
            return
    await _send(app, told, campaign_id, unreachable_text(relays), [])
