"""How the bot connects: which API and gateway (the local fake Discord in tests), which intents, which shard, and the
command tree that a stopping bot can drain."""
from __future__ import annotations

import logging
import os
from typing import Any

import discord
from discord import app_commands

from bot.store.shards import Shard

log = logging.getLogger("legatus.discord")

API_BASE_SETTING = "DISCORD_API_BASE"


def apply_api_base() -> None:
    """Point discord.py at another API (the local fake Discord); production never sets it."""
    base = os.environ.get(API_BASE_SETTING, "").strip()
    if base:
        discord.http.Route.BASE = base.rstrip("/")
        log.info("Discord API base set to %s", discord.http.Route.BASE)


async def adopt_bot_gateway(client: discord.Client) -> None:
    """A plain Client dials Discord's default gateway; against another API, ask it where its gateway is."""
    import yarl
    from discord.gateway import DiscordWebSocket

    _, url, _ = await client.http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def needed_intents() -> discord.Intents:
    """Only what the bot reads: guilds (channels, threads, roles) and their messages with their content (orders
    come as plain messages: the one privileged intent). No members, presences, DMs, reactions or typing."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    return intents


def shard_options(shard: Shard) -> dict[str, Any]:
    """discord.py's options for one shard of several: its IDENTIFY then carries ``shard: [id, count]`` and Discord
    sends it only the events of its guilds. None for a whole bot (AutoShardedBot gets only the count)."""
    if shard.id is None:
        return {"shard_count": shard.count} if shard.count > 1 else {}
    return {"shard_id": shard.id, "shard_count": shard.count}


class StoppingTree(app_commands.CommandTree):
    """discord.py's tree, whose invocations the bot can wait for when it stops, and which takes none once stopping.

    ``_from_interaction`` is discord.py's own (2.x), redone here because it starts its task without returning it."""

    def _from_interaction(self, interaction: discord.Interaction) -> None:
        bot: Any = self.client
        if getattr(bot, "stopping", False):
            log.info("stopping: a slash command was not taken (Discord tells its user it failed; they may retry)")
            return

        async def wrapper() -> None:
            try:
                await self._call(interaction)
            except app_commands.AppCommandError as e:
                await self._dispatch_error(interaction, e)

        bot.track(self.client.loop.create_task(wrapper(), name="CommandTree-invoker"))
