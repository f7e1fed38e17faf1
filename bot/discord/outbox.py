"""Answers to channel posts, one sender per channel: answers that wait together go out as one message.

Discord lets a bot post 5 messages per 5 s in a channel (or thread). When six players post at once, one answer
message per post holds the sixth answer >= 5 s. So each channel has one sender: an answer that finds the channel
idle goes out at once, exactly as alone (a reply to its post); the answers that become ready while a message is
in flight (or waiting on the limit) queue, and the next message carries all of them, each under a line that says
whose post it answers (the author, unpinged, and a link to the post). A burst then costs one or two messages.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord.output import DISCORD_LIMIT, split_message

log = logging.getLogger("legatus.discord")

NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class Answer:
    """One post's answer, rendered for the channel, waiting for its message."""
    post: discord.Message
    text: str
    view: discord.ui.View | None = None
    # The post was deleted (it held a sealed order): the answer cannot reply to it, so it names its author.
    post_gone: bool = False
    sent: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


def attributed(answer: Answer) -> str:
    """An answer in a shared message: whose post (a mention, which notifies nobody: mentions are off) and a link
    to it, then the answer's own lines exactly as alone."""
    if answer.post_gone:
        return f"<@{answer.post.author.id}>, your message (deleted: it held a sealed order)\n{answer.text}"
    return f"<@{answer.post.author.id}>, {answer.post.jump_url}\n{answer.text}"


def pack(blocks: list[str], limit: int = DISCORD_LIMIT) -> list[str]:
    """Messages of at most ``limit`` characters holding whole blocks where they fit; a block too long for one
    message is split at its line ends, as a lone answer is."""
    chunks: list[str] = []
    current = ""
    for block in blocks:
        if len(block) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.extend(split_message(block, limit))
            continue
        joined = f"{current}\n\n{block}" if current else block
        if len(joined) > limit:
            chunks.append(current)
            joined = block
        current = joined
    if current:
        chunks.append(current)
    return chunks


class Outbox:
    """Per channel: the answers waiting, and the one task that sends them."""

    def __init__(self) -> None:
        self._waiting: dict[int, list[Answer]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        # Messages sent (for tests and the benchmark: how many messages the answers cost).
        self.messages = 0

    def busy(self) -> set[asyncio.Future[None]]:
        """The senders at work (a graceful stop waits for them)."""
        return {task for task in self._senders.values() if not task.done()}

    async def answer(self, channel: discord.abc.Messageable, post: discord.Message, text: str,
                     view: discord.ui.View | None = None, *, post_gone: bool = False) -> None:
        """Send ``text`` as the answer to ``post``; returns once the message holding it is sent (raises if that
        send failed)."""
        key = post.channel.id
        item = Answer(post, text, view, post_gone)
        self._waiting.setdefault(key, []).append(item)
        if key not in self._senders:
            task = asyncio.create_task(self._send_all(key, channel))
            self._senders[key] = task
        await item.sent

    async def _send_all(self, key: int, channel: discord.abc.Messageable) -> None:
        try:
            while self._waiting.get(key):
                batch = self._waiting.pop(key)
                try:
                    await self._send(channel, batch)
                except Exception as exc:  # every post of the batch learns it was not answered
                    for item in batch:
                        if not item.sent.done():
                            item.sent.set_exception(exc)
                else:
                    for item in batch:
                        if not item.sent.done():
                            item.sent.set_result(None)
        finally:
            self._senders.pop(key, None)

    async def _send(self, channel: discord.abc.Messageable, batch: list[Answer]) -> None:
        if len(batch) == 1 and not batch[0].post_gone:
            # Alone: exactly as ever, a reply to its post.
            item = batch[0]
            chunks = split_message(item.text)
            for i, chunk in enumerate(chunks):
                extra: dict[str, Any] = {"view": item.view} if item.view is not None and i == len(chunks) - 1 else {}
                if i == 0:
                    extra["reference"] = item.post
                await channel.send(chunk, mention_author=False, **extra)
                self.messages += 1
            return
        chunks = pack([attributed(item) for item in batch])
        # The undo button checks its clicker, whoever that is: one button serves every author it was offered to.
        view = next((item.view for item in batch if item.view is not None), None)
        for i, chunk in enumerate(chunks):
            extra = {"view": view} if view is not None and i == len(chunks) - 1 else {}
            await channel.send(chunk, allowed_mentions=NO_MENTIONS, **extra)
            self.messages += 1
