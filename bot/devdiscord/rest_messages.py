"""REST: messages (create, edit, delete, bulk delete), reactions, typing and pins, with Discord's
validation of content, embeds and uploads."""
from __future__ import annotations

import mimetypes
import re
from typing import Any

from bot.devdiscord import mentions, model, payloads
from bot.devdiscord.components import check_components
from bot.devdiscord.core import ServerCore
from bot.devdiscord.model import Attachment, Channel, Message
from bot.devdiscord.protocol import MAX_UPLOAD_BYTES, ApiError, RecordedFile, RecordedRequest, Reply, form_error


class MessagesRest(ServerCore):
    """/channels/{id}/messages..., reactions, pins, typing."""


    def make_attachment(self, channel_id: str, filename: str, data: bytes, description: str | None = None) -> Attachment:
        aid = self.world.next_id()
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        attachment = Attachment(id=aid, filename=filename, data=data, content_type=content_type,
                                url=f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}", description=description)
        self.attachments[aid] = attachment
        return attachment

    def _message_fields(self, channel_id: str, body: dict[str, Any], files: list[RecordedFile], *,
                        existing: Message | None = None, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
        """Turn a message body (create, edit, webhook, interaction data) into `Message` fields, refusing what
        Discord refuses."""
        fields: dict[str, Any] = {}
        if "content" in body:
            content = "" if body["content"] is None else str(body["content"])
            if len(content) > 2000:
                raise form_error([*prefix, "content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
            fields["content"] = content
        if "embeds" in body:
            embeds = list(body["embeds"] or [])
            _check_embeds(embeds, prefix)
            fields["embeds"] = [{"type": "rich", **e} for e in embeds]
        if "components" in body:
            fields["components"] = list(body["components"] or [])
            check_components(fields["components"], prefix, int(body.get("flags") or 0))
        if body.get("flags") is not None:
            fields["flags"] = int(body["flags"])
        if "tts" in body:
            fields["tts"] = bool(body["tts"])
        if body.get("nonce") is not None:
            fields["nonce"] = str(body["nonce"])
        if body.get("poll") is not None:
            fields["poll"] = body["poll"]
        if body.get("sticker_ids"):
            fields["sticker_ids"] = [str(s) for s in body["sticker_ids"]]
        if files or "attachments" in body:
            by_index: dict[str, RecordedFile] = {}
            for f in files:
                found = re.fullmatch(r"files\[(\d+)\]", f.field) or re.fullmatch(r"file(\d*)", f.field)
                by_index[found.group(1) or "0" if found else str(len(by_index))] = f
            kept = {a.id: a for a in (existing.attachments if existing else [])}
            attachments: list[Attachment] = []
            used: set[str] = set()
            for entry in body.get("attachments") or []:
                ident = str(entry.get("id"))
                if ident in kept:
                    attachments.append(kept[ident])
                elif ident in by_index:
                    f = by_index[ident]
                    used.add(ident)
                    attachments.append(self.make_attachment(channel_id, entry.get("filename") or f.filename, f.data,
                                                        entry.get("description")))
            for ident, f in by_index.items():
                if ident not in used:
                    attachments.append(self.make_attachment(channel_id, f.filename, f.data))
            if sum(a.size for a in attachments if a.id not in kept) > MAX_UPLOAD_BYTES:
                raise ApiError(413, 40005, "Request entity too large")
            fields["attachments"] = attachments
        return fields

    def _mentions(self, channel: Channel, author_id: str, content: str, body: dict[str, Any],
                  reference: Message | None = None) -> dict[str, Any]:
        return mentions.mention_fields(self.world, channel, author_id, content, body.get("allowed_mentions"),
                                       reference.author_id if reference else None)

    def check_post_permissions(self, channel: Channel, body: dict[str, Any], files: list[RecordedFile]) -> None:
        """What Discord checks before the bot posts (REST, not interaction responses, which need no permission):
        Send Messages (Send Messages in Threads in a thread), Embed Links for embeds, Attach Files for uploads;
        a locked thread (archived or not) takes a post only from Manage Threads."""
        if channel.guild_id is None:
            if any(self.world.users[r].dms_closed for r in channel.recipients if r != self.bot_id):
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        needed = model.VIEW_CHANNEL | (model.SEND_MESSAGES_IN_THREADS if channel.is_thread else model.SEND_MESSAGES)
        if body.get("embeds"):
            needed |= model.EMBED_LINKS
        if files:
            needed |= model.ATTACH_FILES
        self.require(channel, needed)
        if channel.is_thread and channel.archived and channel.locked and not self.bot_can(channel, model.MANAGE_THREADS):
            raise ApiError(400, 50083, "Thread is archived")
        if channel.is_thread and channel.locked and not self.bot_can(channel, model.MANAGE_THREADS):
            raise ApiError(403, 160005, "Thread is locked")  # open but locked: only moderators post there

    def _reference(self, channel: Channel, body: dict[str, Any]) -> tuple[dict[str, Any] | None, Message | None]:
        ref = body.get("message_reference")
        if not ref:
            return None, None
        target = self.world.messages.get(str(ref.get("message_id")))
        ok = target is not None and not target.deleted and not target.ephemeral and (
            target.channel_id == channel.id or ref.get("type") == 1)
        if not ok:
            if ref.get("fail_if_not_exists", True):
                raise form_error(["message_reference"], "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")
            return None, None
        assert target is not None
        return ({"type": int(ref.get("type", 0)), "message_id": target.id, "channel_id": target.channel_id,
                 "guild_id": target.guild_id}, target)

    def new_message(self, channel: Channel, author_id: str, body: dict[str, Any], files: list[RecordedFile],
                    **extra: Any) -> Message:
        """Validate and store a message from a request body (bot REST call or interaction response)."""
        if channel.type not in model.MESSAGEABLE_TYPES:
            raise ApiError(400, 50008, "Cannot send messages in a non-text channel")
        fields = self._message_fields(channel.id, body, files)
        if not any(fields.get(k) for k in ("content", "embeds", "attachments", "sticker_ids", "poll", "components")) \
                and not extra.get("flags", 0) & model.FLAG_LOADING:
            raise ApiError(400, 50006, "Cannot send an empty message")
        reference, target = self._reference(channel, body)
        fields.update(self._mentions(channel, author_id, fields.get("content", ""), body, target))
        if reference is not None:
            fields.update(message_reference=reference, type=model.MESSAGE_REPLY)
        body_flags = fields.pop("flags", 0)
        fields.update(extra)
        fields["flags"] = body_flags | extra.get("flags", 0)
        return self.world.add_message(channel.id, author_id, **fields)

    async def publish_new_message(self, message: Message) -> None:
        channel = self.world.channels[message.channel_id]
        if channel.is_thread:
            channel.last_activity = self.now()
            if channel.archived:
                # Discord unarchives a thread when someone who may post in it does (check_post_permissions).
                channel.archived = channel.locked = False
                await self.dispatch("THREAD_UPDATE", payloads.thread_payload(self.world, channel))
        if not message.ephemeral:
            await self.dispatch_message("MESSAGE_CREATE", message)

    def edit_fields(self, message: Message, body: dict[str, Any], files: list[RecordedFile]) -> None:
        fields = self._message_fields(message.channel_id, body, files, existing=message)
        if "flags" in fields:
            # Only the suppress-embeds bit can be changed by an edit; the loading/ephemeral bits are Discord's.
            fields["flags"] = (message.flags & ~4) | (fields["flags"] & 4)
        for key, value in fields.items():
            setattr(message, key, value)
        if "content" in fields:
            channel = self.world.channels[message.channel_id]
            for key, value in self._mentions(channel, message.author_id, message.content, body).items():
                setattr(message, key, value)
        message.flags &= ~model.FLAG_LOADING
        message.edited_timestamp = model.iso(self.world.next_id())

    async def _list_messages(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        """Discord's GET /channels/{id}/messages: ``limit`` 1..100 (default 50), at most one of ``before``, ``after``
        and ``around``; newest first whichever is given; ``after`` gives the ``limit`` messages right after it (the
        oldest ones), ``around`` half before it and half after, itself included."""
        channel = self._channel(params["channel_id"])
        limit = _history_limit(call.query.get("limit", "50"))
        anchors = [name for name in ("before", "after", "around") if name in call.query]
        if len(anchors) > 1:
            raise form_error([anchors[1]], "BASE_TYPE_BAD_VALUE",
                             "before, after and around are mutually exclusive: pass only one.")
        anchor = _snowflake(anchors[0], call.query[anchors[0]]) if anchors else None
        newest = sorted(self.world.channel_messages(channel.id), key=lambda m: int(m.id), reverse=True)
        if anchor is None:
            chosen = newest[:limit]
        elif anchors[0] == "before":
            chosen = [m for m in newest if int(m.id) < anchor][:limit]
        elif anchors[0] == "after":
            chosen = list(reversed([m for m in reversed(newest) if int(m.id) > anchor][:limit]))
        else:
            older = [m for m in newest if int(m.id) <= anchor][:(limit + 1) // 2]
            newer = list(reversed([m for m in reversed(newest) if int(m.id) > anchor][:limit // 2]))
            chosen = newer + older
        return Reply(body=[payloads.message_payload(self.world, m) for m in chosen])

    async def _get_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        return Reply(body=payloads.message_payload(self.world, self._message(params["channel_id"], params["message_id"])))

    async def _create_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        body = call.json or {}
        self.check_post_permissions(channel, body, call.files)
        nonce = str(body["nonce"]) if body.get("enforce_nonce") and body.get("nonce") is not None else None
        if nonce is not None:
            # Discord: the same nonce from the same author within a few minutes returns the first message, and
            # creates none (a send retried after a crash or a lost answer is not a duplicate).
            first = self.nonces.get((channel.id, self.bot_id, nonce))
            if first is not None and self.now() - first[1] < NONCE_SECONDS:
                original = self.world.messages.get(first[0])
                if original is not None and not original.deleted:
                    return Reply(body=payloads.message_payload(self.world, original, created=True))
        message = self.new_message(channel, self.bot_id, body, call.files)
        if nonce is not None:
            self.nonces[(channel.id, self.bot_id, nonce)] = (message.id, self.now())
        await self.publish_new_message(message)
        return Reply(body=payloads.message_payload(self.world, message, created=True))

    async def _edit_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        message = self._message(params["channel_id"], params["message_id"])
        body = call.json or {}
        if message.author_id != self.bot_id and set(body) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        channel = self.world.channels[message.channel_id]
        if channel.is_thread and channel.archived:
            # Unlike a new message, an edit does not reopen an archived thread (locked or not): Discord refuses it.
            raise ApiError(400, 50083, "Thread is archived")
        if channel.guild_id is not None:
            self.require(channel, (model.EMBED_LINKS if body.get("embeds") else 0)
                         | (model.ATTACH_FILES if call.files else 0))
        self.edit_fields(message, body, call.files)
        await self.dispatch_message("MESSAGE_UPDATE", message)
        return Reply(body=payloads.message_payload(self.world, message))

    async def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data = {"id": message.id, "channel_id": message.channel_id}
            if message.guild_id:
                data["guild_id"] = message.guild_id
            await self.dispatch("MESSAGE_DELETE", data)

    def check_delete_permissions(self, channel: Channel, messages: list[Message], *, bulk: bool = False) -> None:
        """What Discord checks before the bot deletes: another user's message (or any bulk delete) needs Manage
        Messages in the channel, overwrites included (a thread takes its parent's), its own needs none; a DM
        allows no deleting of the other's messages; an archived thread keeps its messages."""
        others = bulk or any(m.author_id != self.bot_id for m in messages)
        if channel.guild_id is None:
            if others:
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            return
        self.require(channel, model.VIEW_CHANNEL | (model.MANAGE_MESSAGES if others else 0))
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")

    async def _delete_message(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        message = self._message(params["channel_id"], params["message_id"])
        self.check_delete_permissions(channel, [message])
        await self.delete_message(message)
        return Reply(204)

    async def _bulk_delete(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        ids = [str(i) for i in (call.json or {}).get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise form_error(["messages"], "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100 in length.")
        messages = [self._message(channel.id, mid) for mid in ids]
        self.check_delete_permissions(channel, messages, bulk=True)
        for message in messages:
            message.deleted = True
        data: dict[str, Any] = {"ids": ids, "channel_id": channel.id}
        if channel.guild_id:
            data["guild_id"] = channel.guild_id
        await self.dispatch("MESSAGE_DELETE_BULK", data)
        return Reply(204)

    def _emoji(self, raw: str) -> tuple[str, dict[str, Any]]:
        name, _, eid = raw.partition(":")
        return raw, {"id": eid or None, "name": name}

    async def _add_reaction(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        message = self._message(self._channel(params["channel_id"]).id, params["message_id"])
        key, emoji = self._emoji(params["emoji"])
        users = message.reactions.setdefault(key, [])
        if self.bot_id not in users:
            users.append(self.bot_id)
            await self.dispatch("MESSAGE_REACTION_ADD", self._reaction_event(message, emoji))
        return Reply(204)

    async def _remove_reaction(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        message = self._message(self._channel(params["channel_id"]).id, params["message_id"])
        key, emoji = self._emoji(params["emoji"])
        if self.bot_id in message.reactions.get(key, []):
            message.reactions[key].remove(self.bot_id)
            await self.dispatch("MESSAGE_REACTION_REMOVE", self._reaction_event(message, emoji))
        return Reply(204)

    def _reaction_event(self, message: Message, emoji: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {"user_id": self.bot_id, "channel_id": message.channel_id, "message_id": message.id,
                                "emoji": emoji, "burst": False, "type": 0, "message_author_id": message.author_id}
        if message.guild_id:
            data["guild_id"] = message.guild_id
        return data

    async def _typing(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        self._channel(params["channel_id"])
        return Reply(204)

    async def _pin(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        message = self._message(channel.id, params["message_id"])
        message.pinned = True
        await self._pins_update(channel)
        return Reply(204)

    async def _unpin(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        self._message(channel.id, params["message_id"]).pinned = False
        await self._pins_update(channel)
        return Reply(204)

    async def _pins_update(self, channel: Channel) -> None:
        data: dict[str, Any] = {"channel_id": channel.id, "last_pin_timestamp": model.iso(self.world.next_id())}
        if channel.guild_id:
            data["guild_id"] = channel.guild_id
        await self.dispatch("CHANNEL_PINS_UPDATE", data)

    def _pinned(self, channel_id: str) -> list[Message]:
        return [m for m in self.world.channel_messages(channel_id) if m.pinned]

    async def _list_pins(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        return Reply(body={"items": [{"pinned_at": m.timestamp, "message": payloads.message_payload(self.world, m)}
                                     for m in self._pinned(channel.id)], "has_more": False})

    async def _list_pins_legacy(self, call: RecordedRequest, params: dict[str, str]) -> Reply:
        channel = self._channel(params["channel_id"])
        return Reply(body=[payloads.message_payload(self.world, m) for m in self._pinned(channel.id)])


_EMBED_LIMITS = (("title", 256), ("description", 4096))
def _history_limit(raw: str) -> int:
    try:
        limit = int(raw)
    except ValueError:
        raise form_error(["limit"], "NUMBER_TYPE_COERCE", f"Value \"{raw}\" is not int.") from None
    if not 1 <= limit <= 100:
        raise form_error(["limit"], "NUMBER_TYPE_MAX" if limit > 100 else "NUMBER_TYPE_MIN",
                         f"int value should be {'less than or equal to 100' if limit > 100 else 'greater than or equal to 1'}.")
    return limit


def _snowflake(name: str, raw: str) -> int:
    if not raw.isdigit():
        raise form_error([name], "NUMBER_TYPE_COERCE", f"Value \"{raw}\" is not snowflake.")
    return int(raw)


# How long Discord keeps a nonce sent with ``enforce_nonce`` ("a few minutes").
NONCE_SECONDS = 300.0


def _check_embeds(embeds: list[dict[str, Any]], prefix: tuple[str, ...]) -> None:
    """Discord's embed limits: 10 embeds, 256/4096 title/description, 25 fields of 256/1024, 6000 in all."""
    if len(embeds) > 10:
        raise form_error([*prefix, "embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        where = [*prefix, "embeds", str(i)]
        for key, limit in _EMBED_LIMITS:
            value = str(embed.get(key) or "")
            total += len(value)
            if len(value) > limit:
                raise form_error([*where, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            value = str((embed.get(key) or {}).get(sub) or "")
            total += len(value)
            if len(value) > limit:
                raise form_error([*where, key, sub], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise form_error([*where, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                value = str(f.get(key) or "")
                total += len(value)
                if not value:
                    raise form_error([*where, "fields", str(j), key], "BASE_TYPE_REQUIRED", "This field is required")
                if len(value) > limit:
                    raise form_error([*where, "fields", str(j), key], "BASE_TYPE_MAX_LENGTH",
                                     f"Must be {limit} or fewer in length.")
    if total > 6000:
        raise form_error([*prefix, "embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
