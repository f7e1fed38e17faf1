"""A fake Discord API (REST + gateway websocket) on localhost, for end-to-end tests of the real discord.py client
and for watching the bot work without a Discord account. See docs/dev-discord.md."""
from __future__ import annotations

from bot.devdiscord.api import FakeDiscord, Invocation, adopt_bot_gateway, point_discord_py
from bot.devdiscord.model import DevWorld, World, seed_dev_world
from bot.devdiscord.protocol import RecordedFile, RecordedRequest

__all__ = [
    "DevWorld",
    "FakeDiscord",
    "Invocation",
    "RecordedFile",
    "RecordedRequest",
    "World",
    "adopt_bot_gateway",
    "point_discord_py",
    "seed_dev_world",
]
