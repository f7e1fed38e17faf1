"""Who a message pings: Discord's rules for mentions in content and `allowed_mentions`."""
from __future__ import annotations

import re
from typing import Any

from bot.devdiscord.model import MENTION_EVERYONE, Channel, World


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


def mention_fields(world: World, channel: Channel, author_id: str, content: str, allowed: dict[str, Any] | None,
                   replied_author: str | None = None) -> dict[str, Any]:
    """The mention fields of a message by `author_id`, with Discord's permission rules on top of
    `resolve_mentions`: a role that is not mentionable pings only when the author may Mention @everyone (in that
    channel), and so does @everyone/@here. `notified` is who really gets a notification (never the author)."""
    users, roles, everyone = resolve_mentions(world, channel, content, allowed, replied_author)
    notified: list[str] = list(users)
    if channel.guild_id is not None:
        may_mention_all = bool(world.channel_permissions(channel.id, author_id) & MENTION_EVERYONE)
        roles = [r for r in roles if world.roles[r].mentionable or may_mention_all]
        everyone = everyone and may_mention_all
        members = world.guilds[channel.guild_id].members.values()
        for member in members:
            if everyone or any(r in member.roles for r in roles):
                notified.append(member.user_id)
    notified = [u for u in dict.fromkeys(notified) if u != author_id]
    return {"mentions": users, "mention_roles": roles, "mention_everyone": everyone, "notified": notified}
