"""Two guilds on the two shards of a 2-shard bot, campaigns in each, and `legatus run` processes against the fake.

Used by test_sharded_processes.py. The campaigns are stored before any bot starts, with every player's deadline
already past (as after a night the bot was down): the first thing each process's scheduler does is act on its
shard's timeouts, and nobody else's.
"""
from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlmodel import Session

from bot.devdiscord import FakeDiscord, seed_dev_world
from bot.devdiscord.model import Channel, Guild
from bot.schedule.scheduler import sync_deadlines
from bot.service.legatus import Legatus
from bot.store.campaigns import find_campaign
from bot.store.db import database_url, open_engine
from bot.store.draws import import_archive
from bot.store.shards import shard_of
from tests.fixture_paths import REPO

SHARDS = 2
CAMPAIGNS_PER_GUILD = 3
PLAYERS = ("alice", "bob", "carla", "max", "pat", "sam")
NATIONS = ("Carthaginians", "Gauls", "Macedonians", "Ptolemaics", "Romans", "Seleucids")
DRAWS = REPO / "tests" / "data" / "lotto" / "draws-2023-01.txt"


@dataclass
class ShardGuild:
    shard: int
    guild: Guild
    gm_role: str
    channels: list[Channel] = field(default_factory=list)
    campaigns: dict[str, int] = field(default_factory=dict)  # name -> campaign id, each with a player to act
    closed: Channel | None = None  # the channel of a campaign whose turn 1 closed, its results not posted yet
    closed_id: int | None = None


def build_world(fake: FakeDiscord) -> dict[int, ShardGuild]:
    """The dev guild, and a second guild whose id falls on the other shard; three campaign channels in each."""
    dev = seed_dev_world(fake.world)
    world = fake.world
    first = shard_of(dev.guild.id, SHARDS)
    # Snowflakes count up by one millisecond, so shards alternate: after an id of the first guild's shard, the next
    # one is on the other.
    while shard_of(world.next_id(), SHARDS) != first:
        pass
    west = world.add_guild("Legatus West", owner_id=dev.users["gm"].id)
    assert shard_of(west.id, SHARDS) != first
    west_gm = world.add_role(west.id, "GM", color=0xB22222)
    world.add_member(west.id, dev.users["gm"].id, roles=[west_gm.id])
    for name in PLAYERS:
        world.add_member(west.id, dev.users[name].id)
    guilds = {first: ShardGuild(first, dev.guild, dev.roles["GM"].id),
              1 - first: ShardGuild(1 - first, west, west_gm.id)}
    for shard, place in guilds.items():
        for i in range(CAMPAIGNS_PER_GUILD):
            place.channels.append(world.add_text_channel(place.guild.id, f"s{shard}-war-{i}"))
        place.closed = world.add_text_channel(place.guild.id, f"s{shard}-closed")
    return guilds


def seed_campaigns(db: str, fake: FakeDiscord, guilds: dict[int, ShardGuild], now: datetime) -> Legatus:
    """A historical campaign per channel, its first turn open, and the first player's deadline an hour past."""
    service = Legatus(open_engine(db))
    with Session(service.engine) as session:
        import_archive(session, DRAWS.read_text(encoding="utf-8"), "test")
        session.commit()
    players = {nation: f"<@{fake.user(name).id}>" for nation, name in zip(NATIONS, PLAYERS)}
    for place in guilds.values():
        for channel in place.channels:
            name = f"camp-{channel.name}"
            gm = f"<@&{place.gm_role}>"
            reply = service.create_campaign(name, "mare-nostrum", gm, dict(players), "historical",
                                            str(place.guild.id), channel.id, place.gm_role)
            assert reply.ok, reply.render()
            opened = service.post(gm, "/turn open 2023-01-03", name, is_gm=True)
            assert opened.ok, opened.render()
            with Session(service.engine) as session:
                row = find_campaign(session, name)
                assert row is not None and row.id is not None
                place.campaigns[name] = row.id
        place.closed_id = closed_campaign(service, place, dict(players))
    # No scheduler ran: give the nations to act their deadlines as of 49 hours ago (48 h each: due an hour ago).
    sync_deadlines(service, now - timedelta(hours=49))
    return service


def closed_campaign(service: Legatus, place: ShardGuild, players: dict[str, str]) -> int:
    """A campaign whose first turn was played and closed while no bot ran: its results (text, map, chart) are due."""
    assert place.closed is not None
    name, gm = f"camp-{place.closed.name}", f"<@&{place.gm_role}>"
    assert service.create_campaign(name, "mare-nostrum", gm, dict(players), "historical", str(place.guild.id),
                                   place.closed.id, place.gm_role).ok
    assert service.post(gm, "/turn open 2023-01-03", name, is_gm=True).ok
    while service.state(name)["phase"] == "orders":
        assert service.post(players[service.state(name)["to_play"]], "pass", name).ok
    # The invaders of Bruttium (the draw's event) are beaten; then the turn closes.
    assert service.post(gm, "/battle Bruttium winner Romans", name, is_gm=True).ok
    assert service.post(gm, "/turn close", name, is_gm=True).ok
    with Session(service.engine) as session:
        row = find_campaign(session, name)
        assert row is not None and row.id is not None
        return row.id


@dataclass
class BotProcess:
    label: str
    process: asyncio.subprocess.Process
    log: Path

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    async def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.returncode is None:
            self.process.send_signal(sig)
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


async def start_bot(fake: FakeDiscord, db: str, tmp: Path, label: str, shard_id: int | None,
                    shard_count: int | None) -> BotProcess:
    """`legatus run` in its own process, pointed at the fake Discord, logging at INFO to ``tmp/<label>.log``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LEGATUS_SHARD", "DISCORD_"))}
    env.update({
        "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base, "DATABASE_URL": database_url(db),
        "LEGATUS_LOG": os.environ.get("LEGATUS_TEST_BOT_LOG", "INFO"), "LEGATUS_COMMANDS_STATE": str(tmp / f"{label}.commands.json"),
        "PYTHONPATH": str(REPO),
    })
    if shard_id is not None:
        env["LEGATUS_SHARD_ID"] = str(shard_id)
    if shard_count is not None:
        env["LEGATUS_SHARD_COUNT"] = str(shard_count)
    log = tmp / f"{label}.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=str(tmp), env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT)
    return BotProcess(label, process, log)


def bot_messages(fake: FakeDiscord, guild_id: str, containing: str) -> list[tuple[str, str]]:
    """(channel id, campaign channel id) of every message of the bot in the guild holding ``containing``; a message in
    a thread counts for the thread's parent."""
    world = fake.world
    found = []
    for channel in list(world.channels.values()):
        if channel.guild_id != guild_id:
            continue
        home = channel.parent_id if channel.type in (10, 11, 12) and channel.parent_id else channel.id
        for message in world.channel_messages(channel.id):
            if message.author_id == fake.bot_user.id and containing in (message.content or ""):
                found.append((channel.id, str(home)))
    return found
