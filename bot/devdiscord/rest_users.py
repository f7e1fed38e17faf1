"""REST: the gateway URL, users, DMs and the application."""
from __future__ import annotations

from typing import Any

from bot.devdiscord import payloads
from bot.devdiscord.core import ServerCore
from bot.devdiscord.protocol import RecordedRequest, Reply, form_error, unknown


class UsersRest(ServerCore):
    """GET /gateway[/bot], /users/..., /applications/@me."""


    async def _get_gateway(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body={"url": self.gateway_url})

    async def _get_gateway_bot(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guilds = sum(1 for g in self.world.guilds.values() if self.bot_id in g.members)
        shards = max(1, -(-guilds // self.guilds_per_shard))  # Discord's recommendation: enough for the guilds
        return Reply(body={"url": self.gateway_url, "shards": shards,
                           "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000,
                                                   "max_concurrency": 1}})

    async def _get_me(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        assert self.world.bot_user is not None
        return Reply(body=payloads.self_user_payload(self.world.bot_user))

    async def _get_my_guilds(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        guilds = [g for g in self.world.guilds.values() if self.bot_id in g.members]
        return Reply(body=[{"id": g.id, "name": g.name, "icon": None, "banner": None, "owner": False,
                            "permissions": str(self.world.member_permissions(g.id, self.bot_id)),
                            "features": list(g.features)} for g in guilds])

    async def _get_user(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        user = self.world.users.get(params["user_id"])
        if user is None:
            raise unknown("User", 10013)
        return Reply(body=payloads.user_payload(user))

    async def _create_dm(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        recipient = str((call.json or {}).get("recipient_id", ""))
        if recipient not in self.world.users:
            raise form_error(["recipient_id"], "NUMBER_TYPE_COERCE", f"Value \"{recipient}\" is not snowflake.")
        return Reply(body=payloads.channel_payload(self.world, self.world.dm_channel(recipient)))

    def application_payload(self) -> dict[str, Any]:
        assert self.world.bot_user is not None
        bot = payloads.user_payload(self.world.bot_user)
        return {
            "id": self.app_id, "name": self.world.bot_user.username, "icon": None, "description": "",
            "summary": "", "type": None, "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
            "bot": bot, "owner": bot, "team": None, "verify_key": "0" * 64, "flags": 0, "tags": [],
            "redirect_uris": [], "interactions_endpoint_url": None, "integration_types_config": {},
            "approximate_guild_count": len(self.world.guilds),
        }

    async def _get_application(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=self.application_payload())
