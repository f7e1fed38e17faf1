"""The gateway websocket: HELLO, heartbeats, IDENTIFY (READY and the GUILD_CREATEs), RESUME with replay, and
member chunking; closes with Discord's codes (4002, 4003, 4004, 4013, 4014...)."""
from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from aiohttp import WSMsgType, web

from bot.devdiscord import payloads
from bot.devdiscord.core import ServerCore
from bot.devdiscord.gateway_session import GatewayConnection, GatewaySession
from bot.devdiscord.protocol import (
    GUILD_MEMBERS, GUILD_PRESENCES, GUILDS, OP_HEARTBEAT, OP_HEARTBEAT_ACK, OP_HELLO, OP_IDENTIFY,
    OP_INVALID_SESSION, OP_PRESENCE, OP_REQUEST_MEMBERS, OP_RESUME, OP_VOICE_STATE, PRIVILEGED_INTENTS,
)


class GatewayServer(ServerCore):
    """The /gateway websocket endpoint."""


    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        # timeout: how long close() waits for the client's close frame; a stuck client must not stall shutdown.
        ws = web.WebSocketResponse(compress=False, max_msg_size=16 * 1024 * 1024, timeout=2.0)
        await ws.prepare(request)
        conn = GatewayConnection(ws, compress=request.query.get("compress"),
                                 encoding=request.query.get("encoding", "json"), version=request.query.get("v", "10"))
        self.connections.append(conn)
        self.notify()
        try:
            if conn.encoding != "json":
                await conn.close(4002, "Only the json encoding is supported by the fake Discord.")
                return ws
            await conn.send({"op": OP_HELLO, "s": None, "t": None,
                             "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000),
                                   "_trace": ["[\"fake-discord-gateway\"]"]}})
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                raw = msg.data if msg.type == WSMsgType.TEXT else msg.data.decode("utf-8", "replace")
                try:
                    payload = json.loads(raw)
                    op = int(payload["op"])
                except (ValueError, KeyError, TypeError):
                    await conn.close(4002, "Error while decoding payload.")
                    break
                conn.received.append(payload)
                await self._gateway_op(conn, op, payload.get("d"))
                if ws.closed:
                    break
        finally:
            conn.closed = True
            if conn.closed_by is None:
                conn.close_code, conn.closed_by = ws.close_code, "client"
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self._gateway_event("close", conn)
        return ws

    async def _gateway_op(self, conn: GatewayConnection, op: int, data: Any) -> None:
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            if await conn.send({"op": OP_HEARTBEAT_ACK, "s": None, "t": None, "d": None}):
                conn.heartbeat_acks += 1
            self.notify()
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif conn.session is None:
            await conn.close(4003, "Not authenticated.")
        elif op == OP_PRESENCE:
            conn.session.presence = data
        elif op == OP_VOICE_STATE:
            pass
        elif op == OP_REQUEST_MEMBERS:
            await self._request_members(conn.session, data or {})
        else:
            await conn.close(4001, "Unknown opcode.")

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.token:
            await conn.close(4004, "Authentication failed.")
            return
        if "intents" not in data:
            await conn.close(4013, "Invalid intent(s).")
            return
        intents = int(data["intents"])
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return
        shard = tuple(data.get("shard") or (0, 1))
        if len(shard) != 2 or not 0 <= int(shard[0]) < int(shard[1]):
            await conn.close(4010, "Invalid shard.")
            return
        self._session_counter += 1
        session_id = hashlib.sha1(f"{self.app_id}:{self._session_counter}".encode()).hexdigest()
        session = GatewaySession(session_id, intents=intents, shard=(int(shard[0]), int(shard[1])), identify=data)
        session.presence = data.get("presence")
        session.connection = conn
        conn.session = session
        self.sessions[session_id] = session
        assert self.world.bot_user is not None
        guilds = [g for g in self.world.guilds.values()
                  if self.bot_id in g.members and session.covers_guild(g.id)]
        if len(guilds) > self.guilds_per_shard:
            del self.sessions[session_id]
            conn.session = None
            await conn.close(4011, "Sharding required.")
            return
        ready: dict[str, Any] = {
            "v": int(conn.version) if conn.version.isdigit() else 10,
            "user": payloads.self_user_payload(self.world.bot_user),
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.app_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["[\"fake-discord-gateway\"]"],
        }
        if "shard" in data:
            ready["shard"] = list(session.shard)
        await session.dispatch("READY", ready)
        self.dispatched.append(("READY", ready))
        include_members = bool(intents & GUILD_PRESENCES)
        for guild in guilds:
            payload = payloads.guild_create_payload(self.world, guild, include_members=include_members)
            self.dispatched.append(("GUILD_CREATE", payload))
            if intents & GUILDS:
                await session.dispatch("GUILD_CREATE", payload)
        session.ready = True
        self._gateway_event("identify", conn)

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token:
            await conn.close(4004, "Authentication failed.")
            return
        if session is None or (session.connection is not None and not session.connection.closed):
            await conn.send({"op": OP_INVALID_SESSION, "s": None, "t": None, "d": False})
            return
        seq = int(data.get("seq") or 0)
        session.connection = conn
        conn.session = session
        session.resumes += 1
        for payload in list(session.sent):
            if payload["s"] > seq:
                await conn.send(payload)
        await session.dispatch("RESUMED", {"_trace": ["[\"fake-discord-gateway\"]"]})
        self._gateway_event("resume", conn)

    async def _request_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        if not session.intents & GUILD_MEMBERS and not data.get("user_ids"):
            if session.connection is not None:
                await session.connection.close(4013, "Invalid intent(s).")
            return
        guild_ids = data.get("guild_id")
        for guild_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.world.guilds.get(str(guild_id))
            if guild is None:
                continue
            members = list(guild.members.values())
            wanted = [str(u) for u in data.get("user_ids") or []]
            if wanted:
                members = [m for m in members if m.user_id in wanted]
            elif data.get("query"):
                prefix = str(data["query"]).lower()
                members = [m for m in members if self.world.users[m.user_id].username.lower().startswith(prefix)]
            if data.get("limit"):
                members = members[: int(data["limit"])]
            chunk: dict[str, Any] = {
                "guild_id": guild.id, "members": [payloads.member_payload(self.world, m) for m in members],
                "chunk_index": 0, "chunk_count": 1,
                "not_found": [u for u in wanted if u not in guild.members],
            }
            if data.get("presences"):
                chunk["presences"] = []
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def close_gateways(self, code: int = 1001, reason: str = "fake Discord shutting down") -> None:
        for conn in list(self.connections):
            if not conn.closed:
                try:
                    await asyncio.wait_for(conn.close(code, reason), 3.0)
                except (asyncio.TimeoutError, ConnectionError, RuntimeError):
                    pass
