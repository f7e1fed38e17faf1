"""One gateway websocket and one identified session: compression, sequence numbers, the replay buffer for RESUME,
and which dispatches a session receives (intents and shard)."""
from __future__ import annotations

import asyncio
import json
import zlib
from collections import deque
from typing import Any

from aiohttp import web

from bot.devdiscord.protocol import (
    DIRECT_MESSAGE_REACTIONS, DIRECT_MESSAGES, GUILD_EVENTS_NEEDING_GUILDS, GUILD_MEMBERS,
    GUILD_MESSAGE_REACTIONS, GUILD_MESSAGES, GUILDS, MESSAGE_EVENTS, OP_DISPATCH, REACTION_EVENTS,
)


class GatewayConnection:
    """One websocket. Compression is per connection: a RESUME on a new socket starts a new zlib stream."""

    def __init__(self, ws: web.WebSocketResponse, *, compress: str | None, encoding: str, version: str) -> None:
        self.ws = ws
        self.compress = compress
        self.encoding = encoding
        self.version = version
        # Only zlib-stream is compressed; for zstd-stream we send text frames, which discord.py accepts whatever it
        # asked for (it only decompresses binary frames), and the standard library has no zstd before 3.14.
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self.heartbeat_acks = 0
        self.received: list[dict[str, Any]] = []
        # The code of whoever closed first: the client's own (discord.py: 1000 or 4000), or the fake's (4004, 4014...).
        self.close_code: int | None = None
        self.closed_by: str | None = None
        self.closed = False

    async def send(self, payload: dict[str, Any]) -> bool:
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        async with self._lock:
            if self.ws.closed:
                return False
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode("utf-8")) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return False
        return True

    async def close(self, code: int, reason: str = "") -> None:
        if not self.ws.closed:
            # aiohttp reports the code of the client's answering close frame, so remember ours.
            self.close_code, self.closed_by = code, "server"
            await self.ws.close(code=code, message=reason.encode("utf-8"))


class GatewaySession:
    """An identified gateway session: it outlives its websocket so that a RESUME can replay what was missed."""

    def __init__(self, session_id: str, *, intents: int, shard: tuple[int, int], identify: dict[str, Any]) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.identify = identify
        self.seq = 0
        self.sent: deque[dict[str, Any]] = deque(maxlen=5000)
        self.connection: GatewayConnection | None = None
        self.ready = False
        self.resumes = 0
        self.presence: dict[str, Any] | None = None
        self._lock = asyncio.Lock()

    def covers_guild(self, guild_id: str | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (int(guild_id) >> 22) % count == shard_id

    def wants(self, event: str, data: dict[str, Any]) -> bool:
        guild_id = data.get("guild_id") if event != "GUILD_CREATE" else data.get("id")
        if not self.covers_guild(guild_id):
            return False
        in_guild = guild_id is not None
        if event in GUILD_EVENTS_NEEDING_GUILDS:
            return bool(self.intents & GUILDS) if in_guild else bool(self.intents & DIRECT_MESSAGES)
        if event in MESSAGE_EVENTS:
            return bool(self.intents & (GUILD_MESSAGES if in_guild else DIRECT_MESSAGES))
        if event in REACTION_EVENTS:
            return bool(self.intents & (GUILD_MESSAGE_REACTIONS if in_guild else DIRECT_MESSAGE_REACTIONS))
        if event.startswith("GUILD_MEMBER_") and event != "GUILD_MEMBERS_CHUNK":
            return bool(self.intents & GUILD_MEMBERS)
        return True

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        async with self._lock:
            self.seq += 1
            payload = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
            self.sent.append(payload)
            if self.connection is not None:
                await self.connection.send(payload)
