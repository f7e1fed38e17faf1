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

The code is split by resource: protocol.py (vocabulary, errors, records), core.py (state, REST entry, dispatch),
gateway.py, rest_users.py, rest_commands.py, rest_messages.py, rest_channels.py, rest_guilds.py, rest_interactions.py;
this module joins them and lists the routes.
"""
from __future__ import annotations

from bot.devdiscord.core import ServerCore
from bot.devdiscord.gateway import GatewayServer
from bot.devdiscord.gateway_session import GatewayConnection, GatewaySession
from bot.devdiscord.protocol import Route, route
from bot.devdiscord.rest_channels import ChannelsRest
from bot.devdiscord.rest_commands import CommandsRest
from bot.devdiscord.rest_guilds import GuildsRest
from bot.devdiscord.rest_interactions import InteractionsRest
from bot.devdiscord.rest_users import UsersRest

__all__ = ["FakeDiscordServer", "GatewayConnection", "GatewaySession", "ServerCore"]


class FakeDiscordServer(GatewayServer, InteractionsRest, ChannelsRest, GuildsRest, CommandsRest, UsersRest):
    """The aiohttp application and all of the fake's live state. `FakeDiscord` (api.py) is the friendlier face."""

    def _build_routes(self) -> list[Route]:
        r = route
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
