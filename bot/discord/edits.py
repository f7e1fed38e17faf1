"""An edited post: the bot read it as first sent, and says so once, instead of leaving its author to believe the edit
counted (an order changed after it was applied would change nothing, silently).

Only the posts this process answered are noted (kept in memory, the newest ``KEPT``): an edit of table talk, or of a
post answered before a restart, gets no note.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord

log = logging.getLogger("legatus.discord")

EDITS_NOT_READ = ("edits are not read: your post was read as you first sent it. To change an order, take it back "
                  "with /undo and post it again.")
KEPT = 10_000


class EditNotes:
    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        # message id -> whether its edit was noted already; the oldest forgotten first.
        self._answered: OrderedDict[int, bool] = OrderedDict()

    def answered(self, message_id: int) -> None:
        self._answered[message_id] = False
        while len(self._answered) > self.kept:
            self._answered.popitem(last=False)

    async def edited(self, bot: Any, payload: discord.RawMessageUpdateEvent) -> None:
        """A MESSAGE_UPDATE: noted once when it is a real edit (Discord sends one too when a link's preview is
        added, without ``edited_timestamp``) of a post this process answered."""
        if self._answered.get(payload.message_id, True) or not payload.data.get("edited_timestamp"):
            return
        self._answered[payload.message_id] = True
        author = (payload.data.get("author") or {}).get("id")
        channel = bot.get_channel(payload.channel_id)
        try:
            if channel is None:
                channel = await bot.fetch_channel(payload.channel_id)
            reference = discord.MessageReference(message_id=payload.message_id, channel_id=payload.channel_id,
                                                 fail_if_not_exists=False)
            await channel.send(f"<@{author}>, {EDITS_NOT_READ}" if author else EDITS_NOT_READ.capitalize(),
                               reference=reference, mention_author=False)
        except discord.HTTPException:
            log.warning("could not say that the edit of %s is not read", payload.message_id, exc_info=True)
