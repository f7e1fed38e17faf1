"""Answering a slash command within Discord's 3 seconds: defer at once, then answer by follow-up.

Discord forgets an interaction that gets no first answer within 3 s (10062 Unknown interaction: the user sees
"The application did not respond"). A command may wait for the campaign's lock (another post, a scheduled job)
and reads the database, so every command defers before anything else and answers by follow-up afterwards.

Whether an answer is public is known only once it is ready, but a deferral already fixes the visibility of the
message it opens. So a command defers publicly; a refusal deletes that "thinking..." message and goes out as an
ephemeral follow-up (only the author sees it), while a success edits it (the first follow-up after a deferral
takes its place). Commands that are always private (/private) defer ephemerally.
"""
from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.hand_menu import hand_menu
from bot.discord.long_followups import follow_up_whole
from bot.discord.output import split_message
from bot.discord.typed_secrets import tell_owners
from bot.service.replies import Reply

log = logging.getLogger("legatus.discord")

EMBED_LIMIT = 4096
EMBED_COLOUR = 0xB8860B
NO_CAMPAIGN = "No campaign lives in this channel. A server manager can start one here with /campaign create."


def campaign_channel_id(channel: Any) -> str | None:
    """The channel that hosts a campaign: the channel itself, or the parent of a thread or forum post."""
    if channel is None:
        return None
    if isinstance(channel, discord.Thread):
        return str(channel.parent_id)
    return str(channel.id)


def campaign_here(bot: Any, interaction: discord.Interaction) -> Any:
    return bot.campaign_at(campaign_channel_id(interaction.channel))


async def defer(interaction: discord.Interaction, *, private: bool = False) -> bool:
    """Acknowledge the interaction now (Discord shows "thinking..."); False if it is already gone."""
    if interaction.response.is_done():
        return True
    try:
        await interaction.response.defer(thinking=True, ephemeral=private)
    except discord.NotFound:
        # 10062: the interaction reached us too late (a stalled event loop, a slow gateway); nobody can be answered.
        log.warning("interaction %s for /%s expired before it could be acknowledged", interaction.id,
                    getattr(interaction.command, "qualified_name", "?"))
        return False
    return True


def is_refusal(reply: Reply) -> bool:
    """A reply that changed nothing and refused a line (or only explains why nothing was done). A reply that
    changed the campaign stays public even if one of its lines was refused: the table must see what changed."""
    if reply.changed:
        return False
    return not reply.answers or any(not a.ok for a in reply.answers)


async def _go_private(interaction: discord.Interaction) -> None:
    """Remove the public "thinking..." message so that the follow-ups that replace it can be ephemeral."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.debug("could not delete the deferred answer of interaction %s", interaction.id, exc_info=True)


async def say(interaction: discord.Interaction, text: str, *, private: bool = False, deferred_private: bool = False,
              files: list[discord.File] | None = None, view: discord.ui.View | None = None) -> None:
    """Send ``text`` (split under Discord's limit) as the answer to a deferred interaction; ``files`` and ``view``
    (buttons) go with its last part."""
    if private and not deferred_private:
        await _go_private(interaction)
    chunks = split_message(text or "Done.")
    for i, chunk in enumerate(chunks):
        extra: dict[str, Any] = {}
        if i == len(chunks) - 1:
            extra.update({"files": files} if files else {}, **({"view": view} if view is not None else {}))
        await interaction.followup.send(chunk, ephemeral=private, **extra)


async def respond(interaction: discord.Interaction, reply: Reply, bot: Any, embed_title: str | None = None, *,
                  private: bool = False, offer_undo: bool = False) -> None:
    """The answer to a deferred command: refusals to the author alone, successes to the channel (boards as an
    embed); ``private`` answers (a seat's private view) always to the author alone."""
    hidden = private or is_refusal(reply)
    if embed_title is not None and reply.answers and all(a.ok for a in reply.answers) and not private:
        # Boards read better as an embed: one card, up to 4,096 characters, in the campaign's own colours.
        body = "\n".join(line for a in reply.answers for line in a.details)
        for i, chunk in enumerate(split_message(body, EMBED_LIMIT)):
            embed = discord.Embed(title=embed_title if i == 0 else None, description=chunk, colour=EMBED_COLOUR)
            await interaction.followup.send(embed=embed)
        return
    # An accepted order the author may still take back gets the "undo my last order" button (it asks first).
    view = None
    if offer_undo and reply.changed and not hidden:
        campaign = campaign_here(bot, interaction)
        view = await bot.undo_button(campaign, interaction.user) if campaign is not None else None
    elif private:
        view = hand_menu(reply)  # the private view's one-click orders, for its author alone
    await say(interaction, reply.render(for_author=hidden), private=hidden, deferred_private=private, view=view)
    if not hidden and reply.sealed:
        # The channel saw the sealed lines unquoted; their author sees them whole.
        await follow_up_whole(interaction, reply.render(), ephemeral=True)
    if not hidden and interaction.channel is not None:
        await bot.ping(interaction.channel, reply)
    await tell_owners(bot, reply)
    await deliver_notices(bot, interaction)


async def deliver_notices(bot: Any, interaction: discord.Interaction) -> None:
    """What was for this user alone and could not reach them by DM (``LegatusBot.notices``): now, to them alone."""
    for text in getattr(bot, "notices", {}).pop(interaction.user.id, ()):
        for chunk in split_message(text):
            await interaction.followup.send(chunk, ephemeral=True)


async def deferred_campaign(bot: Any, interaction: discord.Interaction, *, private: bool = False) -> Any:
    """Defer the interaction (Discord's 3 s), then the campaign of its channel; None when the interaction expired
    or no campaign lives here (then the user is told, privately)."""
    if not await defer(interaction, private=private):
        return None
    campaign = campaign_here(bot, interaction)
    if campaign is None:
        await say(interaction, NO_CAMPAIGN, private=True, deferred_private=private)
    return campaign


async def run_text_command(bot: Any, interaction: discord.Interaction, text: str, embed_title: str | None = None, *,
                           private: bool = False, offer_undo: bool = False) -> Reply | None:
    """Defer, then run ``text`` as the author typed it in the campaign of this channel, and answer. Returns the
    reply (None when there was nothing to run it on)."""
    campaign = await deferred_campaign(bot, interaction, private=private)
    if campaign is None:
        return None
    reply = await bot.run_post(campaign.name, interaction.user, text, campaign.gm_role_id)
    await respond(interaction, reply, bot, embed_title, private=private, offer_undo=offer_undo)
    return reply


def quoted(text: str) -> str:
    """One argument of a command line, kept whole by the service's shlex split."""
    return '"' + text.replace('"', "'") + '"'
