"""The shell's commands that only Discord has, by the ``action`` their declaration names
(bot/service/shell_commands/): a campaign's creation, the map and charts as pictures, the state card, the
verification with its log attached. Each defers first (bot/discord/answers.py): nothing may stand between Discord's
interaction and its acknowledgement, not even a database read.
"""
from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.answers import EMBED_COLOUR, campaign_channel_id, deferred_campaign, defer, respond, say
from bot.discord.long_followups import follow_up_whole
from bot.discord.output import split_message
from engine.rulesets import DEFAULT as DEFAULT_RULESET

if TYPE_CHECKING:
    from bot.discord.bot import LegatusBot

EVERYONE_GM = ("the GM role cannot be @everyone: every member could then undo turns and rule on the game. "
               "Pick (or create) a role for the campaign's GMs, e.g. @GM, and run /campaign create again.")

# (the bot, the interaction, the command's option values by name: None when left out) -> the answer sent.
Action = Callable[["LegatusBot", discord.Interaction, Mapping[str, Any]], Awaitable[None]]


async def send_picture(bot: LegatusBot, interaction: discord.Interaction, turn: int | None, charts: bool) -> None:
    from bot.render.history import folded_at_turn
    from bot.render.pictures import pictures

    campaign = await deferred_campaign(bot, interaction)
    if campaign is None:
        return
    try:
        ruleset, state = await asyncio.to_thread(folded_at_turn, bot.service, campaign.name, turn)
    except (LookupError, ValueError) as exc:
        await say(interaction, str(exc.args[0] if exc.args else exc), private=True)
        return
    kinds = [c.kind for c in ruleset.picture(state).charts] if charts else []
    made = await asyncio.to_thread(pictures, ruleset, state, with_map=not charts, charts=kinds if charts else None)
    if not made:
        await say(interaction, "No turn has been closed yet: the charts begin with the first closed turn.", private=True)
        return
    files = [discord.File(io.BytesIO(data), filename=name) for name, data in made]
    await interaction.followup.send(ruleset.summary(state).turn_label, files=files)


async def state_message(bot: LegatusBot, campaign: str) -> tuple[discord.Embed, discord.File]:
    """The campaign's state as an embed (turn, phase, who is to play, standings) with its public JSON attached."""
    card = await asyncio.to_thread(bot.service.state_card, campaign)
    embed = discord.Embed(title=card.title[:256], colour=EMBED_COLOUR,
                          description="The whole public state is attached as state.json.")
    for name, value in card.fields():
        embed.add_field(name=name, value=value, inline=name in ("Phase", "Status"))
    return embed, discord.File(io.BytesIO(card.public_json.encode("utf-8")), filename="state.json")


async def ruleset_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Every registered game (plugins included), by title and id."""
    from engine.rulesets import load_ruleset, registered

    bot: LegatusBot = interaction.client  # type: ignore[assignment]  # the client is LegatusBot
    low = current.lower()
    choices = []
    for ruleset_id in registered():
        try:
            title = str(load_ruleset(ruleset_id, bot.service.data_dir).title)
        except Exception:  # a game that cannot load is not offered; the log says why at start-up
            continue
        if low in ruleset_id or low in title.lower():
            choices.append(app_commands.Choice(name=f"{title} ({ruleset_id})"[:100], value=ruleset_id))
    return choices[:25]


async def create_campaign(bot: LegatusBot, interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    if not await defer(interaction):
        return
    member = interaction.user
    if not isinstance(member, discord.Member) or not member.guild_permissions.manage_guild:
        await say(interaction, "Only members who can manage this server can start a campaign.", private=True)
        return
    gm_role: discord.Role = values["gm_role"]
    if gm_role.is_default():
        await say(interaction, EVERYONE_GM, private=True)
        return
    channel_id = campaign_channel_id(interaction.channel)
    # On the posts' writer thread: a campaign's creation takes the write lock too, and would otherwise wait
    # in SQLite's busy handler while a round of posts is written.
    reply = await asyncio.wrap_future(bot.posts.call(
        bot.service.create_campaign, values["name"], (values["ruleset"] or DEFAULT_RULESET).strip(),
        f"<@&{gm_role.id}>", {}, values["clock"] or "live", str(interaction.guild_id), channel_id, str(gm_role.id),
        values["randomness"] or None, [o for o in (values["options"] or "").replace(",", " ").split() if o],
    ))
    await respond(interaction, reply, bot)


async def show_map(bot: LegatusBot, interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    await send_picture(bot, interaction, values["turn"], charts=False)


async def show_charts(bot: LegatusBot, interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    await send_picture(bot, interaction, None, charts=True)


async def show_state(bot: LegatusBot, interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    campaign = await deferred_campaign(bot, interaction)
    if campaign is None:
        return
    embed, file = await state_message(bot, campaign.name)
    await interaction.followup.send(embed=embed, file=file)


async def verify(bot: LegatusBot, interaction: discord.Interaction, values: Mapping[str, Any]) -> None:
    campaign_row = await deferred_campaign(bot, interaction)
    if campaign_row is None:
        return
    from bot.discord.own_witnesses import own_witnesses
    from bot.service.verify_text import verification_text

    # Its own messages here, read back from Discord, witness when each binding was public (docs/randomness.md 4).
    witnesses, unread = await own_witnesses(bot, campaign_row)
    result, log_text = await asyncio.to_thread(bot.service.verify, campaign_row.name, witnesses)
    text = verification_text(result, unread=len(unread))  # the verdict, the full anchor, every mismatch and note
    log_file = discord.File(io.BytesIO(log_text.encode("utf-8")), filename=f"{campaign_row.name}.log")
    await follow_up_whole(interaction, text, file=log_file)


ACTIONS: dict[str, Action] = {
    "campaign create": create_campaign,
    "map": show_map,
    "chart": show_charts,
    "state": show_state,
    "verify": verify,
}
