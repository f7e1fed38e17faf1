"""REST: interaction callbacks and the follow-up webhooks, and the INTERACTION_CREATE payload the fake sends."""
from __future__ import annotations

import base64
from typing import Any

from bot.devdiscord import model, payloads
from bot.devdiscord.model import Message
from bot.devdiscord.protocol import (
    ATTACHMENT_SIZE_LIMIT, CALLBACK_AUTOCOMPLETE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE, CALLBACK_MESSAGE,
    CALLBACK_MODAL, CALLBACK_PONG, CALLBACK_UPDATE_MESSAGE, INTERACTION_AUTOCOMPLETE, INTERACTION_COMMAND,
    INTERACTION_PING, ApiError, InteractionRecord, RecordedFile, RecordedRequest, Reply, form_error, unknown,
)
from bot.devdiscord.rest_messages import MessagesRest


class InteractionsRest(MessagesRest):
    """/interactions/{id}/{token}/callback and /webhooks/{app}/{token}..."""


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
                if self.now() - record.created > self.followup_lifetime:
                    # Discord: an interaction token is good for follow-ups for 15 minutes, then it is refused.
                    raise ApiError(401, 50027, "Invalid Webhook Token")
                return record
        raise unknown("Webhook", 10015)

    def _interaction_message(self, record: InteractionRecord, body: dict[str, Any], files: list[RecordedFile],
                             *, flags: int = 0) -> Message:
        channel = self._channel(record.channel_id)
        user = payloads.user_payload(self.world.users[record.user_id])
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
        if self.now() - record.created > self.interaction_deadline:
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
            for i, choice in enumerate(choices):  # Discord: a choice's name and a string value, 1 to 100 characters
                for key in ("name", "value"):
                    value = choice.get(key)
                    if isinstance(value, str) and not 1 <= len(value) <= 100:
                        raise form_error(["data", "choices", str(i), key], "BASE_TYPE_BAD_LENGTH",
                                         "Must be between 1 and 100 in length.")
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
            response["resource"] = {"type": ctype, "message": payloads.message_payload(self.world, message)}
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
        return Reply(body=payloads.message_payload(self.world, message))

    async def _get_webhook_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        return Reply(body=payloads.message_payload(self.world, self._webhook_target(record, params["message_id"])))

    async def _edit_webhook_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        record = self._interaction_by_token(params["webhook_id"], params["token"])
        message = self._webhook_target(record, params["message_id"])
        self.edit_fields(message, call.json or {}, call.files)
        if not message.ephemeral:
            await self.dispatch_message("MESSAGE_UPDATE", message)
        self.notify()
        return Reply(body=payloads.message_payload(self.world, message))

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
            member = {**payloads.member_payload(self.world, guild.members[user.id]), "permissions": permissions}
            payload.update(
                guild_id=guild.id, guild_locale=guild.preferred_locale,
                guild={"id": guild.id, "locale": guild.preferred_locale, "features": list(guild.features)},
                channel={**payloads.channel_payload(self.world, channel), "permissions": permissions},
                member=member, app_permissions=str(self.world.member_permissions(guild.id, self.bot_id)),
                authorizing_integration_owners={"0": guild.id}, context=0,
            )
        else:
            payload.update(user=payloads.user_payload(user), channel=payloads.channel_payload(self.world, channel),
                           app_permissions=str(model.EVERYONE_PERMISSIONS),
                           authorizing_integration_owners={"0": "0"}, context=1)
        if message is not None:
            payload["message"] = payloads.message_payload(self.world, message)
        return payload

    async def create_interaction(self, itype: int, *, guild_id: str | None, channel_id: str, user_id: str,
                                 data: dict[str, Any] | None, command_name: str | None = None,
                                 message: Message | None = None) -> InteractionRecord:
        iid = self.world.next_id()
        token = "aW50ZXJhY3Rpb246" + base64.urlsafe_b64encode(f"{iid}:devdiscord".encode()).decode().rstrip("=")
        record = InteractionRecord(id=iid, token=token, type=itype, payload={}, guild_id=guild_id,
                                   channel_id=channel_id, user_id=user_id, created=self.now(),
                                   command_name=command_name, source_message_id=message.id if message else None)
        record.payload = self.interaction_payload(record, data, message)
        self.interactions[iid] = record
        await self.dispatch("INTERACTION_CREATE", record.payload)
        return record
