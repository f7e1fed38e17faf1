"""The fake Discord on the wire: an aiohttp application serving Discord's REST API under /api/v{N} and its gateway
websocket under /gateway, close enough to the real thing that an unmodified discord.py client runs against it.

What is emulated on purpose, because a bot that gets it wrong would break in production:
- only `Authorization: Bot <token>` with the configured token is accepted (401 with Discord's error JSON otherwise);
  the gateway closes with 4004 on a bad IDENTIFY token, 4014 on privileged intents that were not granted;
- rate-limit headers on every answer, real 429s past the configured limit (and on demand, see `fail_next`);
- message validation (empty messages, 2000-character content, embed limits, forum channels refusing messages);
- the message content intent: without it a bot sees empty content, embeds and attachments in guild messages that
  do not mention it;
- interactions must be answered within `interaction_deadline` seconds and only once; follow-ups need an answer first;
- the bot's own messages come back to it as MESSAGE_CREATE, as on Discord.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import mimetypes
import re
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable

from aiohttp import BodyPartReader, WSMsgType, web

from bot.devdiscord import model
from bot.devdiscord.model import Attachment, Channel, Message, World

log = logging.getLogger("legatus.devdiscord")

# Gateway intents (https://discord.com/developers/docs/events/gateway#gateway-intents).
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
DIRECT_MESSAGE_REACTIONS = 1 << 13
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE_STATE = 0, 1, 2, 3, 4
OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Interaction and callback types.
INTERACTION_PING, INTERACTION_COMMAND, INTERACTION_COMPONENT, INTERACTION_AUTOCOMPLETE, INTERACTION_MODAL = 1, 2, 3, 4, 5
CALLBACK_PONG, CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE = 1, 4, 5
CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE, CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL = 6, 7, 8, 9

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
ATTACHMENT_SIZE_LIMIT = MAX_UPLOAD_BYTES

_GUILD_EVENTS_NEEDING_GUILDS = frozenset({
    "GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE", "GUILD_ROLE_CREATE", "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE",
    "CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE", "CHANNEL_PINS_UPDATE", "THREAD_CREATE", "THREAD_UPDATE",
    "THREAD_DELETE", "THREAD_LIST_SYNC", "THREAD_MEMBER_UPDATE", "THREAD_MEMBERS_UPDATE",
})
_MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK"})
_REACTION_EVENTS = frozenset({"MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE"})


class ApiError(Exception):
    """An error answer in Discord's JSON shape: {"code", "message"[, "errors"]}."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def form_error(path: Iterable[str], code: str, message: str) -> ApiError:
    """Discord's 50035 'Invalid Form Body', with the nested `errors` tree it uses to point at the field."""
    tree: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(list(path)):
        tree = {key: tree}
    return ApiError(400, 50035, "Invalid Form Body", tree)


def unknown(what: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


@dataclass
class RecordedFile:
    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class RecordedRequest:
    """One REST call as the fake received it. `path` is relative to the API base (e.g. /channels/1/messages);
    `json` is the JSON body, or the `payload_json` part of a multipart upload."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    json: Any
    files: list[RecordedFile]
    headers: dict[str, str]
    at: float
    status: int = 0
    response: Any = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


@dataclass
class Reply:
    status: int = 200
    body: Any = None


@dataclass
class Fault:
    """A scripted failure: the next `times` calls matching method and path get this answer instead."""

    method: str
    path: str | re.Pattern[str]
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int

    def matches(self, method: str, path: str, route: str) -> bool:
        if self.method not in ("*", method):
            return False
        if isinstance(self.path, re.Pattern):
            return self.path.fullmatch(path) is not None
        return self.path in (path, route)


@dataclass
class InteractionRecord:
    """An interaction the fake sent, and everything the bot did with it."""

    id: str
    token: str
    type: int
    payload: dict[str, Any]
    guild_id: str | None
    channel_id: str
    user_id: str
    created: float
    command_name: str | None = None
    source_message_id: str | None = None
    callback: dict[str, Any] | None = None
    callback_type: int | None = None
    original_message_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None


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
        if event in _GUILD_EVENTS_NEEDING_GUILDS:
            return bool(self.intents & GUILDS) if in_guild else bool(self.intents & DIRECT_MESSAGES)
        if event in _MESSAGE_EVENTS:
            return bool(self.intents & (GUILD_MESSAGES if in_guild else DIRECT_MESSAGES))
        if event in _REACTION_EVENTS:
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


Handler = Callable[[RecordedRequest, dict[str, str]], Awaitable[Reply]]


@dataclass
class _Route:
    method: str
    template: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


def _route(method: str, template: str, handler: Handler, *, auth: bool = True) -> _Route:
    pattern = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")
    return _Route(method, template, pattern, handler, auth)


def _bucket_hash(method: str, template: str) -> str:
    return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:32]


def _major(params: dict[str, str]) -> str:
    for key in ("channel_id", "guild_id"):
        if key in params:
            return params[key]
    if "webhook_id" in params:
        return f"{params['webhook_id']}:{params.get('token', '')}"
    if "interaction_id" in params:
        return params["interaction_id"]
    return ""


class FakeDiscordServer:
    """The aiohttp application and all of the fake's live state. `FakeDiscord` (api.py) is the friendlier face."""

    def __init__(self, world: World, *, token: str, app_id: str, heartbeat_interval: float = 41.25,
                 interaction_deadline: float = 3.0, rate_limit: tuple[int, float] = (50, 1.0),
                 privileged_intents: int = PRIVILEGED_INTENTS) -> None:
        self.world = world
        self.token = token
        self.app_id = app_id
        self.heartbeat_interval = heartbeat_interval
        self.interaction_deadline = interaction_deadline
        self.rate_limit = rate_limit
        self.privileged_intents = privileged_intents
        self.base_url = ""  # set once the socket is bound: http://host:port
        self.requests: list[RecordedRequest] = []
        self.connections: list[GatewayConnection] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.dispatched: list[tuple[str, dict[str, Any]]] = []
        self.commands: dict[str | None, dict[str, dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.faults: list[Fault] = []
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
        full = model.message_payload(self.world, message, gateway=True)
        hidden = full
        if message.guild_id is not None and message.author_id != self.bot_id and self.bot_id not in message.mentions:
            hidden = model.message_payload(self.world, message, gateway=True, strip_content=True)

        def for_session(session: GatewaySession) -> dict[str, Any]:
            return full if session.intents & MESSAGE_CONTENT else hidden

        await self.dispatch(event, full, per_session=for_session)

    # ---- REST entry point ---------------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        params: dict[str, str] = {}
        route: _Route | None = None
        for candidate in self._routes:
            if candidate.method != method:
                continue
            found = candidate.pattern.match(path)
            if found:
                route, params = candidate, found.groupdict()
                break
        body, files = await self._read_body(request)
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
            fault = next((f for f in self.faults if f.matches(method, path, route.template)), None)
            if fault is not None:
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                headers.update(fault.headers)
                reply = Reply(fault.status, fault.body)
            else:
                headers.update(self._rate_limit_headers(method, route.template, params))
                if headers.pop("_limited", None):
                    reply = Reply(429, {"message": "You are being rate limited.",
                                        "retry_after": float(headers["Retry-After"]), "global": False})
                else:
                    reply = await route.handler(record, params)
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

    def _rate_limit_headers(self, method: str, template: str, params: dict[str, str]) -> dict[str, str]:
        limit, per = self.rate_limit
        key = f"{method} {template} {_major(params)}"
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
            "X-RateLimit-Bucket": _bucket_hash(method, template),
        }
        if count > limit:
            # discord.py treats a 429 without a Via header as a Cloudflare ban and gives up instead of retrying.
            headers.update({"Retry-After": f"{reset_after:.3f}", "X-RateLimit-Scope": "user", "Via": "1.1 google",
                            "_limited": "1"})
        return headers

    async def _attachment_file(self, request: web.Request) -> web.StreamResponse:
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == request.match_info["attachment_id"]:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404, text="no such attachment")

    # ---- routes -------------------------------------------------------------------------------------------------

    def _build_routes(self) -> list[_Route]:
        r = _route
        return [
            r("GET", "/gateway", self._get_gateway, auth=False),
            r("GET", "/gateway/bot", self._get_gateway_bot),
            r("GET", "/users/@me", self._get_me),
            r("GET", "/users/@me/guilds", self._get_my_guilds),
            r("POST", "/users/@me/channels", self._create_dm),
            r("GET", "/users/{user_id}", self._get_user),
            r("GET", "/oauth2/applications/@me", self._get_application),
            r("GET", "/applications/@me", self._get_application),
            # application commands, global and per guild
            r("GET", "/applications/{application_id}/commands", self._list_commands),
            r("PUT", "/applications/{application_id}/commands", self._put_commands),
            r("POST", "/applications/{application_id}/commands", self._post_command),
            r("GET", "/applications/{application_id}/commands/{command_id}", self._get_command),
            r("PATCH", "/applications/{application_id}/commands/{command_id}", self._patch_command),
            r("DELETE", "/applications/{application_id}/commands/{command_id}", self._delete_command),
            r("GET", "/applications/{application_id}/guilds/{guild_id}/commands/permissions", self._command_perms),
            r("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._list_commands),
            r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands),
            r("POST", "/applications/{application_id}/guilds/{guild_id}/commands", self._post_command),
            r("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", self._get_command),
            r("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", self._patch_command),
            r("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
              self._delete_command),
            # interactions: authenticated by the interaction token in the path, not the bot token
            r("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback, auth=False),
            r("POST", "/webhooks/{webhook_id}/{token}", self._execute_webhook, auth=False),
            r("GET", "/webhooks/{webhook_id}/{token}/messages/{message_id}", self._get_webhook_message, auth=False),
            r("PATCH", "/webhooks/{webhook_id}/{token}/messages/{message_id}", self._edit_webhook_message,
              auth=False),
            r("DELETE", "/webhooks/{webhook_id}/{token}/messages/{message_id}", self._delete_webhook_message,
              auth=False),
            # channels and messages
            r("GET", "/channels/{channel_id}", self._get_channel),
            r("PATCH", "/channels/{channel_id}", self._edit_channel),
            r("DELETE", "/channels/{channel_id}", self._delete_channel),
            r("GET", "/channels/{channel_id}/messages/pins", self._list_pins),
            r("GET", "/channels/{channel_id}/pins", self._list_pins_legacy),
            r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin),
            r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._unpin),
            r("PUT", "/channels/{channel_id}/pins/{message_id}", self._pin),
            r("DELETE", "/channels/{channel_id}/pins/{message_id}", self._unpin),
            r("GET", "/channels/{channel_id}/messages", self._list_messages),
            r("POST", "/channels/{channel_id}/messages", self._create_message),
            r("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete),
            r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction),
            r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._remove_reaction),
            r("POST", "/channels/{channel_id}/typing", self._typing),
            r("POST", "/channels/{channel_id}/threads", self._create_thread),
            r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread_from_message),
            r("GET", "/channels/{channel_id}/threads/archived/public", self._archived_threads),
            r("GET", "/channels/{channel_id}/thread-members", self._list_thread_members),
            r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._join_thread),
            r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._leave_thread),
            # guilds
            r("GET", "/guilds/{guild_id}", self._get_guild),
            r("GET", "/guilds/{guild_id}/channels", self._list_guild_channels),
            r("POST", "/guilds/{guild_id}/channels", self._create_guild_channel),
            r("GET", "/guilds/{guild_id}/threads/active", self._active_threads),
            r("GET", "/guilds/{guild_id}/roles", self._list_roles),
            r("POST", "/guilds/{guild_id}/roles", self._create_role),
            r("GET", "/guilds/{guild_id}/members", self._list_members),
            r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            r("PATCH", "/guilds/{guild_id}/members/{user_id}", self._edit_member),
            r("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._add_member_role),
            r("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._remove_member_role),
        ]

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

    # ---- gateway, users, application -------------------------------------------------------------------------

    async def _get_gateway(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body={"url": self.gateway_url})

    async def _get_gateway_bot(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body={"url": self.gateway_url, "shards": 1,
                           "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000,
                                                   "max_concurrency": 1}})

    async def _get_me(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        assert self.world.bot_user is not None
        return Reply(body=model.self_user_payload(self.world.bot_user))

    async def _get_my_guilds(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guilds = [g for g in self.world.guilds.values() if self.bot_id in g.members]
        return Reply(body=[{"id": g.id, "name": g.name, "icon": None, "banner": None, "owner": False,
                            "permissions": str(self.world.member_permissions(g.id, self.bot_id)),
                            "features": list(g.features)} for g in guilds])

    async def _get_user(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        user = self.world.users.get(params["user_id"])
        if user is None:
            raise unknown("User", 10013)
        return Reply(body=model.user_payload(user))

    async def _create_dm(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        recipient = str((call.json or {}).get("recipient_id", ""))
        if recipient not in self.world.users:
            raise form_error(["recipient_id"], "NUMBER_TYPE_COERCE", f"Value \"{recipient}\" is not snowflake.")
        return Reply(body=model.channel_payload(self.world, self.world.dm_channel(recipient)))

    def application_payload(self) -> dict[str, Any]:
        assert self.world.bot_user is not None
        bot = model.user_payload(self.world.bot_user)
        return {
            "id": self.app_id, "name": self.world.bot_user.username, "icon": None, "description": "",
            "summary": "", "type": None, "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
            "bot": bot, "owner": bot, "team": None, "verify_key": "0" * 64, "flags": 0, "tags": [],
            "redirect_uris": [], "interactions_endpoint_url": None, "integration_types_config": {},
            "approximate_guild_count": len(self.world.guilds),
        }

    async def _get_application(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=self.application_payload())

    # ---- application commands ----------------------------------------------------------------------------------

    def _scope(self, params: dict[str, str]) -> dict[str, dict[str, Any]]:
        self._app(params)
        guild_id = params.get("guild_id")
        if guild_id is not None:
            self._guild(guild_id)
        return self.commands.setdefault(guild_id, {})

    def _command_from_body(self, body: Any, scope: dict[str, dict[str, Any]], guild_id: str | None,
                           index: str | None = None) -> dict[str, Any]:
        where = [index] if index is not None else []
        if not isinstance(body, dict):
            raise form_error(where, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        ctype = int(body.get("type", 1))
        name = str(body.get("name", ""))
        if ctype == 1:
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise form_error([*where, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            description = str(body.get("description", ""))
            if not 1 <= len(description) <= 100:
                raise form_error([*where, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            self._check_options(body.get("options") or [], [*where, "options"], depth=0)
        elif not 1 <= len(name) <= 32:
            raise form_error([*where, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        key = f"{ctype}:{name}"
        previous = scope.get(key)
        command = {
            "id": previous["id"] if previous else self.world.next_id(),
            "application_id": self.app_id,
            "version": self.world.next_id(),
            "type": ctype,
            "name": name,
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations"),
            "options": body.get("options") or [],
            "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types", [0]),
            "nsfw": bool(body.get("nsfw", False)),
        }
        if guild_id is not None:
            command["guild_id"] = guild_id
        return command

    def _check_options(self, options: list[dict[str, Any]], where: list[str], depth: int) -> None:
        if len(options) > 25:
            raise form_error(where, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        seen_optional = False
        for i, option in enumerate(options):
            here = [*where, str(i)]
            name = str(option.get("name", ""))
            if not re.fullmatch(r"[-_\w]{1,32}", name) or name != name.lower():
                raise form_error([*here, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            if not 1 <= len(str(option.get("description", ""))) <= 100:
                raise form_error([*here, "description"], "BASE_TYPE_BAD_LENGTH",
                                 "Must be between 1 and 100 in length.")
            if option.get("type") in (1, 2):
                if depth >= 2 or (option.get("type") == 2 and depth >= 1):
                    raise form_error([*here, "type"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                     "Sub-command and sub-command group option types are mutually exclusive")
                self._check_options(option.get("options") or [], [*here, "options"], depth + 1)
                continue
            if option.get("required"):
                if seen_optional:
                    raise form_error(where, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                     "Required options must be placed before non-required options")
            else:
                seen_optional = True
            if len(option.get("choices") or []) > 25:
                raise form_error([*here, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")

    async def _list_commands(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=list(self._scope(params).values()))

    async def _put_commands(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        scope = self._scope(params)
        body = call.json or []
        if not isinstance(body, list):
            raise form_error([], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        if len([c for c in body if int(c.get("type", 1)) == 1]) > 100:
            raise form_error([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        commands = [self._command_from_body(c, scope, params.get("guild_id"), str(i)) for i, c in enumerate(body)]
        names = [f"{c['type']}:{c['name']}" for c in commands]
        if len(set(names)) != len(names):
            raise ApiError(400, 50035, "Invalid Form Body",
                           {"_errors": [{"code": "APPLICATION_COMMANDS_DUPLICATE_NAME",
                                         "message": "Application command names must be unique"}]})
        scope.clear()
        scope.update({f"{c['type']}:{c['name']}": c for c in commands})
        return Reply(body=commands)

    async def _post_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        scope = self._scope(params)
        command = self._command_from_body(call.json, scope, params.get("guild_id"))
        key = f"{command['type']}:{command['name']}"
        status = 200 if key in scope else 201
        scope[key] = command
        return Reply(status, command)

    def _find_command(self, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        for key, command in self._scope(params).items():
            if command["id"] == params["command_id"]:
                return key, command
        raise unknown("application command", 10063)

    async def _get_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=self._find_command(params)[1])

    async def _patch_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        key, command = self._find_command(params)
        scope = self._scope(params)
        updated = self._command_from_body({**command, **(call.json or {})}, scope, params.get("guild_id"))
        del scope[key]
        scope[f"{updated['type']}:{updated['name']}"] = updated
        return Reply(body=updated)

    async def _delete_command(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        key, _ = self._find_command(params)
        del self._scope(params)[key]
        return Reply(204)

    async def _command_perms(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._scope(params)
        return Reply(body=[])

    def find_registered_command(self, name: str, guild_id: str | None, ctype: int = 1) -> dict[str, Any] | None:
        """Guild commands shadow global ones, as in the Discord client's command picker."""
        for scope in ([guild_id] if guild_id else []) + [None]:
            command = self.commands.get(scope, {}).get(f"{ctype}:{name}")
            if command is not None:
                return command
        return None

    # ---- messages -----------------------------------------------------------------------------------------------

    def make_attachment(self, channel_id: str, filename: str, data: bytes, description: str | None = None) -> Attachment:
        aid = self.world.next_id()
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return Attachment(id=aid, filename=filename, data=data, content_type=content_type,
                          url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}", description=description)

    def _message_fields(self, channel_id: str, body: dict[str, Any], files: list[RecordedFile], *,
                        existing: Message | None = None, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
        """Turn a message body (create, edit, webhook, interaction data) into `Message` fields, refusing what
        Discord refuses."""
        fields: dict[str, Any] = {}
        if "content" in body:
            content = "" if body["content"] is None else str(body["content"])
            if len(content) > 2000:
                raise form_error([*prefix, "content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
            fields["content"] = content
        if "embeds" in body:
            embeds = list(body["embeds"] or [])
            _check_embeds(embeds, prefix)
            fields["embeds"] = [{"type": "rich", **e} for e in embeds]
        if "components" in body:
            fields["components"] = list(body["components"] or [])
        if body.get("flags") is not None:
            fields["flags"] = int(body["flags"])
        if "tts" in body:
            fields["tts"] = bool(body["tts"])
        if body.get("nonce") is not None:
            fields["nonce"] = str(body["nonce"])
        if body.get("poll") is not None:
            fields["poll"] = body["poll"]
        if body.get("sticker_ids"):
            fields["sticker_ids"] = [str(s) for s in body["sticker_ids"]]
        if files or "attachments" in body:
            by_index = {}
            for f in files:
                found = re.fullmatch(r"files\[(\d+)\]", f.field) or re.fullmatch(r"file(\d*)", f.field)
                by_index[found.group(1) or "0" if found else str(len(by_index))] = f
            kept = {a.id: a for a in (existing.attachments if existing else [])}
            attachments: list[Attachment] = []
            used: set[str] = set()
            for entry in body.get("attachments") or []:
                ident = str(entry.get("id"))
                if ident in kept:
                    attachments.append(kept[ident])
                elif ident in by_index:
                    f = by_index[ident]
                    used.add(ident)
                    attachments.append(self.make_attachment(channel_id, entry.get("filename") or f.filename, f.data,
                                                        entry.get("description")))
            for ident, f in by_index.items():
                if ident not in used:
                    attachments.append(self.make_attachment(channel_id, f.filename, f.data))
            if sum(a.size for a in attachments if a.id not in kept) > MAX_UPLOAD_BYTES:
                raise ApiError(413, 40005, "Request entity too large")
            fields["attachments"] = attachments
        return fields

    def _mentions(self, channel: Channel, content: str, body: dict[str, Any],
                  reference: Message | None = None) -> dict[str, Any]:
        users, roles, everyone = model.resolve_mentions(self.world, channel, content, body.get("allowed_mentions"),
                                                       reference.author_id if reference else None)
        return {"mentions": users, "mention_roles": roles, "mention_everyone": everyone}

    def _reference(self, channel: Channel, body: dict[str, Any]) -> tuple[dict[str, Any] | None, Message | None]:
        ref = body.get("message_reference")
        if not ref:
            return None, None
        target = self.world.messages.get(str(ref.get("message_id")))
        ok = target is not None and not target.deleted and not target.ephemeral and (
            target.channel_id == channel.id or ref.get("type") == 1)
        if not ok:
            if ref.get("fail_if_not_exists", True):
                raise form_error(["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
            return None, None
        assert target is not None
        return ({"type": int(ref.get("type", 0)), "message_id": target.id, "channel_id": target.channel_id,
                 "guild_id": target.guild_id}, target)

    def new_message(self, channel: Channel, author_id: str, body: dict[str, Any], files: list[RecordedFile],
                    **extra: Any) -> Message:
        """Validate and store a message from a request body (bot REST call or interaction response)."""
        if channel.type not in model.MESSAGEABLE_TYPES:
            raise ApiError(400, 50008, "Cannot send messages in a non-text channel")
        fields = self._message_fields(channel.id, body, files)
        if not any(fields.get(k) for k in ("content", "embeds", "attachments", "sticker_ids", "poll", "components")) \
                and not extra.get("flags", 0) & model.FLAG_LOADING:
            raise ApiError(400, 50006, "Cannot send an empty message")
        reference, target = self._reference(channel, body)
        fields.update(self._mentions(channel, fields.get("content", ""), body, target))
        if reference is not None:
            fields.update(message_reference=reference, type=model.MESSAGE_REPLY)
        body_flags = fields.pop("flags", 0)
        fields.update(extra)
        fields["flags"] = body_flags | extra.get("flags", 0)
        return self.world.add_message(channel.id, author_id, **fields)

    async def publish_new_message(self, message: Message) -> None:
        channel = self.world.channels[message.channel_id]
        if channel.is_thread and channel.archived and not channel.locked:
            channel.archived = False  # Discord unarchives a thread when someone posts in it
            await self.dispatch("THREAD_UPDATE", model.thread_payload(self.world, channel))
        if not message.ephemeral:
            await self.dispatch_message("MESSAGE_CREATE", message)

    def edit_fields(self, message: Message, body: dict[str, Any], files: list[RecordedFile]) -> None:
        fields = self._message_fields(message.channel_id, body, files, existing=message)
        if "flags" in fields:
            # Only the suppress-embeds bit can be changed by an edit; the loading/ephemeral bits are Discord's.
            fields["flags"] = (message.flags & ~4) | (fields["flags"] & 4)
        for key, value in fields.items():
            setattr(message, key, value)
        if "content" in fields:
            channel = self.world.channels[message.channel_id]
            for key, value in self._mentions(channel, message.content, body).items():
                setattr(message, key, value)
        message.flags &= ~model.FLAG_LOADING
        message.edited_timestamp = model.iso(self.world.next_id())

    async def _list_messages(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        limit = max(1, min(100, int(call.query.get("limit", 50))))
        messages = sorted(self.world.channel_messages(channel.id), key=lambda m: int(m.id), reverse=True)
        if "before" in call.query:
            messages = [m for m in messages if int(m.id) < int(call.query["before"])]
        if "after" in call.query:
            messages = sorted((m for m in messages if int(m.id) > int(call.query["after"])), key=lambda m: int(m.id))
            messages = list(reversed(messages[:limit]))
        return Reply(body=[model.message_payload(self.world, m) for m in messages[:limit]])

    async def _get_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        return Reply(body=model.message_payload(self.world, self._message(params["channel_id"], params["message_id"])))

    async def _create_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        message = self.new_message(channel, self.bot_id, call.json or {}, call.files)
        await self.publish_new_message(message)
        return Reply(body=model.message_payload(self.world, message))

    async def _edit_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        message = self._message(params["channel_id"], params["message_id"])
        body = call.json or {}
        if message.author_id != self.bot_id and set(body) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.edit_fields(message, body, call.files)
        await self.dispatch_message("MESSAGE_UPDATE", message)
        return Reply(body=model.message_payload(self.world, message))

    async def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data = {"id": message.id, "channel_id": message.channel_id}
            if message.guild_id:
                data["guild_id"] = message.guild_id
            await self.dispatch("MESSAGE_DELETE", data)

    async def _delete_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        await self.delete_message(self._message(params["channel_id"], params["message_id"]))
        return Reply(204)

    async def _bulk_delete(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        ids = [str(i) for i in (call.json or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise form_error(["messages"], "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100 in length.")
        for mid in ids:
            self._message(channel.id, mid).deleted = True
        data: dict[str, Any] = {"ids": ids, "channel_id": channel.id}
        if channel.guild_id:
            data["guild_id"] = channel.guild_id
        await self.dispatch("MESSAGE_DELETE_BULK", data)
        return Reply(204)

    def _emoji(self, raw: str) -> tuple[str, dict[str, Any]]:
        name, _, eid = raw.partition(":")
        return raw, {"id": eid or None, "name": name}

    async def _add_reaction(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        message = self._message(self._channel(params["channel_id"]).id, params["message_id"])
        key, emoji = self._emoji(params["emoji"])
        users = message.reactions.setdefault(key, [])
        if self.bot_id not in users:
            users.append(self.bot_id)
            await self.dispatch("MESSAGE_REACTION_ADD", self._reaction_event(message, emoji))
        return Reply(204)

    async def _remove_reaction(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        message = self._message(self._channel(params["channel_id"]).id, params["message_id"])
        key, emoji = self._emoji(params["emoji"])
        if self.bot_id in message.reactions.get(key, []):
            message.reactions[key].remove(self.bot_id)
            await self.dispatch("MESSAGE_REACTION_REMOVE", self._reaction_event(message, emoji))
        return Reply(204)

    def _reaction_event(self, message: Message, emoji: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {"user_id": self.bot_id, "channel_id": message.channel_id, "message_id": message.id,
                                "emoji": emoji, "burst": False, "type": 0, "message_author_id": message.author_id}
        if message.guild_id:
            data["guild_id"] = message.guild_id
        return data

    async def _typing(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        return Reply(204)

    async def _pin(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        message = self._message(channel.id, params["message_id"])
        message.pinned = True
        await self._pins_update(channel)
        return Reply(204)

    async def _unpin(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        self._message(channel.id, params["message_id"]).pinned = False
        await self._pins_update(channel)
        return Reply(204)

    async def _pins_update(self, channel: Channel) -> None:
        data: dict[str, Any] = {"channel_id": channel.id, "last_pin_timestamp": model.iso(self.world.next_id())}
        if channel.guild_id:
            data["guild_id"] = channel.guild_id
        await self.dispatch("CHANNEL_PINS_UPDATE", data)

    def _pinned(self, channel_id: str) -> list[Message]:
        return [m for m in self.world.channel_messages(channel_id) if m.pinned]

    async def _list_pins(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        return Reply(body={"items": [{"pinned_at": m.timestamp, "message": model.message_payload(self.world, m)}
                                     for m in self._pinned(channel.id)], "has_more": False})

    async def _list_pins_legacy(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        return Reply(body=[model.message_payload(self.world, m) for m in self._pinned(channel.id)])

    # ---- channels and threads -----------------------------------------------------------------------------------

    async def _get_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=model.channel_payload(self.world, self._channel(params["channel_id"])))

    async def _edit_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        body = call.json or {}
        for key in ("name", "topic", "nsfw", "rate_limit_per_user", "archived", "locked", "auto_archive_duration",
                    "invitable", "position", "parent_id"):
            if key in body:
                setattr(channel, key, body[key])
        if "applied_tags" in body:
            channel.applied_tags = [str(t) for t in body["applied_tags"] or []]
        data = model.channel_payload(self.world, channel)
        await self.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return Reply(body=data)

    async def _delete_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        data = model.channel_payload(self.world, channel)
        channel.deleted = True
        if channel.is_thread:
            await self.dispatch("THREAD_DELETE", {"id": channel.id, "guild_id": channel.guild_id,
                                                  "parent_id": channel.parent_id, "type": channel.type})
        elif channel.type != model.DM:
            await self.dispatch("CHANNEL_DELETE", data)
        return Reply(body=data)

    async def publish_thread(self, thread: Channel) -> None:
        data = {**model.thread_payload(self.world, thread, member_for=self.bot_id), "newly_created": True}
        await self.dispatch("THREAD_CREATE", data)

    async def _create_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        body = call.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if parent.type == model.GUILD_FORUM:
            if not isinstance(body.get("message"), dict):
                raise form_error(["message"], "BASE_TYPE_REQUIRED", "This field is required")
            tags = [str(t) for t in body.get("applied_tags") or []]
            known = {t["id"] for t in parent.available_tags}
            if any(t not in known for t in tags):
                raise form_error(["applied_tags"], "INVALID_FORUM_TAG", "Unknown forum tag")
            thread_id = self.world.next_id()
            # The starter message is validated before the thread exists, so a refused post leaves nothing behind.
            probe = Channel(id=thread_id, type=model.PUBLIC_THREAD, name=name, guild_id=parent.guild_id)
            self.world.channels[thread_id] = probe
            try:
                fields = self._message_fields(thread_id, body["message"], call.files, prefix=("message",))
            finally:
                del self.world.channels[thread_id]
            if not any(fields.get(k) for k in ("content", "embeds", "attachments", "sticker_ids", "components")):
                raise ApiError(400, 50006, "Cannot send an empty message")
            thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, thread_id=thread_id,
                                           applied_tags=tags,
                                           auto_archive_duration=int(body.get("auto_archive_duration") or 4320))
            thread.rate_limit_per_user = int(body.get("rate_limit_per_user") or 0)
            fields.update(self._mentions(thread, fields.get("content", ""), body["message"]))
            starter = self.world.add_message(thread.id, self.bot_id, id=thread.id, **fields)
            await self.publish_thread(thread)
            await self.dispatch_message("MESSAGE_CREATE", starter)
            return Reply(201, {**model.thread_payload(self.world, thread, member_for=self.bot_id),
                               "message": model.message_payload(self.world, starter)})
        if parent.type not in (model.GUILD_TEXT, model.GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ttype = int(body.get("type") or model.PRIVATE_THREAD)
        if ttype not in model.THREAD_TYPES:
            raise form_error(["type"], "BASE_TYPE_CHOICES", f"Value must be one of {sorted(model.THREAD_TYPES)}.")
        thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, type=ttype,
                                       auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        thread.invitable = bool(body.get("invitable", True))
        await self.publish_thread(thread)
        return Reply(201, model.thread_payload(self.world, thread, member_for=self.bot_id))

    async def _create_thread_from_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        message = self._message(parent.id, params["message_id"])
        if parent.type not in (model.GUILD_TEXT, model.GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body = call.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        ttype = model.ANNOUNCEMENT_THREAD if parent.type == model.GUILD_ANNOUNCEMENT else model.PUBLIC_THREAD
        thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, type=ttype, thread_id=message.id,
                                       auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        message.thread_id = thread.id
        await self.publish_thread(thread)
        return Reply(201, model.thread_payload(self.world, thread, member_for=self.bot_id))

    async def _archived_threads(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        threads = [c for c in self.world.channels.values()
                   if c.parent_id == parent.id and c.is_thread and c.archived and not c.deleted]
        return Reply(body={"threads": [model.thread_payload(self.world, t) for t in threads], "members": [],
                           "has_more": False})

    async def _list_thread_members(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        return Reply(body=[{"id": thread.id, "user_id": u, "join_timestamp": model.iso(thread.id), "flags": 0}
                           for u in thread.thread_members])

    async def _join_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        user_id = self.bot_id if params["user_id"] == "@me" else params["user_id"]
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if user_id not in thread.thread_members:
            thread.thread_members.append(user_id)
        return Reply(204)

    async def _leave_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        user_id = self.bot_id if params["user_id"] == "@me" else params["user_id"]
        if user_id in thread.thread_members:
            thread.thread_members.remove(user_id)
        return Reply(204)

    # ---- guilds ---------------------------------------------------------------------------------------------------

    async def _get_guild(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=model.guild_payload(self.world, self._guild(params["guild_id"])))

    async def _list_guild_channels(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        return Reply(body=[model.channel_payload(self.world, c) for c in self.world.guild_channels(guild.id)
                           if not c.is_thread])

    async def _create_guild_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        body = call.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        ctype = int(body.get("type") or 0)
        parent = str(body["parent_id"]) if body.get("parent_id") else None
        if ctype == model.GUILD_FORUM:
            channel = self.world.add_forum_channel(guild.id, name, topic=body.get("topic"), parent_id=parent)
        elif ctype == model.GUILD_CATEGORY:
            channel = self.world.add_category(guild.id, name)
        elif ctype == model.GUILD_TEXT:
            channel = self.world.add_text_channel(guild.id, name, topic=body.get("topic"), parent_id=parent)
        else:
            raise form_error(["type"], "BASE_TYPE_CHOICES", "Value must be one of (0, 4, 15).")
        channel.permission_overwrites = list(body.get("permission_overwrites") or [])
        data = model.channel_payload(self.world, channel)
        await self.dispatch("CHANNEL_CREATE", data)
        return Reply(201, data)

    async def _active_threads(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        threads = [c for c in self.world.guild_channels(guild.id) if c.is_thread and not c.archived]
        return Reply(body={"threads": [model.thread_payload(self.world, t) for t in threads], "members": []})

    async def _list_roles(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        return Reply(body=[model.role_payload(self.world.roles[r]) for r in guild.roles])

    async def _create_role(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        body = call.json or {}
        role = self.world.add_role(guild.id, str(body.get("name") or "new role"),
                                   permissions=int(body.get("permissions") or 0), color=int(body.get("color") or 0),
                                   hoist=bool(body.get("hoist")), mentionable=bool(body.get("mentionable")))
        data = model.role_payload(role)
        await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": guild.id, "role": data})
        return Reply(body=data)

    async def _list_members(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        limit = max(1, min(1000, int(call.query.get("limit", 1))))
        after = int(call.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if int(m.user_id) > after), key=lambda m: int(m.user_id))
        return Reply(body=[model.member_payload(self.world, m) for m in members[:limit]])

    async def _get_member(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=model.member_payload(self.world, self._member(params["guild_id"], params["user_id"])))

    async def _member_update(self, member: model.Member) -> None:
        await self.dispatch("GUILD_MEMBER_UPDATE",
                            {**model.member_payload(self.world, member), "guild_id": member.guild_id})

    async def _edit_member(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        member = self._member(params["guild_id"], params["user_id"])
        body = call.json or {}
        if "nick" in body:
            member.nick = body["nick"]
        if "roles" in body:
            member.roles = [self._role(member.guild_id, str(r)) for r in body["roles"] or []]
        await self._member_update(member)
        return Reply(body=model.member_payload(self.world, member))

    def _role(self, guild_id: str, role_id: str) -> str:
        if role_id not in self._guild(guild_id).roles or role_id == guild_id:
            raise unknown("Role", 10011)
        return role_id

    async def _add_member_role(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        member = self._member(params["guild_id"], params["user_id"])
        role_id = self._role(member.guild_id, params["role_id"])
        if role_id not in member.roles:
            member.roles.append(role_id)
            await self._member_update(member)
        return Reply(204)

    async def _remove_member_role(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        member = self._member(params["guild_id"], params["user_id"])
        role_id = self._role(member.guild_id, params["role_id"])
        if role_id in member.roles:
            member.roles.remove(role_id)
            await self._member_update(member)
        return Reply(204)

    # ---- interactions -------------------------------------------------------------------------------------------

    def _interaction(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise unknown("interaction", 10062)
        return record

    def _interaction_by_token(self, webhook_id: str, token: str) -> InteractionRecord:
        if webhook_id != self.app_id:
            raise unknown("Webhook", 10015)
        for record in self.interactions.values():
            if record.token == token:
                return record
        raise unknown("Webhook", 10015)

    def _interaction_message(self, record: InteractionRecord, body: dict[str, Any], files: list[RecordedFile],
                             *, flags: int = 0) -> Message:
        channel = self._channel(record.channel_id)
        user = model.user_payload(self.world.users[record.user_id])
        owners = {"0": record.guild_id} if record.guild_id else {"1": record.user_id}
        metadata = {"id": record.id, "type": record.type, "user": user, "authorizing_integration_owners": owners}
        ephemeral = bool((int(body.get("flags") or 0) | flags) & model.FLAG_EPHEMERAL)
        return self.new_message(
            channel, self.bot_id, body, files, flags=flags,
            type=model.MESSAGE_CHAT_INPUT_COMMAND if record.type == INTERACTION_COMMAND else model.MESSAGE_DEFAULT,
            application_id=self.app_id, webhook_id=self.app_id, interaction_metadata=metadata,
            interaction_name=record.command_name, ephemeral=ephemeral,
        )

    async def _interaction_callback(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction(params["interaction_id"], params["token"])
        if record.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if asyncio.get_running_loop().time() - record.created > self.interaction_deadline:
            raise unknown("interaction", 10062)  # Discord forgets an interaction not answered within 3 seconds
        body = call.json or {}
        ctype = int(body.get("type", 0))
        data = body.get("data") or {}
        message: Message | None = None
        if ctype == CALLBACK_MESSAGE:
            message = self._interaction_message(record, data, call.files)
            record.original_message_id = message.id
        elif ctype == CALLBACK_DEFERRED_MESSAGE:
            message = self._interaction_message(record, {"content": ""}, [],
                                                flags=model.FLAG_LOADING | (int(data.get("flags") or 0) & 64))
            record.original_message_id = message.id
        elif ctype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE_MESSAGE):
            if record.source_message_id is None:
                raise ApiError(400, 40061, "Interaction has no message to update")
            message = self.world.messages[record.source_message_id]
            record.original_message_id = message.id
            if ctype == CALLBACK_UPDATE_MESSAGE:
                self.edit_fields(message, data, call.files)
        elif ctype == CALLBACK_AUTOCOMPLETE:
            if record.type != INTERACTION_AUTOCOMPLETE:
                raise ApiError(400, 50035, "Invalid Form Body")
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise form_error(["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            record.choices = choices
        elif ctype == CALLBACK_MODAL:
            record.modal = data
        elif ctype != CALLBACK_PONG or record.type != INTERACTION_PING:
            raise form_error(["type"], "BASE_TYPE_CHOICES", "Value must be one of (4, 5, 6, 7, 8, 9, 10, 12).")
        record.callback, record.callback_type = body, ctype
        if message is not None:
            if ctype == CALLBACK_UPDATE_MESSAGE:
                await self.dispatch_message("MESSAGE_UPDATE", message)
            elif ctype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
                await self.publish_new_message(message)
        self.notify()
        if call.query.get("with_response") not in ("1", "true", "True"):
            return Reply(204)
        interaction: dict[str, Any] = {"id": record.id, "type": record.type}
        response: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction.update(response_message_id=message.id,
                               response_message_loading=bool(message.flags & model.FLAG_LOADING),
                               response_message_ephemeral=message.ephemeral)
            response["resource"] = {"type": ctype, "message": model.message_payload(self.world, message)}
        return Reply(body=response)

    def _webhook_target(self, record: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            message_id = record.original_message_id or ""
        elif message_id not in record.followup_ids and message_id != record.original_message_id:
            raise unknown("Message", 10008)
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise unknown("Message", 10008)
        return message

    async def _execute_webhook(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        if record.callback is None:
            raise unknown("Webhook", 10015)  # no follow-up before the interaction is answered
        body = call.json or {}
        original = self.world.messages.get(record.original_message_id or "")
        if original is not None and original.flags & model.FLAG_LOADING and not original.deleted:
            # After a deferral Discord turns the first follow-up into the original ("thinking...") message.
            self.edit_fields(original, body, call.files)
            message = original
            if not message.ephemeral:
                await self.dispatch_message("MESSAGE_UPDATE", message)
        else:
            message = self._interaction_message(record, body, call.files)
            record.followup_ids.append(message.id)
            await self.publish_new_message(message)
        self.notify()
        if call.query.get("wait") not in ("1", "true", "True"):
            return Reply(204)
        return Reply(body=model.message_payload(self.world, message))

    async def _get_webhook_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        return Reply(body=model.message_payload(self.world, self._webhook_target(record, params["message_id"])))

    async def _edit_webhook_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        message = self._webhook_target(record, params["message_id"])
        self.edit_fields(message, call.json or {}, call.files)
        if not message.ephemeral:
            await self.dispatch_message("MESSAGE_UPDATE", message)
        self.notify()
        return Reply(body=model.message_payload(self.world, message))

    async def _delete_webhook_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        await self.delete_message(self._webhook_target(record, params["message_id"]))
        return Reply(204)

    def interaction_payload(self, record: InteractionRecord, data: dict[str, Any] | None,
                            message: Message | None = None) -> dict[str, Any]:
        """INTERACTION_CREATE's `d`: everything discord.py's Interaction reads, including the fields it indexes
        without a default (token, version, application_id, attachment_size_limit)."""
        channel = self.world.channels[record.channel_id]
        user = self.world.users[record.user_id]
        payload: dict[str, Any] = {
            "id": record.id,
            "application_id": self.app_id,
            "type": record.type,
            "token": record.token,
            "version": 1,
            "channel_id": channel.id,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if data is not None:
            payload["data"] = data
        if record.guild_id is not None:
            guild = self.world.guilds[record.guild_id]
            permissions = str(self.world.member_permissions(guild.id, user.id))
            member = {**model.member_payload(self.world, guild.members[user.id]), "permissions": permissions}
            payload.update(
                guild_id=guild.id, guild_locale=guild.preferred_locale,
                guild={"id": guild.id, "locale": guild.preferred_locale, "features": list(guild.features)},
                channel={**model.channel_payload(self.world, channel), "permissions": permissions},
                member=member, app_permissions=str(self.world.member_permissions(guild.id, self.bot_id)),
                authorizing_integration_owners={"0": guild.id}, context=0,
            )
        else:
            payload.update(user=model.user_payload(user), channel=model.channel_payload(self.world, channel),
                           app_permissions=str(model.EVERYONE_PERMISSIONS),
                           authorizing_integration_owners={"0": "0"}, context=1)
        if message is not None:
            payload["message"] = model.message_payload(self.world, message)
        return payload

    async def create_interaction(self, itype: int, *, guild_id: str | None, channel_id: str, user_id: str,
                                 data: dict[str, Any] | None, command_name: str | None = None,
                                 message: Message | None = None) -> InteractionRecord:
        iid = self.world.next_id()
        token = "aW50ZXJhY3Rpb246" + base64.urlsafe_b64encode(f"{iid}:devdiscord".encode()).decode().rstrip("=")
        record = InteractionRecord(id=iid, token=token, type=itype, payload={}, guild_id=guild_id,
                                   channel_id=channel_id, user_id=user_id, created=asyncio.get_running_loop().time(),
                                   command_name=command_name, source_message_id=message.id if message else None)
        record.payload = self.interaction_payload(record, data, message)
        self.interactions[iid] = record
        await self.dispatch("INTERACTION_CREATE", record.payload)
        return record

    # ---- gateway --------------------------------------------------------------------------------------------------

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
        ready: dict[str, Any] = {
            "v": int(conn.version) if conn.version.isdigit() else 10,
            "user": model.self_user_payload(self.world.bot_user),
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
            payload = model.guild_create_payload(self.world, guild, include_members=include_members)
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
                "guild_id": guild.id, "members": [model.member_payload(self.world, m) for m in members],
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


_EMBED_LIMITS = (("title", 256), ("description", 4096))


def _check_embeds(embeds: list[dict[str, Any]], prefix: tuple[str, ...]) -> None:
    """Discord's embed limits: 10 embeds, 256/4096 title/description, 25 fields of 256/1024, 6000 in all."""
    if len(embeds) > 10:
        raise form_error([*prefix, "embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        where = [*prefix, "embeds", str(i)]
        for key, limit in _EMBED_LIMITS:
            value = str(embed.get(key) or "")
            total += len(value)
            if len(value) > limit:
                raise form_error([*where, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            value = str((embed.get(key) or {}).get(sub) or "")
            total += len(value)
            if len(value) > limit:
                raise form_error([*where, key, sub], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise form_error([*where, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                value = str(f.get(key) or "")
                total += len(value)
                if not value:
                    raise form_error([*where, "fields", str(j), key], "BASE_TYPE_REQUIRED", "This field is required")
                if len(value) > limit:
                    raise form_error([*where, "fields", str(j), key], "BASE_TYPE_MAX_LENGTH",
                                     f"Must be {limit} or fewer in length.")
    if total > 6000:
        raise form_error([*prefix, "embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
