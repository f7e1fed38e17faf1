"""REST: guilds, their channels and active threads, roles and members."""
from __future__ import annotations

from bot.devdiscord import model, payloads
from bot.devdiscord.core import ServerCore
from bot.devdiscord.protocol import RecordedRequest, Reply, form_error, unknown


class GuildsRest(ServerCore):
    """/guilds/{id}/..."""


    async def _get_guild(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=payloads.guild_payload(self.world, self._guild(params["guild_id"])))

    async def _list_guild_channels(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        return Reply(body=[payloads.channel_payload(self.world, c) for c in self.world.guild_channels(guild.id)
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
        data = payloads.channel_payload(self.world, channel)
        await self.dispatch("CHANNEL_CREATE", data)
        return Reply(201, data)

    async def _active_threads(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        threads = [c for c in self.world.guild_channels(guild.id) if c.is_thread and not c.archived]
        return Reply(body={"threads": [payloads.thread_payload(self.world, t) for t in threads], "members": []})

    async def _list_roles(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        return Reply(body=[payloads.role_payload(self.world.roles[r]) for r in guild.roles])

    async def _create_role(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        body = call.json or {}
        role = self.world.add_role(guild.id, str(body.get("name") or "new role"),
                                   permissions=int(body.get("permissions") or 0), color=int(body.get("color") or 0),
                                   hoist=bool(body.get("hoist")), mentionable=bool(body.get("mentionable")))
        data = payloads.role_payload(role)
        await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": guild.id, "role": data})
        return Reply(body=data)

    async def _list_members(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guild = self._guild(params["guild_id"])
        limit = max(1, min(1000, int(call.query.get("limit", 1))))
        after = int(call.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if int(m.user_id) > after), key=lambda m: int(m.user_id))
        return Reply(body=[payloads.member_payload(self.world, m) for m in members[:limit]])

    async def _get_member(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=payloads.member_payload(self.world, self._member(params["guild_id"], params["user_id"])))

    async def _member_update(self, member: model.Member) -> None:
        await self.dispatch("GUILD_MEMBER_UPDATE",
                            {**payloads.member_payload(self.world, member), "guild_id": member.guild_id})

    async def _edit_member(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        member = self._member(params["guild_id"], params["user_id"])
        body = call.json or {}
        if "nick" in body:
            member.nick = body["nick"]
        if "roles" in body:
            member.roles = [self._role(member.guild_id, str(r)) for r in body["roles"] or []]
        await self._member_update(member)
        return Reply(body=payloads.member_payload(self.world, member))

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
