"""Discord's protocol vocabulary as the fake speaks it: intents, opcodes, interaction types, error answers
in Discord's JSON shape, and the records of what the bot asked (requests, interactions, scripted faults)."""
from __future__ import annotations

import asyncio
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable

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

GUILD_EVENTS_NEEDING_GUILDS = frozenset({
    "GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE", "GUILD_ROLE_CREATE", "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE",
    "CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE", "CHANNEL_PINS_UPDATE", "THREAD_CREATE", "THREAD_UPDATE",
    "THREAD_DELETE", "THREAD_LIST_SYNC", "THREAD_MEMBER_UPDATE", "THREAD_MEMBERS_UPDATE",
})
MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK"})
REACTION_EVENTS = frozenset({"MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE"})


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
    when: Callable[[RecordedRequest], bool] | None = None  # only the calls it holds for (their body)

    def matches(self, method: str, path: str, route: str, call: RecordedRequest | None = None) -> bool:
        if self.method not in ("*", method):
            return False
        if isinstance(self.path, re.Pattern):
            found = self.path.fullmatch(path) is not None
        else:
            found = self.path in (path, route)
        return found and (self.when is None or call is None or self.when(call))


@dataclass
class Hold:
    """A call Discord carries out but answers only once released (or never: the caller killed meanwhile). The test
    control behind a crash "between the call and the save": the thing exists on Discord, the caller never learnt so."""

    method: str
    path: str | re.Pattern[str]
    when: Callable[[RecordedRequest], bool] | None = None
    reached: asyncio.Event = field(default_factory=asyncio.Event)  # set once a call was carried out and held
    released: asyncio.Event = field(default_factory=asyncio.Event)
    held: list[RecordedRequest] = field(default_factory=list)

    def matches(self, method: str, path: str, route: str, call: RecordedRequest) -> bool:
        if self.reached.is_set() or not Fault(self.method, self.path, 0, {}, {}, 1).matches(method, path, route):
            return False
        return self.when is None or self.when(call)

    def release(self) -> None:
        self.released.set()


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


Handler = Callable[[RecordedRequest, dict[str, str]], Awaitable[Reply]]


@dataclass
class Route:
    method: str
    template: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


def route(method: str, template: str, handler: Handler, *, auth: bool = True) -> Route:
    pattern = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")
    return Route(method, template, pattern, handler, auth)


def bucket_hash(method: str, template: str) -> str:
    return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:32]


def major(params: dict[str, str]) -> str:
    for key in ("channel_id", "guild_id"):
        if key in params:
            return params[key]
    if "webhook_id" in params:
        return f"{params['webhook_id']}:{params.get('token', '')}"
    if "interaction_id" in params:
        return params["interaction_id"]
    return ""
