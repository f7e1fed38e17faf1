"""Starting the bot: the intents it asks, the one line it logs, and command syncs only when the commands changed."""
from __future__ import annotations

import asyncio
import logging
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.devdiscord.protocol import MESSAGE_CONTENT
from bot.discord.bot import LegatusBot, needed_intents
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.discord.test_discord_bot import run

GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
GLOBAL_COMMANDS = "/applications/{application_id}/commands"


async def _start_and_stop(fake: FakeDiscord, service: Legatus, guild_id: int | None, state: Path) -> None:
    bot = LegatusBot(service, guild_id=guild_id, sync_state=state, guild_ready_timeout=0.05)
    runner = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until(bot.is_ready, 10, "the bot to be ready")
        await asyncio.sleep(0.1)  # on_ready logs after a database read in a worker thread
    finally:
        await bot.close()
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


def test_commands_sync_once_and_the_global_ones_are_cleared(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="legatus.discord")
    service = Legatus(open_engine(tmp_path / "start.db"), clock=FixedClock(datetime(2026, 11, 22, tzinfo=timezone.utc)))
    service.create_campaign("mare", "mare-nostrum", "gm", {})
    state = tmp_path / "commands.json"

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            world = seed_dev_world(fake.world)
            # A global command left from an earlier, global deployment: clients would show it beside the guild's.
            fake.server.commands[None] = {"1:battle": {"id": "1", "name": "battle", "type": 1, "description": "old"}}
            with point_discord_py(fake.api_base, fake.gateway_url):
                await _start_and_stop(fake, service, int(world.guild.id), state)
                assert len(fake.requests_to("PUT", GUILD_COMMANDS)) == 1
                assert len(fake.requests_to("PUT", GLOBAL_COMMANDS)) == 1
                assert fake.server.commands[None] == {}, "the global scope is emptied"
                assert fake.command("battle", world.guild.id) is not None
                await _start_and_stop(fake, service, int(world.guild.id), state)
                assert len(fake.requests_to("PUT", GUILD_COMMANDS)) == 1, "same commands: no second sync"
                assert len(fake.requests_to("PUT", GLOBAL_COMMANDS)) == 1
                state.write_text("{}", encoding="utf-8")  # a changed command set looks like this to the bot
                await _start_and_stop(fake, service, int(world.guild.id), state)
                assert len(fake.requests_to("PUT", GUILD_COMMANDS)) == 2
            (session, *_) = fake.sessions
            assert session.intents == needed_intents().value and session.intents & MESSAGE_CONTENT

    run(scenario)
    started = [r.getMessage() for r in caplog.records if r.getMessage().startswith("logged in as")]
    assert len(started) == 3 and all(re.fullmatch(r"logged in as Legatus\S*, 1 guilds, 1 campaigns", s) for s in started), started
    assert all(".devdiscord.not-a-real-token" not in r.getMessage() for r in caplog.records)


def test_the_bot_asks_only_the_intents_it_reads() -> None:
    intents = needed_intents()
    assert intents.guilds and intents.guild_messages and intents.message_content
    assert not (intents.members or intents.presences or intents.dm_messages or intents.guild_reactions
                or intents.typing or intents.voice_states)
