"""The fake's live state and plumbing shared by every REST resource and the gateway: dispatching events to
sessions, the REST entry point (auth, scripted faults, rate limits, recording) and the lookups that answer
with Discord's errors. The resources are mixins over `ServerCore` (rest_*.py, gateway.py); server.py joins them."""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable
from typing import Any, Callable

from aiohttp import BodyPartReader, web

from bot.devdiscord import model, payloads
from bot.devdiscord.gateway_session import GatewayConnection, GatewaySession
from bot.devdiscord.model import Channel, Message, World
from bot.devdiscord.protocol import (
    MESSAGE_CONTENT, PRIVILEGED_INTENTS, ApiError, Fault, Hold, InteractionRecord, RecordedFile, RecordedRequest,
    Reply, Route, bucket_hash, major, unknown,
)


log = logging.getLogger("legatus.devdiscord")


class ServerCore:
    """All of the fake's live state; the resource mixins add the handlers, server.py the routes."""

    # The gateway's handler, which the app routes to; gateway.py's GatewayServer defines it.
    _gateway: Callable[[web.Request], Awaitable[web.StreamResponse]]

    def __init__(self, world: World, *, token: str, app_id: str, heartbeat_interval: float = 41.25,
                 interaction_deadline: float = 3.0, followup_lifetime: float = 15 * 60,
                 rate_limit: tuple[int, float] = (50, 1.0),
                 channel_message_limit: tuple[int, float] | None = (5, 5.0),
                 privileged_intents: int = PRIVILEGED_INTENTS,
                 global_rate_limit: tuple[int, float] | None = (50, 1.0)) -> None:
        self.world = world
        self.token = token
        self.app_id = app_id
        self.heartbeat_interval = heartbeat_interval
        self.interaction_deadline = interaction_deadline
        # Discord's interaction tokens: the initial response within 3 s, follow-ups (webhook) for 15 minutes.
        self.followup_lifetime = followup_lifetime
        self.rate_limit = rate_limit
        # Discord's own per-channel bucket for POST /channels/{id}/messages (5 per 5 s); None: the global one only.
        self.channel_message_limit = channel_message_limit
        # Discord's global limit: 50 requests per second per bot token across every route, interactions' endpoints
        # (authenticated by their own token) excepted; None lifts it.
        self.global_rate_limit = global_rate_limit
        self._global_window: tuple[float, int] = (0.0, 0)
        # The fake's clock is wall time plus what tests skipped with `advance_clock`: thread auto-archiving and
        # interaction-token expiry read it, so a test can jump 15 minutes without waiting.
        self.clock_offset = 0.0
        self.privileged_intents = privileged_intents
        # Discord closes a session that would hold more guilds than this with 4011 "Sharding required", and
        # recommends ceil(guilds / this) shards in GET /gateway/bot. Tests lower it to exercise sharding.
        self.guilds_per_shard = 2500
        self.base_url = ""  # set once the socket is bound: http://host:port
        self.requests: list[RecordedRequest] = []
        self.connections: list[GatewayConnection] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.dispatched: list[tuple[str, dict[str, Any]]] = []
        self.commands: dict[str | None, dict[str, dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        # (channel, author, nonce) -> (message id, when): the messages sent with ``enforce_nonce`` (NONCE_SECONDS).
        self.nonces: dict[tuple[str, str, str], tuple[str, float]] = {}
        # Every attachment made, by id: a slash command's file option belongs to no message but is downloadable.
        self.attachments: dict[str, Any] = {}
        self.faults: list[Fault] = []
        self.holds: list[Hold] = []
        self.listeners: list[Callable[[RecordedRequest], None]] = []
        # Called with ("identify" | "resume" | "close", connection): lets the console say when a bot comes and goes.
        self.gateway_listeners: list[Callable[[str, GatewayConnection], None]] = []
        self._buckets: dict[str, tuple[float, int]] = {}
        self._waiters: set[asyncio.Future[None]] = set()
        self._session_counter = 0
        self._routes = self._build_routes()

    # ---- plumbing ---------------------------------------------------------------------------------------------

    @property
    def gateway_url(self) -> str:
        return self.base_url.replace("http://", "ws://", 1) + "/gateway"

    @property
    def bot_id(self) -> str:
        assert self.world.bot_user is not None
        return self.world.bot_user.id

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment_file)
        app.router.add_route("*", r"/api/{version:v\d+}/{tail:.*}", self._rest)
        return app

    def notify(self) -> None:
        """Wake every `wait_until` so it re-checks its condition."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: timed out after {timeout:g}s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                # Wake on any fake event, but also poll: predicates may watch the bot's own state (its cache,
                # its handlers), which changes without the fake hearing about it.
                await asyncio.wait_for(waiter, min(remaining, 0.02))
            except asyncio.TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)

    def _gateway_event(self, what: str, conn: GatewayConnection) -> None:
        for listener in list(self.gateway_listeners):
            try:
                listener(what, conn)
            except Exception:
                log.exception("gateway listener failed")
        self.notify()

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.connection is not None]

    async def dispatch(self, event: str, data: dict[str, Any], *,
                       per_session: Callable[[GatewaySession], dict[str, Any]] | None = None) -> None:
        """Send a dispatch to every session that would receive it on Discord (intents and shard permitting).
        Sessions without a socket buffer it for their RESUME."""
        self.dispatched.append((event, data))
        for session in list(self.sessions.values()):
            if session.ready and session.wants(event, data):
                await session.dispatch(event, per_session(session) if per_session else data)
        self.notify()

    async def dispatch_message(self, event: str, message: Message) -> None:
        """MESSAGE_CREATE/UPDATE, emptied for sessions without the message content intent, as Discord does for guild
        messages that neither come from nor mention the bot."""
        full = payloads.message_payload(self.world, message, gateway=True)
        hidden = full
        if message.guild_id is not None and message.author_id != self.bot_id and self.bot_id not in message.mentions:
            hidden = payloads.message_payload(self.world, message, gateway=True, strip_content=True)

        def for_session(session: GatewaySession) -> dict[str, Any]:
            return full if session.intents & MESSAGE_CONTENT else hidden

        await self.dispatch(event, full, per_session=for_session)

    def now(self) -> float:
        return time.time() + self.clock_offset

    async def advance_clock(self, seconds: float) -> None:
        self.clock_offset += seconds
        await self.archive_due_threads()
        self.notify()

    async def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive a thread as Discord does when it has been idle for its auto_archive_duration (or a moderator
        archives it): THREAD_UPDATE to the bot."""
        thread.archived, thread.locked = True, locked
        await self.dispatch("THREAD_UPDATE", payloads.thread_payload(self.world, thread))

    async def archive_due_threads(self) -> None:
        now = self.now()
        for channel in list(self.world.channels.values()):
            if not channel.is_thread or channel.archived or channel.deleted:
                continue
            if channel.last_activity is None:
                channel.last_activity = now  # first seen now (seeded directly into the world)
            elif now - channel.last_activity >= channel.auto_archive_duration * 60:
                await self.archive_thread(channel)

    def bot_can(self, channel: Channel, permissions: int) -> bool:
        return self.world.channel_permissions(channel.id, self.bot_id) & permissions == permissions

    def require(self, channel: Channel, permissions: int) -> None:
        """403 Missing Permissions (50013) unless the bot has all of `permissions` in the channel, overwrites
        included."""
        if channel.guild_id is not None and not self.bot_can(channel, permissions):
            raise ApiError(403, 50013, "Missing Permissions")

    # ---- REST entry point ---------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        params: dict[str, str] = {}
        route: Route | None = None
        for candidate in self._routes:
            if candidate.method != method:
                continue
            found = candidate.pattern.match(path)
            if found:
                route, params = candidate, found.groupdict()
                break
        body, files = await self._read_body(request)
        await self.archive_due_threads()
        record = RecordedRequest(
            method=method, path=path, route=route.template if route else path, query=dict(request.query),
            json=body, files=files, at=time.time(),
            headers={k: v for k, v in request.headers.items() if k.lower() in ("user-agent", "x-audit-log-reason")},
        )
        self.requests.append(record)
        headers: dict[str, str] = {}
        try:
            if route is None:
                log.warning("fake Discord has no route for %s %s", method, path)
                raise ApiError(404, 0, "404: Not Found")
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            fault = next((f for f in self.faults if f.matches(method, path, route.template, record)), None)
            if fault is not None:
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                headers.update(fault.headers)
                reply = Reply(fault.status, fault.body)
            elif route.auth and (wait := self._global_wait()) is not None:
                # As Discord answers it: discord.py reads ``global`` in the body and holds every request for
                # ``retry_after`` (its ``_global_over`` event), not only this route's.
                headers.update({"Retry-After": f"{wait:.3f}", "X-RateLimit-Global": "true",
                                "X-RateLimit-Scope": "global", "Via": "1.1 google"})
                reply = Reply(429, {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                                    "global": True})
            else:
                headers.update(self._rate_limit_headers(method, route.template, params))
                if headers.pop("_limited", None):
                    reply = Reply(429, {"message": "You are being rate limited.",
                                        "retry_after": float(headers["Retry-After"]), "global": False})
                else:
                    reply = await route.handler(record, params)
                    await self._hold(method, path, route.template, record, reply)
        except ApiError as exc:
            reply = Reply(exc.status, exc.body())
        record.status, record.response = reply.status, reply.body
        for listener in list(self.listeners):
            try:
                listener(record)
            except Exception:  # a broken listener (e.g. the CLI printer) must not break the bot's call
                log.exception("request listener failed")
        self.notify()
        if reply.body is None and reply.status in (200, 204):
            return web.Response(status=204, headers=headers)
        # discord.py parses JSON only when Content-Type is exactly 'application/json' (no charset), as Discord sends.
        headers["Content-Type"] = "application/json"
        return web.Response(status=reply.status, body=json.dumps(reply.body).encode("utf-8"), headers=headers)

    async def _hold(self, method: str, path: str, template: str, record: RecordedRequest, reply: Reply) -> None:
        """A call done and held (``FakeDiscord.hold_next``): its answer waits until the test releases it."""
        hold = next((h for h in self.holds if h.matches(method, path, template, record)), None)
        if hold is None:
            return
        record.status, record.response = reply.status, reply.body
        hold.held.append(record)
        hold.reached.set()
        self.notify()
        await hold.released.wait()

    def release_holds(self) -> None:
        for hold in self.holds:
            hold.release()

    async def _read_body(self, request: web.Request) -> tuple[Any, list[RecordedFile]]:
        files: list[RecordedFile] = []
        if not request.body_exists:
            return None, files
        if request.content_type.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read(decode=False)
                if part.name == "payload_json":
                    body = json.loads(data.decode("utf-8"))
                elif part.filename is not None:
                    files.append(RecordedFile(field=part.name or "", filename=part.filename,
                                              content_type=part.headers.get("Content-Type", "application/octet-stream"),
                                              data=bytes(data)))
                elif part.name:
                    body = body or {}
                    body[part.name] = data.decode("utf-8")
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw.decode("utf-8")), files
        except ValueError:
            return raw.decode("utf-8", "replace"), files

    def _global_wait(self) -> float | None:
        """None if the bot token may make one more request now; else how long until its window opens again."""
        if self.global_rate_limit is None:
            return None
        limit, per = self.global_rate_limit
        now = time.time()
        start, count = self._global_window
        if now - start >= per:
            start, count = now, 0
        if count >= limit:
            return max(per - (now - start), 0.001)
        self._global_window = (start, count + 1)
        return None

    def _rate_limit_headers(self, method: str, template: str, params: dict[str, str]) -> dict[str, str]:
        limit, per = self.rate_limit
        if self.channel_message_limit is not None and (method, template) == ("POST", "/channels/{channel_id}/messages"):
            limit, per = self.channel_message_limit
        key = f"{method} {template} {major(params)}"
        now = time.time()
        start, count = self._buckets.get(key, (now, 0))
        if now - start >= per:
            start, count = now, 0
        count += 1
        self._buckets[key] = (start, count)
        reset_after = max(per - (now - start), 0.001)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(max(limit - count, 0)),
            "X-RateLimit-Reset": f"{start + per:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(method, template),
        }
        if count > limit:
            # discord.py treats a 429 without a Via header as a Cloudflare ban and gives up instead of retrying.
            headers.update({"Retry-After": f"{reset_after:.3f}", "X-RateLimit-Scope": "user", "Via": "1.1 google",
                            "_limited": "1"})
        return headers

    async def _attachment_file(self, request: web.Request) -> web.StreamResponse:
        loose = self.attachments.get(request.match_info["attachment_id"])
        if loose is not None:
            return web.Response(body=loose.data, content_type=loose.content_type)
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == request.match_info["attachment_id"]:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404, text="no such attachment")

    def _build_routes(self) -> list[Route]:
        raise NotImplementedError  # server.FakeDiscordServer lists them

    # ---- lookups that answer with Discord's errors ---------------------------------------------------------------

    def _channel(self, channel_id: str) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise unknown("Channel", 10003)
        return channel

    def _message(self, channel_id: str, message_id: str) -> Message:
        message = self.world.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel_id or message.ephemeral:
            raise unknown("Message", 10008)
        return message

    def _guild(self, guild_id: str) -> model.Guild:
        guild = self.world.guilds.get(guild_id)
        if guild is None or self.bot_id not in guild.members:
            raise unknown("Guild", 10004)
        return guild

    def _member(self, guild_id: str, user_id: str) -> model.Member:
        member = self._guild(guild_id).members.get(user_id)
        if member is None:
            raise unknown("Member", 10007)
        return member

    def _app(self, params: dict[str, str]) -> None:
        if params["application_id"] != self.app_id:
            raise ApiError(403, 50001, "Missing Access")
