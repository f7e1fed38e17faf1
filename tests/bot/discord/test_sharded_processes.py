"""Issue 13, "When one machine is not enough": two `legatus run` processes, shard 0 and shard 1 of 2, on one database.

Each process identifies to the (strict) fake Discord as its shard and is sent only its guilds' events; each answers
its guilds' campaigns and its scheduler acts only for them; every job that is due runs once, never on both. A
second process of the same shard stands by and takes the shard's jobs over when the first dies, the work it left
half done included. On SQLite and on PostgreSQL (.ci/run's throwaway server), each a database of its own.
"""
from __future__ import annotations

import asyncio
import re
import signal
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from bot.devdiscord import FakeDiscord
from bot.schedule.scheduler import _key
from bot.store.posted import claim
from bot.store.schedule_tables import ACTIVE, DONE, DeadlineRow
from bot.store.shards import shard_of
from tests.bot.discord.sharded_world import (
    CAMPAIGNS_PER_GUILD, SHARDS, BotProcess, bot_messages, build_world, seed_campaigns, start_bot,
)
from tests.bot.store.databases import db_url  # noqa: F401  (the fixture: a SQLite file, and PostgreSQL when set)

TIMEOUT = "Time is up for the"
RESULTS = "the map and the provinces so far"
# Processes start on a machine shared with other work: generous waits, which a passing run never sits out.
START_WAIT = 120.0
# After the last expected message, how long a duplicate would have to show up (jobs run at once when due).
SETTLE = 3.0


def _run(scenario: object) -> None:
    asyncio.run(asyncio.wait_for(scenario, 300))  # type: ignore[arg-type]


def _posted_by(log: str) -> Counter[int]:
    """Campaign id -> how many timeouts this process's log says it posted for it."""
    return Counter(int(m) for m in re.findall(r"campaign (\d+): deadline-\d+:timeout:\d+ posted by", log))


def answering(post: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """The bot's answer to ``post``: its reply (not a status board or a ping that happens to come next)."""
    return lambda m: (m.get("message_reference") or {}).get("message_id") == post["id"]


def _guild_of(payload: dict[str, object]) -> str | None:
    data = payload.get("d")
    if not isinstance(data, dict):
        return None
    if payload.get("t") == "GUILD_CREATE":
        return str(data.get("id"))
    guild = data.get("guild_id")
    return None if guild is None else str(guild)


def test_two_shards_answer_and_schedule_each_their_own_guilds_once(db_url: str, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            guilds = build_world(fake)
            seed_campaigns(db_url, fake, guilds, datetime.now(timezone.utc))
            bots = [await start_bot(fake, db_url, tmp_path, f"shard-{k}", k, SHARDS) for k in range(SHARDS)]
            try:
                await fake.wait_until(
                    lambda: {s.shard for s in fake.server.sessions.values() if s.ready} == {(0, 2), (1, 2)},
                    START_WAIT, "both shards to IDENTIFY")

                def timeouts() -> dict[int, list[tuple[str, str]]]:
                    return {k: bot_messages(fake, g.guild.id, TIMEOUT) for k, g in guilds.items()}

                await fake.wait_until(lambda: all(len(found) >= CAMPAIGNS_PER_GUILD for found in timeouts().values()),
                                      START_WAIT, "every campaign's overdue deadline to be acted on")
                await fake.wait_until(lambda: all(bot_messages(fake, g.guild.id, RESULTS) for g in guilds.values()),
                                      START_WAIT, "each closed turn's results")
                # Each shard answers a player in its guild (Discord sends the post to that shard only).
                said = {}
                for k, place in guilds.items():
                    said[k] = await fake.user_says(place.channels[0].id, "alice", "build temple in Latium")
                    answer = await fake.wait_for_message(place.channels[0].id, answering(said[k]), timeout=60)
                    assert "Latium" in answer["content"], answer["content"]
                for k, place in guilds.items():  # each log says so once its posts returned (standby test: why)
                    mine = set(place.campaigns.values())
                    await _wait_in_log(bots[k], lambda log, mine=mine: mine <= set(_posted_by(log)),  # type: ignore[misc]
                                       START_WAIT)
                await asyncio.sleep(SETTLE)
                found = timeouts()
                results = {k: bot_messages(fake, g.guild.id, RESULTS) for k, g in guilds.items()}
                pictures = {k: [len(m.attachments) for c, _ in results[k] for m in fake.world.channel_messages(c)
                                if RESULTS in (m.content or "")] for k in guilds}
                sessions = [s for s in fake.server.sessions.values() if s.ready]
            finally:
                for bot in bots:
                    await bot.stop()
                    print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")  # shown by pytest when the test fails
        logs = {k: bots[k].text() for k in range(SHARDS)}
        for k, place in guilds.items():
            # Exactly one timeout per campaign: in its own channel (or its turn's thread), never twice.
            homes = Counter(home for _, home in found[k])
            assert homes == Counter({c.id: 1 for c in place.channels}), (k, homes)
            # ...posted by this shard's process, which posted nothing for the other guild's campaigns.
            posted = _posted_by(logs[k])
            assert set(place.campaigns.values()) <= set(posted), (k, posted, logs[k][-3000:])
            others = set(guilds[1 - k].campaigns.values())
            assert not others & set(posted), (k, posted)
            assert f"(shard {k} of 2), 1 guilds, {CAMPAIGNS_PER_GUILD + 1} campaigns" in logs[k], logs[k][-3000:]
            # The closed turn's results and pictures: once, in that campaign's channel or thread, by this shard.
            assert place.closed is not None and [home for _, home in results[k]] == [place.closed.id], results[k]
            assert pictures[k] == [2], pictures[k]  # the map and the provinces chart
            assert f"campaign {place.closed_id}: campaign-{place.closed_id}:turn-1:results posted by shard {k} of 2" \
                in logs[k]
            assert f"campaign-{guilds[1 - k].closed_id}:turn-1:results" not in logs[k]
        # The gateway of each shard carried only its guilds' events, and each player's post went to one shard.
        for session in sessions:
            shard_id, count = session.shard
            guild_ids = {g for p in session.sent if (g := _guild_of(p)) is not None}
            assert guild_ids and all(shard_of(g, count) == shard_id for g in guild_ids), (session.shard, guild_ids)
            posts = {str(p["d"]["id"]) for p in session.sent if p.get("t") == "MESSAGE_CREATE"}  # type: ignore[index]
            assert said[shard_id]["id"] in posts and said[1 - shard_id]["id"] not in posts
        for bot in bots:
            assert "Traceback" not in bot.text(), bot.text()[-3000:]

    _run(scenario())


def test_a_standby_process_takes_over_the_jobs_of_a_shard_whose_process_died(db_url: str, tmp_path: Path) -> None:
    """Two processes of shard 1: one runs its scheduler, the other stands by. The first is killed (SIGKILL) having
    claimed a timeout it never sent; meanwhile another deadline falls due. The survivor takes the shard over and
    posts both, once; nothing is posted for the campaigns that had nothing due, nor for shard 0's."""
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            guilds = build_world(fake)
            now = datetime.now(timezone.utc)
            # Deadlines due in 47 hours (reminders in 35): nothing is due when the processes start.
            service = seed_campaigns(db_url, fake, guilds, now + timedelta(hours=48))
            place = guilds[1]
            first = await start_bot(fake, db_url, tmp_path, "shard-1-first", 1, SHARDS)
            await _wait_in_log(first, "logged in as", START_WAIT)
            second = await start_bot(fake, db_url, tmp_path, "shard-1-second", 1, SHARDS)
            try:
                await _wait_in_log(second, "standing by", START_WAIT)
                # Frozen first: it keeps the shard's lease and does nothing while the rows change below, so the
                # survivor takes over after the change, whatever the machine's load (killed first, the survivor
                # could reconcile before the change, with its jobs at the old due times).
                first.process.send_signal(signal.SIGSTOP)
                half_done, fell_due, untouched = list(place.campaigns.values())
                with Session(service.engine) as session:
                    rows = {d.campaign_id: d for d in session.exec(select(DeadlineRow)).all() if d.state in ACTIVE}
                    for campaign_id in (half_done, fell_due):
                        rows[campaign_id].due_at = now - timedelta(minutes=5)
                        session.add(rows[campaign_id])
                    rows[half_done].state = DONE  # what act_on_deadline commits with its claim
                    session.commit()
                    # The dead process's claim, never recorded as sent: the survivor must finish it.
                    session.refresh(rows[half_done])
                    assert claim(session, _key(rows[half_done], "timeout"), half_done, "deadline", at=now)
                await first.stop(signal.SIGKILL)
                channel_of = {cid: place.channels[i].id for i, cid in enumerate(place.campaigns.values())}
                await fake.wait_until(
                    lambda: len(bot_messages(fake, place.guild.id, TIMEOUT)) >= 2, START_WAIT,
                    "the survivor to post the two timeouts")
                # Its log says so once the post returns, which may be after the message shows (the rest of the pass
                # it announces waits for the channel's rate limit on a loaded machine): waited for, not assumed.
                await _wait_in_log(second, lambda log: set(_posted_by(log)) >= {half_done, fell_due}, START_WAIT)
                await asyncio.sleep(SETTLE)
                found = Counter(home for _, home in bot_messages(fake, place.guild.id, TIMEOUT))
                elsewhere = bot_messages(fake, guilds[0].guild.id, TIMEOUT)
            finally:
                await second.stop()
                for bot in (first, second):
                    print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")  # shown by pytest when the test fails
        assert found == Counter({channel_of[half_done]: 1, channel_of[fell_due]: 1}), (found, channel_of)
        assert channel_of[untouched] not in found and elsewhere == []
        log = second.text()
        assert "takes it over" in log, log[-3000:]
        assert set(_posted_by(log)) == {half_done, fell_due}, log[-3000:]
        assert "Traceback" not in log, log[-3000:]

    _run(scenario())


async def _wait_in_log(bot: BotProcess, text: str | Callable[[str], bool], timeout: float) -> None:
    """Until ``bot``'s log holds ``text`` (or ``text(log)`` is true)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (text(bot.text()) if callable(text) else text in bot.text()):
        if bot.process.returncode is not None:
            raise AssertionError(f"{bot.label} exited ({bot.process.returncode}):\n{bot.text()[-3000:]}")
        if loop.time() > end:
            raise AssertionError(f"{bot.label} never logged {text!r}:\n{bot.text()[-3000:]}")
        await asyncio.sleep(0.1)


def test_one_process_runs_every_shard_when_given_only_the_shard_count(db_url: str, tmp_path: Path) -> None:
    """LEGATUS_SHARD_COUNT alone: discord.py's AutoShardedClient opens both shards from one process, which serves
    and schedules every guild."""
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            guilds = build_world(fake)
            seed_campaigns(db_url, fake, guilds, datetime.now(timezone.utc))
            bot = await start_bot(fake, db_url, tmp_path, "all-shards", None, SHARDS)
            try:
                await fake.wait_until(
                    lambda: sorted(s.shard for s in fake.server.sessions.values() if s.ready) == [(0, 2), (1, 2)],
                    START_WAIT, "one process to IDENTIFY as both shards")
                await fake.wait_until(
                    lambda: all(len(bot_messages(fake, g.guild.id, TIMEOUT)) >= CAMPAIGNS_PER_GUILD
                                for g in guilds.values()), START_WAIT, "every campaign's timeout")
                for place in guilds.values():
                    said = await fake.user_says(place.channels[1].id, "bob", "build temple in Latium")
                    await fake.wait_for_message(place.channels[1].id, answering(said), timeout=60)
                await asyncio.sleep(SETTLE)
                found = {k: Counter(home for _, home in bot_messages(fake, g.guild.id, TIMEOUT))
                         for k, g in guilds.items()}
            finally:
                await bot.stop()
                print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")
        for k, place in guilds.items():
            assert found[k] == Counter({c.id: 1 for c in place.channels}), (k, found[k])
        assert f"(all 2 shards), 2 guilds, {2 * CAMPAIGNS_PER_GUILD + 2} campaigns" in bot.text()
        assert "Traceback" not in bot.text()

    _run(scenario())


def test_a_bot_with_too_many_guilds_for_one_shard_is_told_to_shard(tmp_path: Path) -> None:
    """Discord closes an unsharded session of a bot with too many guilds (4011): one line says what to set, and
    the same bot run as shards connects."""
    db = str(tmp_path / "big.db")

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            build_world(fake)
            fake.server.guilds_per_shard = 1  # two guilds: two shards needed
            whole = await start_bot(fake, db, tmp_path, "unsharded", None, None)
            code = await asyncio.wait_for(whole.process.wait(), START_WAIT)
            assert code == 1, whole.text()[-3000:]
            assert "Discord requires sharding for this many servers" in whole.text() and "Traceback" not in whole.text()
            shard = await start_bot(fake, db, tmp_path, "shard-0", 0, SHARDS)
            try:
                await fake.wait_until(lambda: any(s.ready and s.shard == (0, 2) for s in fake.server.sessions.values()),
                                      START_WAIT, "shard 0 to IDENTIFY")
            finally:
                await shard.stop()

    _run(scenario())
