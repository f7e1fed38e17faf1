"""The fake Discord's world: users, guilds, roles, members, channels, threads and messages.

Everything is kept as plain dataclasses and turned into Discord's JSON shapes only at the edge (the `*_payload`
functions), so tests can build and inspect the world without knowing the wire format. Ids are snowflake strings
from a deterministic generator: the same seeding order always gives the same ids, which keeps test output and
transcripts stable from run to run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator


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

# A channel flag: the forum refuses a post without a tag (40067).
REQUIRE_TAG = 1 << 4
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
    """Snowflakes on a logical clock: one millisecond per id, from a fixed start, so runs are reproducible.

    ``follow``: the ids from then on are also never behind that clock (seconds), as Discord's are its time: a bot
    that reads history after a moment (``after=datetime``) finds what was made since (FakeDiscord(ids_follow_clock=True))."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=timezone.utc)) -> None:
        self._ms = int(start.timestamp() * 1000)
        self._clock: Callable[[], float] | None = None

    def follow(self, clock: Callable[[], float]) -> None:
        self._clock = clock

    def next(self) -> str:
        self._ms += 1
        if self._clock is not None:
            self._ms = max(self._ms, int(self._clock() * 1000))
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
    # The user allows no direct messages from server members (Discord's privacy setting): a bot's DM is refused.
    dms_closed: bool = False


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
    flags: int = 0  # REQUIRE_TAG: a forum whose posts must carry a tag
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
    # When the thread last saw a message (the fake's clock, seconds); it auto-archives auto_archive_duration
    # minutes later. None until the server first sees the thread.
    last_activity: float | None = None
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
    # Who got a notification: mentioned users, members of the roles that really pinged, everyone on @everyone.
    notified: list[str] = field(default_factory=list)
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
        # Each channel's messages in the order they were added (``add_message`` is the only way in): a thread's
        # messages are read without walking every message of the world (a long game posts thousands).
        self._by_channel: dict[str, list[Message]] = {}
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
        replaced = self.messages.get(message.id)
        self.messages[message.id] = message
        in_channel = self._by_channel.setdefault(channel_id, [])
        if replaced is not None and replaced.channel_id == channel_id:
            in_channel[in_channel.index(replaced)] = message  # the same id again: it keeps its place, as in the dict
        else:
            if replaced is not None:
                self._by_channel[replaced.channel_id].remove(replaced)
            in_channel.append(message)
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
        return [m for m in self._by_channel.get(channel_id, ())
                if not m.deleted and (include_ephemeral or not m.ephemeral)]

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

    def channel_permissions(self, channel_id: str, user_id: str) -> int:
        """Discord's permission computation in a channel: guild permissions, then the channel's overwrites for
        @everyone, for the member's roles (all denies, then all allows), then for the member. A thread uses its
        parent's overwrites. DMs allow everything a DM can do."""
        channel = self.channels[channel_id]
        if channel.guild_id is None:
            return ALL_PERMISSIONS
        base = self.member_permissions(channel.guild_id, user_id)
        if base & ADMINISTRATOR:
            return ALL_PERMISSIONS
        source = self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        overwrites = {str(o.get("id")): o for o in source.permission_overwrites}
        member = self.guilds[channel.guild_id].members.get(user_id)

        def apply(value: int, overwrite: dict[str, Any] | None) -> int:
            if overwrite is None:
                return value
            return (value & ~int(overwrite.get("deny") or 0)) | int(overwrite.get("allow") or 0)

        value = apply(base, overwrites.get(channel.guild_id))
        deny = allow = 0
        for rid in member.roles if member else ():
            overwrite = overwrites.get(rid)
            if overwrite is not None and int(overwrite.get("type", 0)) == 0:
                deny |= int(overwrite.get("deny") or 0)
                allow |= int(overwrite.get("allow") or 0)
        value = (value & ~deny) | allow
        mine = overwrites.get(user_id)
        if mine is not None and int(mine.get("type", 1)) == 1:
            value = apply(value, mine)
        return value


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
