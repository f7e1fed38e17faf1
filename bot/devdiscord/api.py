"""What tests (and `legatus dev-discord`) use: `FakeDiscord`, a running fake Discord with helpers to act as users and
to wait for what the bot does, plus the two switches that point discord.py at it.

    async with FakeDiscord.start() as fake:
        dev = seed_dev_world(fake.world)
        with point_discord_py(fake.api_base):
            ...start the bot with fake.token...
            await fake.wait_for_bot()
            said = await fake.user_says("mare-nostrum", "alice", "build temple in Latium")
            answer = await fake.wait_for_message("mare-nostrum", since=said["id"])
"""
from __future__ import annotations

import base64
import contextlib
import re
from datetime import datetime
from typing import Any, AsyncIterator, Callable, Iterable, Iterator, Mapping

from aiohttp import web

from bot.devdiscord import mentions, model, payloads
from bot.devdiscord.model import Channel, Message, World
from bot.devdiscord.gateway_session import GatewayConnection, GatewaySession
from bot.devdiscord.protocol import (
    INTERACTION_AUTOCOMPLETE, INTERACTION_COMMAND, INTERACTION_COMPONENT, PRIVILEGED_INTENTS, ApiError, Fault, Hold,
    RecordedRequest,
)
from bot.devdiscord.invocation import Invocation
from bot.devdiscord.server import FakeDiscordServer

OptionValue = str | int | float | bool | tuple[str, bytes]

# Application command option types.
_SUBCOMMAND, _GROUP, _STRING, _INTEGER, _BOOLEAN, _USER, _CHANNEL, _ROLE, _MENTIONABLE, _NUMBER, _ATTACHMENT = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)


# ---- pointing discord.py at the fake --------------------------------------------------------------------------------


@contextlib.contextmanager
def point_discord_py(api_base: str, gateway_url: str | None = None) -> Iterator[None]:
    """Set discord.py's REST base (and optionally its gateway) for the duration of the block, then restore them.

    Both are class attributes, hence process-wide: one fake per process at a time. discord.Client never asks
    GET /gateway/bot (only AutoShardedClient does); it dials `DiscordWebSocket.DEFAULT_GATEWAY`. Give
    `gateway_url` here, or call `adopt_bot_gateway(client)` from `setup_hook`, which works against real Discord too.
    """
    import discord.http
    import yarl
    from discord.gateway import DiscordWebSocket

    old_base, old_gateway = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url is not None:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


async def adopt_bot_gateway(client: Any) -> str:
    """Ask the API (GET /gateway/bot) where the gateway is and make discord.py connect there. Call it after login,
    i.e. in `setup_hook`; against real Discord it just confirms wss://gateway.discord.gg."""
    import yarl
    from discord.gateway import DiscordWebSocket

    _, url, _ = await client.http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return str(url)


# ---- interactions as a test sees them -----------------------------------------------------------------------------


# ---- the fake ------------------------------------------------------------------------------------------------------


class FakeDiscord:
    """A fake Discord (REST + gateway) on a local port, with the world it serves and a record of every call."""

    def __init__(self, *, world: World | None = None, token: str | None = None, bot_name: str = "Legatus",
                 heartbeat_interval: float = 41.25, interaction_deadline: float = 3.0,
                 followup_lifetime: float = 15 * 60, rate_limit: tuple[int, float] = (50, 1.0),
                 channel_message_limit: tuple[int, float] | None = (5, 5.0),
                 privileged_intents: int = PRIVILEGED_INTENTS, start: datetime | None = None,
                 global_rate_limit: tuple[int, float] | None = (50, 1.0), ids_follow_clock: bool = False) -> None:
        """`start`: the logical clock's origin (snowflake times, message timestamps); default 2026-01-01 UTC.
        Ids advance it by 1 ms each, so the same seeding gives the same ids and the same default token.
        `ids_follow_clock`: ids made once the server runs are never behind the fake's clock (wall time plus
        `advance_clock`), as Discord's are its time: for a bot that reads history since a moment.

        As strict as Discord: `interaction_deadline` (3 s) for the first answer to an interaction, then 10062;
        `followup_lifetime` (15 min) for follow-ups with its token, then 401/50027; `rate_limit` per route and
        channel/guild, and `channel_message_limit` (5 messages per 5 s per channel, None to lift it), and
        `global_rate_limit` (50 requests per second per bot token across all routes, interactions excepted)."""
        self.world = world or World(model.SnowflakeGenerator(start) if start else None)
        if self.world.bot_user is None:
            self.world.bot_user = self.world.add_user(bot_name, bot=True)
        app_id = self.world.bot_user.id  # on Discord a bot's user id is its application id
        self.token = token or (base64.urlsafe_b64encode(app_id.encode()).decode().rstrip("=")
                               + ".devdiscord.not-a-real-token")
        self.server = FakeDiscordServer(self.world, token=self.token, app_id=app_id,
                                        heartbeat_interval=heartbeat_interval,
                                        interaction_deadline=interaction_deadline,
                                        followup_lifetime=followup_lifetime, rate_limit=rate_limit,
                                        channel_message_limit=channel_message_limit,
                                        privileged_intents=privileged_intents,
                                        global_rate_limit=global_rate_limit)
        if ids_follow_clock:
            self.world.ids.follow(self.server.now)
        self._runner: web.AppRunner | None = None
        self.host = ""
        self.port = 0

    # ---- lifecycle --------------------------------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, host: str = "127.0.0.1", port: int = 0, **options: Any) -> AsyncIterator[FakeDiscord]:
        """Serve on host:port (0 = any free port) for the duration of the block."""
        fake = cls(**options)
        await fake.open(host, port)
        try:
            yield fake
        finally:
            await fake.close()

    async def open(self, host: str = "127.0.0.1", port: int = 0) -> None:
        runner = web.AppRunner(self.server.make_app(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        self._runner = runner
        self.host, self.port = host, runner.addresses[0][1]
        self.server.base_url = f"http://{self.host}:{self.port}"

    async def close(self) -> None:
        self.server.release_holds()
        await self.server.close_gateways()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- addresses and records -------------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def api_base(self) -> str:
        """What discord.py's Route.BASE must be set to (DISCORD_API_BASE)."""
        return f"{self.server.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.server.gateway_url

    @property
    def app_id(self) -> str:
        return self.server.app_id

    @property
    def bot_user(self) -> model.User:
        assert self.world.bot_user is not None
        return self.world.bot_user

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST call received, in order, including refused ones."""
        return self.server.requests

    @property
    def events(self) -> list[tuple[str, dict[str, Any]]]:
        """Every gateway dispatch the fake produced (event name, data), whoever received it."""
        return self.server.dispatched

    @property
    def connections(self) -> list[GatewayConnection]:
        return self.server.connections

    @property
    def sessions(self) -> list[GatewaySession]:
        return list(self.server.sessions.values())

    @property
    def registered_commands(self) -> list[dict[str, Any]]:
        """Every application command the bot registered; guild commands carry `guild_id`."""
        return [c for scope in self.server.commands.values() for c in scope.values()]

    def command(self, name: str, guild_id: str | None = None) -> dict[str, Any] | None:
        return self.server.find_registered_command(name, guild_id)

    def requests_to(self, method: str, path: str | re.Pattern[str]) -> list[RecordedRequest]:
        """Calls by method and path: a concrete path, a route template such as '/channels/{channel_id}/messages',
        or a compiled regex matched against the concrete path."""
        def match(r: RecordedRequest) -> bool:
            if isinstance(path, re.Pattern):
                return path.fullmatch(r.path) is not None
            return path in (r.path, r.route)

        return [r for r in self.server.requests if r.method == method and match(r)]

    def on_request(self, listener: Callable[[RecordedRequest], None]) -> None:
        """Call `listener` after every REST call (the CLI prints them)."""
        self.server.listeners.append(listener)

    # ---- world lookups ----------------------------------------------------------------------------------------

    def channel(self, key: str) -> Channel:
        """A channel by id or name ('#' optional)."""
        return self.world.channel(key)

    def user(self, key: str) -> model.User:
        return self.world.user(key)

    def messages_in(self, channel: str, *, include_ephemeral: bool = False) -> list[dict[str, Any]]:
        """The channel's messages, oldest first, as REST returns them."""
        channel_id = self.channel(channel).id
        messages = self.world.channel_messages(channel_id, include_ephemeral=include_ephemeral)
        positions = payloads.thread_positions(self.world, channel_id)
        return [payloads.message_payload(self.world, m, positions=positions)
                for m in sorted(messages, key=lambda m: int(m.id))]

    def view_of(self, user: str, channel: str) -> list[dict[str, Any]]:
        """What ``user`` can read in ``channel`` now, oldest first: its messages (a deleted one is gone for
        everyone) and the ephemeral answers to that user's own interactions, never another user's."""
        reader = self.user(user).id
        channel_id = self.channel(channel).id
        messages = [m for m in self.world.channel_messages(channel_id, include_ephemeral=True)
                    if not m.ephemeral or str((m.interaction_metadata or {}).get("user", {}).get("id")) == reader]
        positions = payloads.thread_positions(self.world, channel_id)
        return [payloads.message_payload(self.world, m, positions=positions)
                for m in sorted(messages, key=lambda m: int(m.id))]

    # ---- waiting ------------------------------------------------------------------------------------------------

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition") -> Any:
        """Re-check `predicate` after every REST call and gateway event until it returns something truthy."""
        return await self.server.wait_until(predicate, timeout, what)

    async def wait_for_bot(self, timeout: float = 5.0) -> GatewaySession:
        """Until a bot has identified and been sent its guilds (it may still be waiting to fire on_ready)."""
        return await self.wait_until(
            lambda: next((s for s in self.server.sessions.values() if s.ready and s.connection), None),
            timeout, "a bot to connect to the gateway and IDENTIFY")

    async def wait_for_message(self, channel: str, predicate: Callable[[dict[str, Any]], bool] | None = None, *,
                               timeout: float = 5.0, since: str | None = None,
                               author: str | None = None) -> dict[str, Any]:
        """The first message in `channel` (after message id `since`, if given) by `author` (default: the bot) that
        satisfies `predicate`. The channel may not exist yet (a thread the bot is about to open)."""
        author_id = self.user(author).id if author else self.bot_user.id

        def find() -> dict[str, Any] | None:
            try:
                channel_id = self.channel(channel).id
            except KeyError:
                return None
            positions = payloads.thread_positions(self.world, channel_id)
            for message in sorted(self.world.channel_messages(channel_id), key=lambda m: int(m.id)):
                if message.author_id != author_id or message.flags & model.FLAG_LOADING:
                    continue
                if since is not None and int(message.id) <= int(since):
                    continue
                payload = payloads.message_payload(self.world, message, positions=positions)
                if predicate is None or predicate(payload):
                    return payload
            return None

        return await self.wait_until(find, timeout, f"a message in {channel}")

    async def wait_for_request(self, method: str, path: str | re.Pattern[str],
                               predicate: Callable[[RecordedRequest], bool] | None = None, *,
                               timeout: float = 5.0) -> RecordedRequest:
        return await self.wait_until(
            lambda: next((r for r in self.requests_to(method, path) if predicate is None or predicate(r)), None),
            timeout, f"{method} {path}")

    # ---- users acting ------------------------------------------------------------------------------------------

    def _member_check(self, channel: Channel, user_id: str) -> None:
        if channel.type == model.DM and user_id not in channel.recipients:  # nobody reads another's DMs
            raise ValueError(f"user {self.world.users[user_id].username} is not in this direct message")
        if channel.guild_id is not None and user_id not in self.world.guilds[channel.guild_id].members:
            raise ValueError(f"user {self.world.users[user_id].username} is not a member of the channel's guild")

    async def user_says(self, channel: str, user: str, content: str = "", *, reply_to: str | None = None,
                        files: Iterable[tuple[str, bytes]] = ()) -> dict[str, Any]:
        """A user posts a message; the bot gets MESSAGE_CREATE. Channel and user by id or name. Returns the
        message as REST would show it."""
        target = self.channel(channel)
        author = self.user(user)
        self._member_check(target, author.id)
        if target.type == model.GUILD_FORUM:
            raise ValueError(f"#{target.name} is a forum: users open posts there (user_posts), they cannot chat in it")
        if target.type not in model.MESSAGEABLE_TYPES:
            raise ValueError(f"#{target.name} takes no messages")
        attachments = [self.server.make_attachment(target.id, name, data) for name, data in files]
        fields: dict[str, Any] = {}
        if reply_to is not None:
            ref = self.world.messages[reply_to]
            fields.update(type=model.MESSAGE_REPLY, message_reference={
                "type": 0, "message_id": ref.id, "channel_id": ref.channel_id, "guild_id": ref.guild_id})
        pings = mentions.mention_fields(self.world, target, author.id, content, None,
                                        self.world.messages[reply_to].author_id if reply_to else None)
        message = self.world.add_message(target.id, author.id, content, attachments=attachments, **pings, **fields)
        await self.server.publish_new_message(message)
        return payloads.message_payload(self.world, message)

    async def user_dms(self, user: str, content: str) -> dict[str, Any]:
        """A user writes to the bot in private."""
        author = self.user(user)
        return await self.user_says(self.world.dm_channel(author.id).id, author.id, content)

    async def user_edits(self, message_id: str, content: str) -> dict[str, Any]:
        message = self._user_message(message_id)
        message.content = content
        channel = self.world.channels[message.channel_id]
        for key, value in mentions.mention_fields(self.world, channel, message.author_id, content, None).items():
            setattr(message, key, value)
        message.edited_timestamp = model.iso(self.world.next_id())
        await self.server.dispatch_message("MESSAGE_UPDATE", message)
        return payloads.message_payload(self.world, message)

    async def user_deletes(self, message_id: str) -> None:
        await self.server.delete_message(self._user_message(message_id))

    def _user_message(self, message_id: str) -> Message:
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise KeyError(f"no message {message_id}")
        return message

    async def user_posts(self, forum: str, user: str, title: str, content: str, *,
                         tags: Iterable[str] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
        """A user opens a forum post: THREAD_CREATE, then MESSAGE_CREATE of its starter message (same id).
        Tags by name. Returns (thread, starter message)."""
        parent = self.channel(forum)
        author = self.user(user)
        if parent.type != model.GUILD_FORUM:
            raise ValueError(f"#{parent.name} is not a forum channel")
        self._member_check(parent, author.id)
        by_name = {t["name"]: t["id"] for t in parent.available_tags}
        thread = self.world.add_thread(parent.id, title, owner_id=author.id, applied_tags=[by_name[t] for t in tags],
                                       auto_archive_duration=4320)
        pings = mentions.mention_fields(self.world, thread, author.id, content, None)
        starter = self.world.add_message(thread.id, author.id, content, id=thread.id, **pings)
        await self.server.publish_thread(thread)
        await self.server.dispatch_message("MESSAGE_CREATE", starter)
        return payloads.thread_payload(self.world, thread), payloads.message_payload(self.world, starter)

    # ---- interactions --------------------------------------------------------------------------------------------

    def _locate(self, guild: str | None, channel: str, user: str) -> tuple[str | None, Channel, model.User]:
        target = self.channel(channel)
        author = self.user(user)
        guild_id = self.world.guild(guild).id if guild is not None else target.guild_id
        if target.guild_id != guild_id:
            raise ValueError(f"#{target.name} is not in guild {guild}")
        self._member_check(target, author.id)
        return guild_id, target, author

    def build_slash(self, guild_id: str | None, name: str, options: Mapping[str, OptionValue] | None, *,
                    group: str | None = None, subcommand: str | None = None,
                    focused: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The `data` of an application command interaction, checked against the registered command as the Discord
        client would (unknown or missing options, values outside `choices`). Returns (command, data)."""
        command = self.server.find_registered_command(name, guild_id)
        if command is None:
            known = sorted(c["name"] for c in self.registered_commands)
            raise LookupError(f"/{name} is not registered (registered: {', '.join(known) or 'none'})")
        schema = command.get("options") or []
        path: list[tuple[int, str]] = []
        for kind, wanted in ((_GROUP, group), (_SUBCOMMAND, subcommand)):
            if wanted is None:
                continue
            found = next((o for o in schema if o.get("type") == kind and o["name"] == wanted), None)
            if found is None:
                raise LookupError(f"/{name} has no {'group' if kind == _GROUP else 'subcommand'} {wanted!r}")
            path.append((kind, wanted))
            schema = found.get("options") or []
        if any(o.get("type") in (_SUBCOMMAND, _GROUP) for o in schema):
            names = [o["name"] for o in schema if o.get("type") in (_SUBCOMMAND, _GROUP)]
            raise LookupError(f"/{name} {' '.join(p[1] for p in path)} needs one of: {', '.join(names)}".replace(
                "  ", " "))
        resolved: dict[str, dict[str, Any]] = {}
        leaf = self._options(schema, dict(options or {}), guild_id, resolved, focused, name)
        for kind, wanted in reversed(path):
            leaf = [{"type": kind, "name": wanted, "options": leaf}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": command.get("type", 1),
                                "options": leaf}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return command, data

    def _options(self, schema: list[dict[str, Any]], given: dict[str, OptionValue], guild_id: str | None,
                 resolved: dict[str, dict[str, Any]], focused: str | None, name: str) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise LookupError(f"/{name} has no option {', '.join(unknown)} (options: {', '.join(by_name) or 'none'})")
        out: list[dict[str, Any]] = []
        for option in schema:
            oname, otype = option["name"], int(option["type"])
            if oname not in given:
                if option.get("required") and oname != focused:
                    raise ValueError(f"/{name}: option {oname!r} is required")
                continue
            value = given[oname]
            if oname == focused:
                out.append({"type": otype, "name": oname, "value": str(value), "focused": True})
                continue
            value = self._option_value(otype, value, guild_id, resolved, oname)
            choices = option.get("choices") or []
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"/{name}: {oname}={value!r} is not one of {[c['value'] for c in choices]}")
            out.append({"type": otype, "name": oname, "value": value})
        return out

    def _option_value(self, otype: int, value: OptionValue, guild_id: str | None,
                      resolved: dict[str, dict[str, Any]], oname: str) -> Any:
        if otype == _STRING:
            return str(value)
        if otype == _INTEGER:
            return int(value)  # type: ignore[arg-type]  # an integer option's value is a number
        if otype == _NUMBER:
            return float(value)  # type: ignore[arg-type]  # a number option's value is a number
        if otype == _BOOLEAN:
            return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes", "on")
        if otype == _ATTACHMENT:
            if not isinstance(value, tuple):
                raise ValueError(f"option {oname!r} takes (filename, bytes)")
            attachment = self.server.make_attachment("0", value[0], value[1])
            resolved.setdefault("attachments", {})[attachment.id] = payloads.attachment_payload(attachment)
            return attachment.id
        key = str(value)
        if otype in (_USER, _MENTIONABLE) and not key.isdigit() and guild_id is not None:
            with contextlib.suppress(KeyError):
                key = self.user(key).id
        if otype in (_ROLE, _MENTIONABLE) and not key.isdigit() and guild_id is not None:
            with contextlib.suppress(KeyError):
                key = self.world.role(guild_id, key).id
        if otype == _CHANNEL and not key.isdigit():
            key = self.channel(key).id
        if otype in (_USER, _MENTIONABLE) and key in self.world.users:
            resolved.setdefault("users", {})[key] = payloads.user_payload(self.world.users[key])
            guild = self.world.guilds.get(guild_id or "")
            if guild is not None and key in guild.members:
                resolved.setdefault("members", {})[key] = {
                    **payloads.member_payload(self.world, guild.members[key], with_user=False),
                    "permissions": str(self.world.member_permissions(guild.id, key))}
            return key
        if otype in (_ROLE, _MENTIONABLE) and key in self.world.roles:
            resolved.setdefault("roles", {})[key] = payloads.role_payload(self.world.roles[key])
            return key
        if otype == _CHANNEL and key in self.world.channels:
            channel = self.world.channels[key]
            permissions = str(self.world.member_permissions(guild_id, self.bot_user.id)) if guild_id else "0"
            resolved.setdefault("channels", {})[key] = {**payloads.channel_payload(self.world, channel),
                                                        "permissions": permissions}
            return key
        raise ValueError(f"option {oname!r}: nothing called {value!r} to resolve")

    async def invoke_slash(self, guild: str | None, channel: str, user: str, name: str,
                           options: Mapping[str, OptionValue] | None = None, *, group: str | None = None,
                           subcommand: str | None = None) -> Invocation:
        """A user runs /name [group] [subcommand] with options (by option name; users, roles and channels by id
        or name; attachments as (filename, bytes)). The bot gets a type-2 INTERACTION_CREATE carrying the
        registered command's id. `guild` None means the channel's guild."""
        guild_id, target, author = self._locate(guild, channel, user)
        command, data = self.build_slash(guild_id, name, options, group=group, subcommand=subcommand)
        record = await self.server.create_interaction(INTERACTION_COMMAND, guild_id=guild_id, channel_id=target.id,
                                                      user_id=author.id, data=data, command_name=command["name"])
        return Invocation(self, record)

    async def autocomplete(self, guild: str | None, channel: str, user: str, name: str, focused: str,
                           options: Mapping[str, OptionValue] | None = None, *, group: str | None = None,
                           subcommand: str | None = None, timeout: float = 5.0) -> list[dict[str, Any]]:
        """A user types into option `focused` (its partial value in `options`, default ''): a type-4 interaction.
        Returns the bot's choices."""
        guild_id, target, author = self._locate(guild, channel, user)
        given = dict(options or {})
        given.setdefault(focused, "")
        command, data = self.build_slash(guild_id, name, given, group=group, subcommand=subcommand, focused=focused)
        record = await self.server.create_interaction(INTERACTION_AUTOCOMPLETE, guild_id=guild_id,
                                                      channel_id=target.id, user_id=author.id, data=data,
                                                      command_name=command["name"])
        await self.wait_until(lambda: record.choices is not None, timeout, f"autocomplete choices for /{name}")
        assert record.choices is not None
        return record.choices

    async def click(self, message_id: str, user: str, custom_id: str, *, values: list[str] | None = None,
                    component_type: int = 2) -> Invocation:
        """A user presses a button (or picks `values` in a select menu) on one of the bot's messages."""
        message = self.world.messages[message_id]
        author = self.user(user)
        channel = self.world.channels[message.channel_id]
        self._member_check(channel, author.id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        record = await self.server.create_interaction(INTERACTION_COMPONENT, guild_id=channel.guild_id,
                                                      channel_id=channel.id, user_id=author.id, data=data,
                                                      message=message)
        return Invocation(self, record)

    # ---- scripted trouble -----------------------------------------------------------------------------------------

    def fail_next(self, method: str, path: str | re.Pattern[str], *, status: int = 500, code: int = 0,
                  message: str = "500: Internal Server Error", times: int = 1) -> None:
        """The next `times` calls to method+path (concrete path, route template or regex; method '*' for any)
        get this error."""
        self.server.faults.append(Fault(method, path, status, ApiError(status, code, message).body(), {}, times))

    def rate_limit_next(self, method: str, path: str | re.Pattern[str], *, retry_after: float = 0.05,
                        times: int = 1, is_global: bool = False,
                        when: Callable[[RecordedRequest], bool] | None = None) -> None:
        """The next `times` calls (for which ``when`` holds) get a 429 as Discord sends it (with the Via header
        discord.py insists on). A long ``retry_after`` keeps a caller waiting before its call is carried out: kill
        it meanwhile and Discord never made what it asked for."""
        headers = {"Retry-After": f"{retry_after:.3f}", "Via": "1.1 google",
                   "X-RateLimit-Scope": "global" if is_global else "user"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                            "X-RateLimit-Reset-After": f"{retry_after:.3f}"})
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        self.server.faults.append(Fault(method, path, 429, body, headers, times, when))

    def hold_next(self, method: str, path: str | re.Pattern[str],
                  when: Callable[[RecordedRequest], bool] | None = None) -> Hold:
        """The next call to method+path (for which ``when`` holds) is carried out (the message, thread... exists and
        the bot's gateway hears of it) but its answer waits for ``Hold.release()``: a caller killed meanwhile never
        learns what it made. One call per hold."""
        hold = Hold(method, path, when)
        self.server.holds.append(hold)
        return hold

    # ---- Discord's clock and moderators -------------------------------------------------------------------------

    async def advance_clock(self, seconds: float) -> None:
        """Skip `seconds` on the fake's clock: threads idle for their auto_archive_duration archive (THREAD_UPDATE),
        interaction tokens age (3 s for the first answer, 15 min for follow-ups)."""
        await self.server.advance_clock(seconds)

    async def archive_thread(self, thread: str, *, locked: bool = False) -> None:
        """Archive a thread (by id or name) now, as a moderator or Discord's auto-archive would."""
        channel = self.channel(thread)
        if not channel.is_thread:
            raise ValueError(f"{channel.name} is not a thread")
        await self.server.archive_thread(channel, locked=locked)

    async def set_overwrite(self, channel: str, target: str, *, allow: int = 0, deny: int = 0) -> None:
        """Put a permission overwrite on a channel (by id or name) for a role or member (by id or name; the guild id
        is @everyone), as a server admin would: the bot gets CHANNEL_UPDATE."""
        where = self.channel(channel)
        assert where.guild_id is not None, "overwrites exist only in guild channels"
        guild = self.world.guilds[where.guild_id]
        if target == guild.id or target == "@everyone":
            target_id, kind = guild.id, 0
        elif target in self.world.roles or any(self.world.roles[r].name == target for r in guild.roles):
            target_id, kind = (target if target in self.world.roles else self.world.role(guild.id, target).id), 0
        else:
            target_id, kind = self.user(target).id, 1
        where.permission_overwrites = [o for o in where.permission_overwrites if str(o.get("id")) != target_id]
        where.permission_overwrites.append({"id": target_id, "type": kind, "allow": str(allow), "deny": str(deny)})
        await self.server.dispatch("CHANNEL_UPDATE", payloads.channel_payload(self.world, where))

    def notified(self, message_id: str) -> list[str]:
        """Who got a notification from a message (user ids): mentioned users, members of the roles that really
        pinged (mentionable, or the author may Mention @everyone), everyone on a permitted @everyone."""
        return list(self.world.messages[message_id].notified)

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connected bot: discord.py drops the socket and RESUMEs."""
        for session in self.server.live_sessions():
            assert session.connection is not None
            await session.connection.send({"op": 7, "s": None, "t": None, "d": None})

    async def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION: the bot must IDENTIFY again (or RESUME, if resumable)."""
        for session in self.server.live_sessions():
            assert session.connection is not None
            await session.connection.send({"op": 9, "s": None, "t": None, "d": resumable})
            if not resumable:
                del self.server.sessions[session.id]
