"""The fake Discord's world: users, guilds, roles, members, channels, threads and messages.

Everything is kept as plain dataclasses and turned into Discord's JSON shapes only at the edge (the `*_payload`
functions), so tests can build and inspect the world without knowing the wire format. Ids are snowflake strings
from a deterministic generator: the same seeding order always gives the same ids, which keeps test output and
transcripts stable from run to run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator

DISCORD_EPOCH_MS = 1420070400000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
# Discord refuses POST /channels/{id}/messages on anything else (forums take posts, categories take nothing).
MESSAGEABLE_TYPES = frozenset({GUILD_TEXT, DM, GUILD_ANNOUNCEMENT, *THREAD_TYPES})

# Message types and flags the fake produces.
MESSAGE_DEFAULT = 0
MESSAGE_REPLY = 19
MESSAGE_CHAT_INPUT_COMMAND = 20
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL | SEND_MESSAGES | ADD_REACTIONS | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS | MANAGE_CHANNELS | MANAGE_MESSAGES | MANAGE_ROLES | MANAGE_THREADS | CREATE_PRIVATE_THREADS
    | MENTION_EVERYONE
)


class SnowflakeGenerator:
    """Snowflakes on a logical clock: one millisecond per id, from a fixed start, so runs are reproducible."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=timezone.utc)) -> None:
        self._ms = int(start.timestamp() * 1000)

    def next(self) -> str:
        self._ms += 1
        return str((self._ms - DISCORD_EPOCH_MS) << 22)


def snowflake_time(snowflake: str | int) -> datetime:
    return datetime.fromtimestamp(((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000, tz=timezone.utc)


def iso(snowflake: str | int) -> str:
    return snowflake_time(snowflake).isoformat()


@dataclass
class User:
    id: str
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None


@dataclass
class Role:
    id: str
    guild_id: str
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    tags: dict[str, Any] | None = None


@dataclass
class Member:
    guild_id: str
    user_id: str
    roles: list[str] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = ""


@dataclass
class Channel:
    id: str
    type: int
    name: str
    guild_id: str | None = None
    position: int = 0
    parent_id: str | None = None
    topic: str | None = None
    nsfw: bool = False
    rate_limit_per_user: int = 0
    permission_overwrites: list[dict[str, Any]] = field(default_factory=list)
    last_message_id: str | None = None
    # Forum channels
    available_tags: list[dict[str, Any]] = field(default_factory=list)
    # Threads
    owner_id: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    applied_tags: list[str] = field(default_factory=list)
    message_count: int = 0
    total_message_sent: int = 0
    thread_members: list[str] = field(default_factory=list)
    # DMs
    recipients: list[str] = field(default_factory=list)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class Guild:
    id: str
    name: str
    owner_id: str
    roles: list[str] = field(default_factory=list)
    members: dict[str, Member] = field(default_factory=dict)
    channels: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)
    system_channel_id: str | None = None
    preferred_locale: str = "en-US"


@dataclass
class Attachment:
    id: str
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Message:
    id: str
    channel_id: str
    guild_id: str | None
    author_id: str
    content: str = ""
    type: int = MESSAGE_DEFAULT
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    mentions: list[str] = field(default_factory=list)
    mention_roles: list[str] = field(default_factory=list)
    mention_everyone: bool = False
    message_reference: dict[str, Any] | None = None
    interaction_metadata: dict[str, Any] | None = None
    interaction_name: str | None = None
    application_id: str | None = None
    webhook_id: str | None = None
    edited_timestamp: str | None = None
    pinned: bool = False
    nonce: str | None = None
    poll: dict[str, Any] | None = None
    sticker_ids: list[str] = field(default_factory=list)
    reactions: dict[str, list[str]] = field(default_factory=dict)
    thread_id: str | None = None
    deleted: bool = False
    # Only the invoking user sees an ephemeral message; it is never dispatched over the gateway.
    ephemeral: bool = False

    @property
    def timestamp(self) -> str:
        return iso(self.id)


class World:
    """Everything the fake Discord knows. Mutate it freely before the bot connects; live changes go through
    `FakeDiscord` helpers, which also dispatch the matching gateway events."""

    def __init__(self, ids: SnowflakeGenerator | None = None) -> None:
        self.ids = ids or SnowflakeGenerator()
        self.users: dict[str, User] = {}
        self.guilds: dict[str, Guild] = {}
        self.roles: dict[str, Role] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, Message] = {}
        self.bot_user: User | None = None

    def next_id(self) -> str:
        return self.ids.next()

    # ---- building -------------------------------------------------------------------------------------------

    def add_user(self, username: str, *, global_name: str | None = None, bot: bool = False) -> User:
        user = User(id=self.next_id(), username=username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner_id: str | None = None, with_bot: bool = True) -> Guild:
        """A guild with its @everyone role (whose id is the guild's, as on Discord) and, unless told otherwise, the
        bot as a member holding a managed role of its own."""
        gid = self.next_id()
        owner = owner_id or (self.bot_user.id if self.bot_user else "0")
        guild = Guild(id=gid, name=name, owner_id=owner)
        self.guilds[gid] = guild
        everyone = Role(id=gid, guild_id=gid, name="@everyone", permissions=EVERYONE_PERMISSIONS, position=0)
        self.roles[gid] = everyone
        guild.roles.append(gid)
        if with_bot and self.bot_user is not None:
            bot_role = self.add_role(gid, self.bot_user.username, permissions=BOT_PERMISSIONS, managed=True,
                                     tags={"bot_id": self.bot_user.id})
            self.add_member(gid, self.bot_user.id, roles=[bot_role.id])
        return guild

    def add_role(self, guild_id: str, name: str, *, permissions: int = 0, color: int = 0, hoist: bool = False,
                 mentionable: bool = True, managed: bool = False, tags: dict[str, Any] | None = None) -> Role:
        guild = self.guilds[guild_id]
        role = Role(id=self.next_id(), guild_id=guild_id, name=name, permissions=permissions,
                    position=len(guild.roles), color=color, hoist=hoist, mentionable=mentionable, managed=managed,
                    tags=tags)
        self.roles[role.id] = role
        guild.roles.append(role.id)
        return role

    def add_member(self, guild_id: str, user_id: str, *, roles: Iterable[str] = (), nick: str | None = None) -> Member:
        guild = self.guilds[guild_id]
        member = Member(guild_id=guild_id, user_id=user_id, roles=list(roles), nick=nick,
                        joined_at=iso(self.next_id()))
        guild.members[user_id] = member
        return member

    def _add_channel(self, channel: Channel) -> Channel:
        self.channels[channel.id] = channel
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels.append(channel.id)
        return channel

    def _position(self, guild_id: str) -> int:
        return sum(1 for c in self.guild_channels(guild_id) if not c.is_thread)

    def add_category(self, guild_id: str, name: str) -> Channel:
        return self._add_channel(Channel(id=self.next_id(), type=GUILD_CATEGORY, name=name, guild_id=guild_id,
                                         position=self._position(guild_id)))

    def add_text_channel(self, guild_id: str, name: str, *, topic: str | None = None,
                         parent_id: str | None = None) -> Channel:
        return self._add_channel(Channel(id=self.next_id(), type=GUILD_TEXT, name=name, guild_id=guild_id,
                                         topic=topic, parent_id=parent_id, position=self._position(guild_id)))

    def add_forum_channel(self, guild_id: str, name: str, *, topic: str | None = None, tags: Iterable[str] = (),
                          parent_id: str | None = None) -> Channel:
        available = [{"id": self.next_id(), "name": t, "moderated": False, "emoji_id": None, "emoji_name": None}
                     for t in tags]
        return self._add_channel(Channel(id=self.next_id(), type=GUILD_FORUM, name=name, guild_id=guild_id,
                                         topic=topic, parent_id=parent_id, available_tags=available,
                                         position=self._position(guild_id)))

    def add_thread(self, parent_id: str, name: str, *, owner_id: str, type: int = PUBLIC_THREAD,
                   thread_id: str | None = None, applied_tags: Iterable[str] = (),
                   auto_archive_duration: int = 1440) -> Channel:
        """A thread under a text or forum channel. Discord gives a thread started from a message (and a forum
        post, whose first message is its starter) the id of that message: pass it as `thread_id`."""
        parent = self.channels[parent_id]
        thread = Channel(id=thread_id or self.next_id(), type=type, name=name, guild_id=parent.guild_id,
                         parent_id=parent_id, owner_id=owner_id, applied_tags=list(applied_tags),
                         auto_archive_duration=auto_archive_duration, thread_members=[owner_id])
        return self._add_channel(thread)

    def dm_channel(self, user_id: str) -> Channel:
        """The DM channel between the bot and a user, created on first use."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipients == [user_id]:
                return channel
        return self._add_channel(Channel(id=self.next_id(), type=DM, name="", recipients=[user_id]))

    def add_message(self, channel_id: str, author_id: str, content: str = "", **fields: Any) -> Message:
        channel = self.channels[channel_id]
        message = Message(id=fields.pop("id", None) or self.next_id(), channel_id=channel_id,
                          guild_id=channel.guild_id, author_id=author_id, content=content, **fields)
        self.messages[message.id] = message
        if not message.ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
                channel.total_message_sent += 1
        return message

    # ---- lookups ----------------------------------------------------------------------------------------------

    def user(self, key: str) -> User:
        """A user by id or username."""
        if key in self.users:
            return self.users[key]
        for user in self.users.values():
            if user.username == key:
                return user
        raise KeyError(f"no user {key!r}")

    def guild(self, key: str) -> Guild:
        if key in self.guilds:
            return self.guilds[key]
        for guild in self.guilds.values():
            if guild.name == key:
                return guild
        raise KeyError(f"no guild {key!r}")

    def channel(self, key: str, guild_id: str | None = None) -> Channel:
        """A channel or thread by id or name (a leading '#' is ignored)."""
        if key in self.channels:
            return self.channels[key]
        name = key.lstrip("#")
        for channel in self.channels.values():
            if channel.name == name and not channel.deleted and (guild_id is None or channel.guild_id == guild_id):
                return channel
        raise KeyError(f"no channel {key!r}")

    def role(self, guild_id: str, key: str) -> Role:
        if key in self.roles:
            return self.roles[key]
        for rid in self.guilds[guild_id].roles:
            if self.roles[rid].name == key:
                return self.roles[rid]
        raise KeyError(f"no role {key!r}")

    def guild_channels(self, guild_id: str) -> Iterator[Channel]:
        return (self.channels[c] for c in self.guilds[guild_id].channels if not self.channels[c].deleted)

    def channel_messages(self, channel_id: str, *, include_ephemeral: bool = False) -> list[Message]:
        return [m for m in self.messages.values()
                if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)]

    def member_permissions(self, guild_id: str, user_id: str) -> int:
        """Guild-level permissions (channel overwrites are not applied): what `member.permissions` carries."""
        guild = self.guilds[guild_id]
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        value = self.roles[guild_id].permissions
        for rid in member.roles if member else ():
            value |= self.roles[rid].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


# ---- mentions ----------------------------------------------------------------------------------------------------

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def resolve_mentions(world: World, channel: Channel, content: str, allowed: dict[str, Any] | None,
                     replied_author: str | None = None) -> tuple[list[str], list[str], bool]:
    """Who a message actually pings, as Discord decides it from the content and `allowed_mentions`: without
    `allowed_mentions` everything written pings; with it, only what `parse`, `users` and `roles` let through."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or ())
    # Snowflakes arrive as strings or numbers (discord.py sends numbers): compare them as strings.
    allowed_users = {str(u) for u in allowed.get("users") or ()} if allowed else set()
    allowed_roles = {str(r) for r in allowed.get("roles") or ()} if allowed else set()
    users = [u for u in dict.fromkeys(_USER_MENTION.findall(content))
             if u in world.users and ("users" in parse or u in allowed_users)]
    roles: list[str] = []
    if channel.guild_id is not None:
        guild_roles = set(world.guilds[channel.guild_id].roles)
        roles = [r for r in dict.fromkeys(_ROLE_MENTION.findall(content))
                 if r in guild_roles and ("roles" in parse or r in allowed_roles)]
    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    replied_ping = allowed is None or bool(allowed.get("replied_user"))
    if replied_author and replied_ping and replied_author not in users:
        users.append(replied_author)
    return users, roles, everyone


# ---- payloads ----------------------------------------------------------------------------------------------------


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": user.id,
        "username": user.username,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": user.avatar,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def self_user_payload(user: User) -> dict[str, Any]:
    return {**user_payload(user), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}


def member_payload(world: World, member: Member, *, with_user: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "roles": list(member.roles),
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user_payload(world.users[member.user_id])
    return payload


def role_payload(role: Role) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": role.id,
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": role.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.tags is not None:
        payload["tags"] = dict(role.tags)
    return payload


def channel_payload(world: World, channel: Channel) -> dict[str, Any]:
    if channel.type == DM:
        return {"id": channel.id, "type": DM, "last_message_id": channel.last_message_id, "flags": 0,
                "recipients": [user_payload(world.users[u]) for u in channel.recipients]}
    if channel.is_thread:
        return thread_payload(world, channel)
    payload: dict[str, Any] = {
        "id": channel.id,
        "type": channel.type,
        "guild_id": channel.guild_id,
        "name": channel.name,
        "position": channel.position,
        "parent_id": channel.parent_id,
        "permission_overwrites": list(channel.permission_overwrites),
        "nsfw": channel.nsfw,
        "flags": 0,
    }
    if channel.type != GUILD_CATEGORY:
        payload.update(topic=channel.topic, last_message_id=channel.last_message_id,
                       rate_limit_per_user=channel.rate_limit_per_user, default_auto_archive_duration=1440,
                       default_thread_rate_limit_per_user=0)
    if channel.type == GUILD_FORUM:
        payload.update(available_tags=list(channel.available_tags), default_reaction_emoji=None,
                       default_sort_order=None, default_forum_layout=0)
    return payload


def thread_payload(world: World, thread: Channel, *, member_for: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": thread.id,
        "type": thread.type,
        "guild_id": thread.guild_id,
        "parent_id": thread.parent_id,
        "owner_id": thread.owner_id,
        "name": thread.name,
        "last_message_id": thread.last_message_id,
        "rate_limit_per_user": thread.rate_limit_per_user,
        "message_count": thread.message_count,
        "member_count": len(thread.thread_members),
        "total_message_sent": thread.total_message_sent,
        "flags": 0,
        "applied_tags": list(thread.applied_tags),
        "thread_metadata": {
            "archived": thread.archived,
            "auto_archive_duration": thread.auto_archive_duration,
            "archive_timestamp": iso(thread.id),
            "locked": thread.locked,
            "invitable": thread.invitable,
            "create_timestamp": iso(thread.id),
        },
    }
    if member_for is not None and member_for in thread.thread_members:
        payload["member"] = {"id": thread.id, "user_id": member_for, "join_timestamp": iso(thread.id), "flags": 0}
    return payload


def guild_payload(world: World, guild: Guild) -> dict[str, Any]:
    """The guild object of REST (GET /guilds/{id}); GUILD_CREATE adds the gateway-only fields to it."""
    return {
        "id": guild.id,
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": guild.owner_id,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.preferred_locale,
        "features": list(guild.features),
        "roles": [role_payload(world.roles[r]) for r in guild.roles],
        "emojis": [],
        "stickers": [],
        "system_channel_id": guild.system_channel_id,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_presences": None,
        "widget_enabled": False,
        "widget_channel_id": None,
        "approximate_member_count": len(guild.members),
        "approximate_presence_count": 0,
    }


def guild_create_payload(world: World, guild: Guild, *, include_members: bool) -> dict[str, Any]:
    """GUILD_CREATE as the gateway sends it after READY. Without the presences intent Discord only lists the bot
    itself in `members` (the rest comes from member chunking), which `include_members=False` reproduces."""
    bot_id = world.bot_user.id if world.bot_user else None
    members = [m for uid, m in guild.members.items() if include_members or uid == bot_id]
    channels = list(world.guild_channels(guild.id))
    return {
        **guild_payload(world, guild),
        "joined_at": guild.members[bot_id].joined_at if bot_id in guild.members else iso(guild.id),
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(guild.members),
        "members": [member_payload(world, m) for m in members],
        "channels": [channel_payload(world, c) for c in channels if not c.is_thread],
        "threads": [thread_payload(world, c, member_for=bot_id) for c in channels if c.is_thread and not c.archived],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(attachment: Attachment) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": attachment.id,
        "filename": attachment.filename,
        "size": attachment.size,
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
        "flags": 0,
    }
    if attachment.description is not None:
        payload["description"] = attachment.description
    return payload


def message_payload(world: World, message: Message, *, gateway: bool = False, strip_content: bool = False,
                    with_reference: bool = True) -> dict[str, Any]:
    """A message object. `gateway` adds what MESSAGE_CREATE carries beyond REST (guild_id, the author's partial
    member); `strip_content` empties what Discord hides from bots without the message content intent."""
    author = world.users[message.author_id]
    payload: dict[str, Any] = {
        "id": message.id,
        "channel_id": message.channel_id,
        "type": message.type,
        "author": user_payload(author),
        "content": "" if strip_content else message.content,
        "timestamp": message.timestamp,
        "edited_timestamp": message.edited_timestamp,
        "tts": message.tts,
        "mention_everyone": message.mention_everyone,
        "mentions": [],
        "mention_roles": list(message.mention_roles),
        "attachments": [] if strip_content else [attachment_payload(a) for a in message.attachments],
        "embeds": [] if strip_content else [dict(e) for e in message.embeds],
        "components": [] if strip_content else [dict(c) for c in message.components],
        "pinned": message.pinned,
        "flags": message.flags,
        "reactions": [{"emoji": {"id": None, "name": emoji}, "count": len(users), "me": False,
                       "count_details": {"burst": 0, "normal": len(users)}, "me_burst": False, "burst_colors": []}
                      for emoji, users in message.reactions.items() if users],
    }
    if message.guild_id is not None:
        payload["guild_id"] = message.guild_id
    guild = world.guilds.get(message.guild_id) if message.guild_id else None
    for uid in message.mentions:
        mention = user_payload(world.users[uid])
        if guild is not None and uid in guild.members:
            mention["member"] = member_payload(world, guild.members[uid], with_user=False)
        payload["mentions"].append(mention)
    if gateway and guild is not None and message.author_id in guild.members and message.webhook_id is None:
        payload["member"] = member_payload(world, guild.members[message.author_id], with_user=False)
    if message.nonce is not None:
        payload["nonce"] = message.nonce
    if message.webhook_id is not None:
        payload["webhook_id"] = message.webhook_id
    if message.application_id is not None:
        payload["application_id"] = message.application_id
    if message.poll is not None and not strip_content:
        payload["poll"] = message.poll
    if message.interaction_metadata is not None:
        payload["interaction_metadata"] = dict(message.interaction_metadata)
        payload["interaction"] = {"id": message.interaction_metadata["id"], "type": message.interaction_metadata["type"],
                                  "name": message.interaction_name or "", "user": message.interaction_metadata["user"]}
    if message.message_reference is not None:
        payload["message_reference"] = dict(message.message_reference)
        if with_reference:
            ref = world.messages.get(str(message.message_reference.get("message_id")))
            payload["referenced_message"] = (None if ref is None or ref.deleted
                                             else message_payload(world, ref, with_reference=False))
    if message.thread_id is not None and message.thread_id in world.channels:
        payload["thread"] = thread_payload(world, world.channels[message.thread_id])
    if message.channel_id in world.channels and world.channels[message.channel_id].is_thread:
        payload["position"] = sum(1 for m in world.channel_messages(message.channel_id) if int(m.id) < int(message.id))
    return payload


# ---- the standard development world ------------------------------------------------------------------------------


@dataclass
class DevWorld:
    """Handles on the seeded development world, by name."""

    guild: Guild
    channels: dict[str, Channel]
    roles: dict[str, Role]
    users: dict[str, User]


DEV_PLAYERS = ("alice", "bob", "carla", "max", "pat", "sam")


def seed_dev_world(world: World) -> DevWorld:
    """The guild 'Legatus Dev': #mare-nostrum (text), #campaign-forum (forum), roles GM and Player, the user gm
    (GM) and six players (Player). `legatus dev-discord` and the bot's end-to-end tests share it."""
    gm = world.add_user("gm", global_name="Game Master")
    players = [world.add_user(name, global_name=name.capitalize()) for name in DEV_PLAYERS]
    guild = world.add_guild("Legatus Dev", owner_id=gm.id)
    gm_role = world.add_role(guild.id, "GM", permissions=MANAGE_MESSAGES | MANAGE_THREADS | MENTION_EVERYONE,
                             color=0xB22222, hoist=True)
    player_role = world.add_role(guild.id, "Player", color=0x4169E1)
    category = world.add_category(guild.id, "Campaign")
    text = world.add_text_channel(guild.id, "mare-nostrum", topic="Orders and announcements", parent_id=category.id)
    forum = world.add_forum_channel(guild.id, "campaign-forum", topic="One post per turn and nation",
                                    tags=("orders", "diplomacy", "battle"), parent_id=category.id)
    guild.system_channel_id = text.id
    world.add_member(guild.id, gm.id, roles=[gm_role.id])
    for user in players:
        world.add_member(guild.id, user.id, roles=[player_role.id])
    return DevWorld(
        guild=guild,
        channels={"mare-nostrum": text, "campaign-forum": forum, "Campaign": category},
        roles={"GM": gm_role, "Player": player_role},
        users={"gm": gm, **{u.username: u for u in players}},
    )
