"""Sealed orders typed as plain messages, and private answers asked for in a channel (issue 22, hole 7).

A sealed order (``Proposal.secret``: a Blind Auction hand or bid, a Mediterranean Empires initiative bid) is meant
to go in by the ``/order`` slash command, whose answer is shown to its author alone. Typed as a message in a
channel or thread, everyone there reads it.
"""
from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger("legatus.discord")

# Told to the author, privately, with the whole answer.
DELETED = ("Your message in the channel held a sealed order, so Legatus deleted it: the others must not read it. "
           "Next time send sealed orders with the /order command (its answer is shown to you alone).")
NOT_DELETABLE = ("sealed orders typed in the channel stay there for everyone to read, and Legatus may not delete "
                 "messages here (it lacks Manage Messages in this channel), so this one was not applied: send it "
                 "again with the /order command (its answer is shown to you alone), and delete your message")
STILL_THERE = ("Your message in the channel held a sealed order, and Legatus could not delete it (Discord refused): "
               "delete it yourself now, the others can read it. Next time send sealed orders with the /order command.")


def may_delete(channel: Any) -> bool:
    """Whether the bot may delete another member's message in ``channel``: Manage Messages in the permissions
    Discord computes for it there (roles and the channel's overwrites; a thread takes its parent's), in a thread
    that is not archived. Checked before a post is read, so that a sealed order is applied only where it can be
    taken out of everyone's sight."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None:
        return False
    if isinstance(channel, discord.Thread) and channel.archived:
        return False
    return bool(channel.permissions_for(me).manage_messages)


async def take_down(message: discord.Message) -> bool:
    """Delete a message that held a sealed order; False if Discord refused (the permission changed since it was
    checked, the thread was archived meanwhile, the author deleted it first): the author is then told it stays."""
    try:
        await message.delete()
    except discord.NotFound:
        return True  # already gone: nobody reads it any more
    except discord.HTTPException:
        log.warning("could not delete message %s holding a sealed order in channel %s", message.id,
                    message.channel.id, exc_info=True)
        return False
    return True


async def tell_owners(bot: Any, reply: Any) -> None:
    """Each seat's player whose hidden holding refused an order someone else gave for their seat
    (``Reply.owner_notes``): told why by DM, or with the answer to their next command (``LegatusBot.notices``)."""
    from bot.discord.output import split_message, user_ids

    for player, texts in reply.owner_notes.items():
        for uid in user_ids([player]):
            text = "\n".join(texts)
            try:
                user = bot.get_user(uid) or await bot.fetch_user(uid)
                for chunk in split_message(text):
                    await user.send(chunk)
            except discord.HTTPException:
                bot.notices[uid].append(text)
