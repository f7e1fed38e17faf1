"""The fake's objects as Discord's JSON: users, members, roles, channels, threads, guilds, messages."""
from __future__ import annotations

from typing import Any

from bot.devdiscord import model
from bot.devdiscord.model import (
    Attachment, Channel, Guild, Member, Message, Role, User, World,
)


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
    if channel.type == model.DM:
        return {"id": channel.id, "type": model.DM, "last_message_id": channel.last_message_id, "flags": 0,
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
        "flags": channel.flags,
    }
    if channel.type != model.GUILD_CATEGORY:
        payload.update(topic=channel.topic, last_message_id=channel.last_message_id,
                       rate_limit_per_user=channel.rate_limit_per_user, default_auto_archive_duration=1440,
                       default_thread_rate_limit_per_user=0)
    if channel.type == model.GUILD_FORUM:
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
            "archive_timestamp": model.iso(thread.id),
            "locked": thread.locked,
            "invitable": thread.invitable,
            "create_timestamp": model.iso(thread.id),
        },
    }
    if member_for is not None and member_for in thread.thread_members:
        payload["member"] = {"id": thread.id, "user_id": member_for, "join_timestamp": model.iso(thread.id), "flags": 0}
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
        "joined_at": guild.members[bot_id].joined_at if bot_id in guild.members else model.iso(guild.id),
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


def thread_positions(world: World, channel_id: str) -> dict[str, int]:
    """Each message's ``position`` in a thread (how many of its messages, ephemeral and deleted ones left out, have a
    smaller id), for every such message at once: for a caller that reads many messages of one thread."""
    ordered = sorted(world.channel_messages(channel_id), key=lambda m: int(m.id))
    return {m.id: i for i, m in enumerate(ordered)}


def message_payload(world: World, message: Message, *, gateway: bool = False, strip_content: bool = False,
                    with_reference: bool = True, positions: dict[str, int] | None = None,
                    created: bool = False) -> dict[str, Any]:
    """A message object. `gateway` adds what MESSAGE_CREATE carries beyond REST (guild_id, the author's partial
    member); `strip_content` empties what Discord hides from bots without the message content intent.
    `positions`: ``thread_positions`` of its channel, when the caller reads many of its messages. `created`: the
    answer to the call that made it, which, like MESSAGE_CREATE, carries the sender's nonce; Discord stores no nonce,
    so a message read later (history, a fetch) has none."""
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
    if message.nonce is not None and (gateway or created):
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
                                             else message_payload(world, ref, with_reference=False, positions=positions))
    if message.thread_id is not None and message.thread_id in world.channels:
        payload["thread"] = thread_payload(world, world.channels[message.thread_id])
    if message.channel_id in world.channels and world.channels[message.channel_id].is_thread:
        known = positions.get(message.id) if positions is not None else None
        if known is None:
            mine = int(message.id)
            known = sum(1 for m in world.channel_messages(message.channel_id) if int(m.id) < mine)
        payload["position"] = known
    return payload


# ---- the standard development world ------------------------------------------------------------------------------
