"""REST: channels and threads (edit, delete, create threads and forum posts, archived threads, members)."""
from __future__ import annotations

from bot.devdiscord import model, payloads
from bot.devdiscord.model import Channel
from bot.devdiscord.protocol import ApiError, RecordedRequest, Reply, form_error
from bot.devdiscord.rest_messages import MessagesRest


class ChannelsRest(MessagesRest):
    """/channels/{id} and its threads."""


    async def _get_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        return Reply(body=payloads.channel_payload(self.world, self._channel(params["channel_id"])))

    async def _edit_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        body = call.json or {}
        for key in ("name", "topic", "nsfw", "rate_limit_per_user", "archived", "locked", "auto_archive_duration",
                    "invitable", "position", "parent_id", "flags"):
            if key in body:
                setattr(channel, key, body[key])
        if "applied_tags" in body:
            channel.applied_tags = [str(t) for t in body["applied_tags"] or []]
        data = payloads.channel_payload(self.world, channel)
        await self.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return Reply(body=data)

    async def _delete_channel(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        data = payloads.channel_payload(self.world, channel)
        channel.deleted = True
        if channel.is_thread:
            await self.dispatch("THREAD_DELETE", {"id": channel.id, "guild_id": channel.guild_id,
                                                  "parent_id": channel.parent_id, "type": channel.type})
        elif channel.type != model.DM:
            await self.dispatch("CHANNEL_DELETE", data)
        return Reply(body=data)

    async def publish_thread(self, thread: Channel) -> None:
        thread.last_activity = self.now()
        data = {**payloads.thread_payload(self.world, thread, member_for=self.bot_id), "newly_created": True}
        await self.dispatch("THREAD_CREATE", data)

    async def _create_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        body = call.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if parent.type == model.GUILD_FORUM:
            if not isinstance(body.get("message"), dict):
                raise form_error(["message"], "BASE_TYPE_REQUIRED", "This field is required")
            # A forum post needs Send Messages in the forum, and Embed Links / Attach Files for its starter.
            self.require(parent, model.VIEW_CHANNEL | model.SEND_MESSAGES
                         | (model.EMBED_LINKS if body["message"].get("embeds") else 0)
                         | (model.ATTACH_FILES if call.files else 0))
            tags = [str(t) for t in body.get("applied_tags") or []]
            known = {t["id"] for t in parent.available_tags}
            if any(t not in known for t in tags):
                raise form_error(["applied_tags"], "INVALID_FORUM_TAG", "Unknown forum tag")
            if parent.flags & model.REQUIRE_TAG and not tags:
                raise ApiError(400, 40067, "A tag is required to create a forum post in this channel")
            thread_id = self.world.next_id()
            # The starter message is validated before the thread exists, so a refused post leaves nothing behind.
            probe = Channel(id=thread_id, type=model.PUBLIC_THREAD, name=name, guild_id=parent.guild_id)
            self.world.channels[thread_id] = probe
            try:
                fields = self._message_fields(thread_id, body["message"], call.files, prefix=("message",))
            finally:
                del self.world.channels[thread_id]
            if not any(fields.get(k) for k in ("content", "embeds", "attachments", "sticker_ids", "components")):
                raise ApiError(400, 50006, "Cannot send an empty message")
            thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, thread_id=thread_id,
                                           applied_tags=tags,
                                           auto_archive_duration=int(body.get("auto_archive_duration") or 4320))
            thread.rate_limit_per_user = int(body.get("rate_limit_per_user") or 0)
            fields.update(self._mentions(thread, self.bot_id, fields.get("content", ""), body["message"]))
            starter = self.world.add_message(thread.id, self.bot_id, id=thread.id, **fields)
            await self.publish_thread(thread)
            await self.dispatch_message("MESSAGE_CREATE", starter)
            return Reply(201, {**payloads.thread_payload(self.world, thread, member_for=self.bot_id),
                               "message": payloads.message_payload(self.world, starter)})
        if parent.type not in (model.GUILD_TEXT, model.GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        ttype = int(body.get("type") or model.PRIVATE_THREAD)
        if ttype not in model.THREAD_TYPES:
            raise form_error(["type"], "BASE_TYPE_CHOICES", f"Value must be one of {sorted(model.THREAD_TYPES)}.")
        self.require(parent, model.VIEW_CHANNEL | (
            model.CREATE_PRIVATE_THREADS if ttype == model.PRIVATE_THREAD else model.CREATE_PUBLIC_THREADS))
        thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, type=ttype,
                                       auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        thread.invitable = bool(body.get("invitable", True))
        await self.publish_thread(thread)
        return Reply(201, payloads.thread_payload(self.world, thread, member_for=self.bot_id))

    async def _create_thread_from_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        message = self._message(parent.id, params["message_id"])
        if parent.type not in (model.GUILD_TEXT, model.GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        self.require(parent, model.VIEW_CHANNEL | model.READ_MESSAGE_HISTORY | model.CREATE_PUBLIC_THREADS)
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body = call.json or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        ttype = model.ANNOUNCEMENT_THREAD if parent.type == model.GUILD_ANNOUNCEMENT else model.PUBLIC_THREAD
        thread = self.world.add_thread(parent.id, name, owner_id=self.bot_id, type=ttype, thread_id=message.id,
                                       auto_archive_duration=int(body.get("auto_archive_duration") or 1440))
        message.thread_id = thread.id
        await self.publish_thread(thread)
        return Reply(201, payloads.thread_payload(self.world, thread, member_for=self.bot_id))

    async def _archived_threads(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        parent = self._channel(params["channel_id"])
        threads = [c for c in self.world.channels.values()
                   if c.parent_id == parent.id and c.is_thread and c.archived and not c.deleted]
        return Reply(body={"threads": [payloads.thread_payload(self.world, t) for t in threads], "members": [],
                           "has_more": False})

    async def _list_thread_members(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        return Reply(body=[{"id": thread.id, "user_id": u, "join_timestamp": model.iso(thread.id), "flags": 0}
                           for u in thread.thread_members])

    async def _join_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        user_id = self.bot_id if params["user_id"] == "@me" else params["user_id"]
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if user_id not in thread.thread_members:
            thread.thread_members.append(user_id)
        return Reply(204)

    async def _leave_thread(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        thread = self._channel(params["channel_id"])
        user_id = self.bot_id if params["user_id"] == "@me" else params["user_id"]
        if user_id in thread.thread_members:
            thread.thread_members.remove(user_id)
        return Reply(204)
