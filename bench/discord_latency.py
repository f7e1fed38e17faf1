"""Benchmark: a burst on the fake Discord. 200 campaigns set up at once (1,600 slash commands against Discord's
3 s deadline), then 6 players per campaign posting "pass" at the same moment (1,200 posts).

    .venv/bin/python bench/discord_latency.py [CAMPAIGNS] [--runs N] [--no-channel-limit] [--same-process] [--concurrent]

Prints the set-up's deadline misses (target 0), the posts' latency from a player's message to the bot's
answer (p50, p99; target p99 <= 2 s), posts answered per second, the CPU time the bot process spent on the burst
(what a loaded machine does not change much: the latencies above are wall-clock time, and on 2 cores shared with
other work they are mostly the wait for a core), the load average when the burst began, and the fake's limits in
force; then, over the N runs (default 3, each with a fresh database, fake and bot), the median of each figure.
Asserts nothing. ``LEGATUS_BENCH_KEEP_LOG=FILE`` keeps the bot's log of the last run there.
Everything runs on 127.0.0.1. The bot is a real `legatus run` process of its own, pointed at the fake Discord
(DISCORD_API_BASE), as it runs against Discord: the fake and the players' clients are this process.
``--same-process`` runs the bot in this process instead, sharing its event loop and CPU with the fake Discord
(how this benchmark ran before 2026-11-23 late; it gives the bot's internal figures: transactions, largest batch).
``--concurrent``: while the burst is answered, another CAMPAIGNS campaigns are set up in channels of their own
(another 1,600 slash commands against the 3 s deadline), as the issue's proof asks; without it the burst starts once
the set-up and its aftermath (turn threads, status boards) are over.

Where the time goes (2026-11-23, 2 cores shared with other agents, load ~2-4; before -> after group commit):
- before, every post was one SQLite write transaction of its own (~3-10 ms: ORM rows, a commit, the write lock
  taken anew), run by up to 6 pool threads that slept in SQLite's busy handler while another held the lock: under
  load the set-up took 140 s with 59 deadline misses and the burst p99 17 s at 64 posts/s; on a quieter machine
  set-up 21 s, burst p50 5.0-5.4 s, p99 10.9-13.4 s, 87-98 posts/s.
- now one writer thread (bot/service/post_queue.py) applies every queued post in one transaction (each post in
  its savepoint: Legatus.post_many), ~0.7-1 ms a post (bench/throughput.py), and the scheduler writes the
  deadlines a transaction moves in one transaction of its own: set-up 12-15 s, 0 misses; burst p50 3.7-4.6 s,
  p99 9.9-10.1 s, 115 posts/s, in 5-6 transactions.
- without Discord's per-channel limit (--no-channel-limit) the same burst is answered with p99 5.4 s, 198 posts/s:
  the limit (5 messages per 5 s per channel) alone holds a channel's 6th answer >= 5 s after the burst, so the
  target p99 <= 2 s cannot be met with one answer message per post; answering a channel's queued posts in one
  message would be needed.
- answers that wait together for a channel now go out as one message (bot/discord/outbox.py): the 1,200 answers
  take 203-216 messages, about one per channel. 2026-11-23, same machine, medians of 3 runs before (load ~0.2-1)
  and 5 after (load ~2.5-3.6, other agents): p50 4.8 s -> 3.3 s, p99 11.4 s -> 4.9 s (3.6-5.0 s), 104 -> 222
  posts/s, set-up deadline misses 0 -> 0. With the limit lifted the burst is no faster (p99 4.3 s): the channel
  limit costs nothing now; what is left of the 2 s target is the writer and the shared event loop below.
- of the rest, the writer spent about half of a burst's ~3 s in the scheduler's job store (apscheduler wrote
  one row per job added or removed), and the event loop, shared with the fake Discord, the remainder.
- 2026-11-23, later (py-spy on the bot process: `py-spy record --pid PID --threads`): deadline jobs now live in a
  memory job store rebuilt from the deadline table (bot/schedule/scheduler.py); the scheduler is woken once for
  the jobs a round adds (each wake-up read the persistent store on the event loop); the heads-up claims and
  marks, one of each per pass, are written by the writer thread in one transaction a round (PostQueue.call_many)
  instead of a transaction each from worker threads that waited for SQLite's lock; the deadline keeper reads a
  round's campaigns in one query; the bot runs as its own `legatus run` process, as against Discord, and the
  burst waits until the set-up's aftermath (200 turn threads and status boards) is over. Same machine, 2 cores
  shared with 4 other agents (load 1-3): burst p50 0.8-2.0 s, p99 1.2-2.5 s, 340-870 posts/s. With the machine
  to itself (load ~1.7, 5 runs): p50 0.75-0.89 s, **p99 1.13-1.32 s** (median 1.18 s), 777-921 posts/s, 0 of
  1,600 set-up commands past the 3 s deadline; --concurrent (200 more campaigns set up amid the burst, 3 runs):
  p99 1.27-1.57 s, 0 of 3,200 commands late; --same-process (the fake on the bot's loop): p99 2.75 s. What is
  left: the writer copies the state per event
  (State.__deepcopy__, ~45 us a copy, also for a pass refused as out of turn) and discord.py's own work on the
  event loop (gateway parsing, HTTP), both on one core under the GIL.
- 2026-11-25 (py-spy on the bot process during a burst): the heads-ups' claims and marks, a savepoint, an insert
  and a query each, were half of the writer thread's samples (3,657 of 7,138); now a few statements for all of a
  round (bot/store/posted.py ``claim_many``: 100 heads-ups cost the 6 statements of one), and a heads-up whose
  playing seat already played by the time it would go out (most of a burst's) is dropped unclaimed. Measured on 2
  cores shared with 7 other engineers' test suites (load 9-16), the bench under ``nice -n 10`` as the team's rules
  ask: the bot process got 10-25% of a core, so the wall-clock figures are mostly the wait for one. Default run (200
  campaigns), median of 3 runs: p99 5.2 s (runs: 14.0, 5.2, 3.2 s), p50 3.9 s, late set-up commands 52 (43-118 of
  1,600), bot CPU for the burst 2.5 s (1.2-3.1 s, ~2-2.7 ms a post under that contention). In the third run a
  gateway resume's catch-up (bot/discord/catch_up.py) held 708 of the posts past 120 s ("catch-up of campaign c40
  failed"); and every run logged 7-13 "the status board of campaign N was not updated": save_status_board waited
  for SQLite's lock behind the writer's rounds past the 5 s busy timeout. The board's save now goes through the
  writer thread: a run after it (load 12.6) logged no error at all (p99 9.2 s, 67 late set-up commands, bot CPU
  3.0 s). A/B at 60
  campaigns, same load, 2 runs each: bot CPU for the burst 0.8-0.9 s here, 0.9-1.0 s before these changes; p99
  1.4-2.2 s against 1.7-1.9 s: within the noise. The target p99 <= 2 s and 0 late commands held on a quiet
  machine before (p99 1.13-1.32 s above); it could not be shown again on this one.
- 2026-11-26, after the session's merges, the machine nearly to itself (one helper's mutation runs at nice 19;
  load 2.1-3.1 when the burst began): median of 3 runs: **p99 1.79 s** (runs 1.60, 1.79, 2.44 s), p50 1.16 s,
  557 posts/s, 0 of 1,600 set-up commands late, 0 posts unanswered, answers in 207-209 messages, bot CPU 2.5 s a
  burst. A first try ran under the fake's new global limit (Discord's 50/s, added the same day and not lifted here
  then): p99 6.0 s, 788 answer messages and ~1,300 status-board sends given up after discord.py's five 429s;
  the bench now lifts it with the per-route one. One run logged a catch-up failed on "database is locked": a
  failed catch-up is now run again (bot/discord/catch_up.py, RETRIES).
Fixed before: concurrent /campaign create and the scheduler's read-then-write sessions failed with "database is
locked" (now BEGIN IMMEDIATE), the channel -> campaign lookup per message (cached), the turn thread and board
store reads on the event loop (moved off it).

Answers are timed by the fake's request listener (the moment the message holding a post's answer reaches it: a
reply to the post, or a shared answer that links it), not by polling the fake's world: a poll per waiter after every request would make the harness itself quadratic.
"""
from __future__ import annotations

import asyncio
import os
import re
import resource
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world  # noqa: E402
from bot.devdiscord.protocol import RecordedRequest  # noqa: E402
from bot.discord.bot import LegatusBot  # noqa: E402
from bot.schedule.clock import FixedClock  # noqa: E402
from bot.service.legatus import Legatus  # noqa: E402
from bot.store.db import open_engine  # noqa: E402

LOTTO = REPO / "tests" / "data" / "lotto"
SEATS = {"Romans": "alice", "Gauls": "bob", "Carthaginians": "carla", "Macedonians": "max", "Ptolemaics": "pat", "Seleucids": "sam"}
GLOBAL_LIMIT = (10_000, 1.0)  # requests per second for the whole bot (the fake's default is Discord's 50/s)
ANSWER_TIMEOUT = 120.0
JUMP_URL = re.compile(r"/channels/\d+/\d+/(\d+)")
# One run's figures, for the median over the runs: late set-up commands, p50 and p99 (ms), posts/s, bot CPU (s).
RUN: dict[str, float] = {}


class Arrivals:
    """When the bot's answers reach the fake: replies by the message they answer, command answers by token."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.events: dict[str, asyncio.Event] = {}
        self.answer_messages = 0  # messages that carried answers to posts
        self.last = time.perf_counter()  # the bot's latest request to the fake, of any kind

    def event(self, key: str) -> asyncio.Event:
        return self.events.setdefault(key, asyncio.Event())

    def __call__(self, request: RecordedRequest) -> None:
        self.last = time.perf_counter()
        parts = request.path.strip("/").split("/")
        keys = []
        if request.method == "POST" and len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages":
            body = request.json or {}
            reference = (body.get("message_reference") or {}).get("message_id")
            if reference:
                keys.append(f"reply:{reference}")
            # A message answering several posts (bot/discord/outbox.py) links each post it answers.
            answered = JUMP_URL.findall(str(body.get("content") or ""))
            keys.extend(f"reply:{message_id}" for message_id in answered)
            if reference or answered:
                self.answer_messages += 1
        if parts[:1] == ["webhooks"] and len(parts) >= 3 and request.method in ("POST", "PATCH"):
            keys.append(f"answer:{parts[2]}")  # a follow-up or the deferral's edit: the command is answered
        for key in keys:
            self.times.setdefault(key, time.perf_counter())
            self.event(key).set()

    async def quiet(self, seconds: float = 1.0, limit: float = 120.0) -> float:
        """Wait until the bot has sent nothing for ``seconds``; returns how long it was still busy."""
        start = time.perf_counter()
        while time.perf_counter() - self.last < seconds and time.perf_counter() - start < limit:
            await asyncio.sleep(0.05)
        return max(0.0, self.last - start)

    async def wait(self, key: str) -> float | None:
        try:
            await asyncio.wait_for(self.event(key).wait(), ANSWER_TIMEOUT)
        except asyncio.TimeoutError:
            return None
        return self.times[key]


async def slash(fake: FakeDiscord, arrivals: Arrivals, records: list[Any], channel: str, user: str, command: str,
                sub: str, **options: str) -> None:
    invocation = await fake.invoke_slash(None, channel, user, command, options or None, subcommand=sub)
    records.append(invocation.record)
    await arrivals.wait(f"answer:{invocation.record.token}")


async def set_up(fake: FakeDiscord, arrivals: Arrivals, records: list[Any], world: Any, channel: str, i: int) -> None:
    gm_role = str(world.roles["GM"].id)
    await slash(fake, arrivals, records, channel, "gm", "campaign", "create", name=f"c{i}", gm_role=gm_role, clock="historical")
    for nation, user in SEATS.items():
        await slash(fake, arrivals, records, channel, "gm", "campaign", "assign", seat=nation, player=str(fake.user(user).id))
    await slash(fake, arrivals, records, channel, "gm", "turn", "open", date="2023-01-03")


async def post(fake: FakeDiscord, arrivals: Arrivals, channel: str, user: str, accepted: list[float]) -> float | None:
    sent_at = time.perf_counter()
    sent = await fake.user_says(channel, user, "pass")
    accepted.append(time.perf_counter() - sent_at)  # the fake has the message and has dispatched it to the bot
    answered = await arrivals.wait(f"reply:{sent['id']}")
    return None if answered is None else answered - sent_at


async def main(campaigns: int, channel_limit: bool, same_process: bool, concurrent: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        service = Legatus(open_engine(db), clock=FixedClock(datetime(2026, 11, 22, 12, tzinfo=timezone.utc)))
        service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
        # Both the fake's per-route limit and its global one (added 2026-11-26, Discord's 50/s by default) are lifted,
        # as the figures below always were: the bench measures the bot, not Discord's allowance.
        limits: dict[str, Any] = {"rate_limit": GLOBAL_LIMIT, "global_rate_limit": GLOBAL_LIMIT}
        if not channel_limit:
            limits["channel_message_limit"] = None
        async with FakeDiscord.start(host="127.0.0.1", port=0, **limits) as fake:
            world = seed_dev_world(fake.world)
            lots = 2 if concurrent else 1
            channels = [str(fake.world.add_text_channel(world.guild.id, f"campaign-{i}").id)
                        for i in range(campaigns * lots)]
            arrivals = Arrivals()
            fake.on_request(arrivals)
            if same_process:
                await in_this_process(fake, arrivals, world, channels, service, concurrent)
            else:
                service.engine.dispose()
                await in_a_bot_process(fake, arrivals, world, channels, db, Path(tmp), concurrent)


def limits_line(channel_limit: bool) -> str:
    return (f"fake Discord limits: global {GLOBAL_LIMIT[0]} requests/{GLOBAL_LIMIT[1]:g} s (lifted: Discord's is 50/s, "
            "interaction callbacks excepted); per channel: "
            + ("5 messages/5 s (Discord's)" if channel_limit else "NONE (channel_message_limit=None)"))


async def in_this_process(fake: FakeDiscord, arrivals: Arrivals, world: Any, channels: list[str], service: Legatus,
                          concurrent: bool) -> None:
    with point_discord_py(fake.api_base, fake.gateway_url):
        bot = LegatusBot(service, guild_id=int(world.guild.id), guild_ready_timeout=0.05)
        runner = asyncio.create_task(bot.start(fake.token))
        try:
            await fake.wait_until(lambda: bot.is_ready() and fake.registered_commands, 20, "the bot")
            print(limits_line(fake.server.channel_message_limit is not None) + "; the bot runs in this process")
            await measure(fake, arrivals, world, channels, bot, concurrent)
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(f"process peak RSS: {rss / 1024:.0f} MB, the fake Discord and the bot in one process")
        finally:
            await bot.close()
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)


async def in_a_bot_process(fake: FakeDiscord, arrivals: Arrivals, world: Any, channels: list[str], db: Path,
                           tmp: Path, concurrent: bool) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEGATUS_SHARD", "DISCORD_", "DATABASE_URL"))}
    env.update({"DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base, "DISCORD_GUILD_ID": str(world.guild.id),
                "LEGATUS_LOG": "INFO" if os.environ.get("LEGATUS_BENCH_KEEP_LOG") else "WARNING",
                "LEGATUS_COMMANDS_STATE": str(tmp / "commands.json"), "PYTHONPATH": str(REPO)})
    log = tmp / "bot.log"
    with log.open("wb") as out:
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", "--db", str(db), cwd=str(tmp), env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT)
    try:
        await fake.wait_until(lambda: fake.registered_commands and any(s.ready for s in fake.server.sessions.values()),
                              60, "the bot process")
        print(limits_line(fake.server.channel_message_limit is not None) + f"; the bot: `legatus run`, pid {bot.pid}")
        await measure(fake, arrivals, world, channels, None, concurrent, bot.pid)
        peak = _peak_rss_mb(bot.pid)
        here = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"bot process peak RSS: {peak} MB; this process (the fake Discord and the players): {here:.0f} MB")
    finally:
        bot.terminate()
        await bot.wait()
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
        errors = [i for i, line in enumerate(lines) if "ERROR" in line]
        if errors:
            # The first error with what follows it (its traceback), up to the next line the log itself starts.
            first = [lines[errors[0]][:300]]
            first += [line for line in lines[errors[0] + 1:errors[0] + 40] if not line[:4].isdigit()][:30]
            print(f"the bot logged {len(errors)} errors, the first:\n  " + "\n  ".join(first))
        kept = os.environ.get("LEGATUS_BENCH_KEEP_LOG")
        if kept:  # the whole log, for a closer look
            Path(kept).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _peak_rss_mb(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return f"{int(line.split()[1]) / 1024:.0f}"
    except OSError:
        pass
    return "?"


async def set_up_all(fake: FakeDiscord, arrivals: Arrivals, world: Any, channels: list[str], first: int) -> str:
    """Every campaign's set-up at once; the line that says how it went."""
    records: list[Any] = []
    start = time.perf_counter()
    await asyncio.gather(*(set_up(fake, arrivals, records, world, channel, first + i) for i, channel in enumerate(channels)))
    took = time.perf_counter() - start
    missed = [r for r in records if r.callback is None]
    RUN["late"] = RUN.get("late", 0) + len(missed)
    return (f"{len(channels)} campaigns, {len(records)} slash commands at once in {took:.1f} s; deadline misses (no "
            f"acknowledgement within 3 s): {len(missed)}")


def _cpu_seconds(pid: int) -> float:
    """The user and system CPU time of a process so far (/proc/PID/stat: utime, stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(fake: FakeDiscord, arrivals: Arrivals, world: Any, channels: list[str], bot: LegatusBot | None,
                  concurrent: bool, pid: int | None = None) -> None:
    # With --concurrent, a second lot of campaigns is set up on channels of their own while the first lot's burst
    # is answered: the issue's load, new campaigns' commands against Discord's 3 s deadline amid the posts.
    burst_channels, later = (channels[:len(channels) // 2], channels[len(channels) // 2:]) if concurrent else (channels, [])
    cpu_at_start = _cpu_seconds(pid) if pid is not None else 0.0
    print("set-up: " + await set_up_all(fake, arrivals, world, burst_channels, 0))
    # The set-up's own aftermath (each turn's thread and announcement, each status board) is not the burst's.
    busy = await arrivals.quiet()
    print(f"  the bot then opened turn threads and posted status boards for {busy:.1f} s more; the burst waits for quiet"
          + (f"; the bot's CPU for all that: {_cpu_seconds(pid) - cpu_at_start:.1f} s" if pid is not None else ""))
    rounds_before = bot.posts.rounds if bot is not None else 0
    messages_before = arrivals.answer_messages
    load = os.getloadavg()[0]
    cpu_before = _cpu_seconds(pid) if pid is not None else 0.0
    start = time.perf_counter()
    accepted: list[float] = []
    burst = asyncio.gather(*(post(fake, arrivals, channel, user, accepted)
                             for channel in burst_channels for user in SEATS.values()))
    during = asyncio.ensure_future(set_up_all(fake, arrivals, world, later, len(burst_channels))) if later else None
    results = await burst
    took = time.perf_counter() - start
    cpu = _cpu_seconds(pid) - cpu_before if pid is not None else None
    latencies = sorted(r for r in results if r is not None)
    if not latencies:
        print("burst: no post was answered")
        return
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"burst: {len(results)} posts at once, {len(latencies)} answered ({len(results) - len(latencies)} not within "
          f"{ANSWER_TIMEOUT:.0f} s) in {took:.1f} s: p50 {statistics.median(latencies) * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms, {len(latencies) / took:.0f} posts/s; the "
          f"answers took {arrivals.answer_messages - messages_before} messages")
    RUN.update(p50=statistics.median(latencies) * 1000, p99=p99 * 1000, rate=len(latencies) / took,
               unanswered=len(results) - len(latencies))
    if cpu is not None and pid is not None:
        # Then the turns' pings, heads-ups and boards the posts set off, until the bot is quiet again.
        await arrivals.quiet()
        after = _cpu_seconds(pid) - cpu_before
        RUN["cpu"] = after
        print(f"  the bot process spent {cpu:.1f} s of CPU until the last answer ({cpu / len(results) * 1000:.1f} ms a "
              f"post), {after:.1f} s until it was quiet again (pings, heads-ups, boards); load average when the burst "
              f"began: {load:.1f} (2 cores)")
    accepted.sort()
    print(f"  of which the fake Discord's own share: the post accepted and sent on the gateway after p50 "
          f"{statistics.median(accepted) * 1000:.0f} ms, p99 {accepted[int(len(accepted) * 0.99)] * 1000:.0f} ms, "
          f"last {accepted[-1] * 1000:.0f} ms")
    if during is not None:
        print("set-up during the burst: " + await during)
    if bot is not None:
        print(f"written in {bot.posts.rounds - rounds_before} transactions (group commit; the largest of the run: "
              f"{bot.posts.largest} posts)")


def medians(runs: list[dict[str, float]]) -> str:
    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    line = (f"median of {len(runs)} runs: late set-up commands {median('late'):.0f}, unanswered posts "
            f"{median('unanswered'):.0f}, p50 {median('p50'):.0f} ms, p99 {median('p99'):.0f} ms, "
            f"{median('rate'):.0f} posts/s")
    if all("cpu" in run for run in runs):
        line += f", bot CPU {median('cpu'):.1f} s a burst"
    return line + "; p99 of each run: " + ", ".join(f"{run['p99']:.0f}" for run in runs) + " ms"


if __name__ == "__main__":
    argv = sys.argv[1:]
    runs = 3
    if "--runs" in argv:
        at = argv.index("--runs")
        runs = int(argv[at + 1])
        if not 1 <= runs <= 20:
            sys.exit(f"--runs {runs}: give 1 to 20 runs")
        del argv[at:at + 2]
    args = [a for a in argv if not a.startswith("--")]
    figures: list[dict[str, float]] = []
    for number in range(1, runs + 1):
        if runs > 1:
            print(f"-- run {number} of {runs}")
        RUN.clear()
        asyncio.run(main(int(args[0]) if args else 200, "--no-channel-limit" not in argv, "--same-process" in argv,
                         "--concurrent" in argv))
        if "p99" in RUN:
            figures.append(dict(RUN))
    if len(figures) > 1:
        print(medians(figures))
