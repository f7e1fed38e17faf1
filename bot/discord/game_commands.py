"""Slash commands built from the games' own commands (``Ruleset.commands()``): the transport names no game.

At start-up every registered ruleset (engine/rulesets.py, plugins included) is asked for its CommandSpecs; each
becomes one app command: "battle" a top-level /battle, "gm set" a subcommand of the shell's /gm group (or of a
new group named by the game). Each Argument becomes a parameter: optional or required, "choice" as fixed
choices, "number" as a number, "attachment" as a file, any other kind autocompleted from ``ruleset.names(kind)``
of the campaign in the channel. The command reaches the service as the line a player would type,
``/<name> "<arg>" "<arg>"``, and the ruleset's ``read_command`` reads it as it reads typed commands.

discord.py reads a command's options from its callback's signature; the callbacks here are built with an explicit
``__signature__`` (inspect.Signature), which ``inspect.signature`` and so discord.py honour.
"""
from __future__ import annotations

import inspect
import io
import logging
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.discord.answers import campaign_here, quoted, run_text_command
from engine import rulesets
from engine.ruleset import Argument, CommandSpec

log = logging.getLogger("legatus.discord")

# Discord's limits: names of commands and options, descriptions, options per command, subcommands per group.
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
DESCRIPTION_LIMIT = 100
OPTIONS_LIMIT = 25
CHOICES_LIMIT = 25
# Kinds the shell knows itself; any other kind is a vocabulary of the game (autocompleted).
PLAIN_KINDS = ("text", "number", "choice", "attachment")
GM_ONLY = discord.Permissions(manage_guild=True)  # a hint for the client: the GM check itself stays in the service


def game_specs(data_dir: Path, ids: Iterable[str] | None = None) -> dict[str, list[CommandSpec]]:
    """Every registered game's commands, by name (lower case). A game that cannot be loaded is left out and
    logged: the others still get their commands."""
    specs: dict[str, list[CommandSpec]] = {}
    for ruleset_id in ids if ids is not None else rulesets.registered():
        try:
            ruleset = rulesets.load_ruleset(ruleset_id, data_dir)
        except Exception:  # a broken plugin must not keep the bot from starting
            log.exception("the ruleset %s could not be loaded: its commands are left out", ruleset_id)
            continue
        for spec in ruleset.commands():
            specs.setdefault(" ".join(spec.name.lower().split()), []).append(spec)
    return specs


def merged(name: str, specs: list[CommandSpec]) -> tuple[str, tuple[Argument, ...] | None, bool]:
    """(description, arguments, GM only) of one command name across games. Games that disagree on the arguments
    share one free-text ``args`` parameter (None), so that each game still reads its own line."""
    first = specs[0]
    gm_only = all(s.gm_only for s in specs)
    if all(s.arguments == first.arguments for s in specs):
        return first.help, first.arguments, gm_only
    usages = " | ".join(dict.fromkeys(s.usage() for s in specs))
    return f"{first.help} ({usages})", None, gm_only


def _discord_name(text: str) -> str | None:
    name = text.strip().lower().replace(" ", "-")
    return name if NAME.match(name) else None


def _clip(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def typed(value: Any) -> str:
    """A parameter's value as a player would type it: 3, not 3.0."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def names_autocomplete(kind: str) -> Callable[..., Any]:
    """Autocomplete from ``ruleset.names(kind)`` of the campaign in the channel (nothing outside a campaign)."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        campaign = campaign_here(interaction.client, interaction)
        if campaign is None:
            return []
        ruleset = interaction.client.service.ruleset_of(campaign.name)  # type: ignore[attr-defined]  # the client is LegatusBot
        low = current.lower()
        found = [n for n in ruleset.names(kind) if low in n.lower()]
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found[:CHOICES_LIMIT]]

    return complete


def _listed_autocomplete(values: tuple[str, ...]) -> Callable[..., Any]:
    """Autocomplete from a fixed list too long for Discord's 25 choices."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        low = current.lower()
        return [app_commands.Choice(name=v[:100], value=v[:100]) for v in values if low in v.lower()][:CHOICES_LIMIT]

    return complete


async def show_attachments(interaction: discord.Interaction, name: str,
                           files: list[tuple[Argument, discord.Attachment]]) -> None:
    """Upload each file given with an accepted command. The attachment's own URL expires within a day (Discord
    signs them), so the bytes are read and sent again as the bot's own message."""
    for argument, attachment in files:
        try:
            data = await attachment.read()
            await interaction.followup.send(f"/{name}: {argument.name} from {interaction.user.mention}",
                                            file=discord.File(io.BytesIO(data), filename=attachment.filename))
        except discord.HTTPException as exc:
            log.warning("could not upload the %s of /%s: %s", argument.name, name, exc)
            await interaction.followup.send(
                f"The {argument.name} '{attachment.filename[:80]}' could not be shown ({exc.status}): the command "
                "itself was recorded. Post the file in the channel if it matters.", ephemeral=True)


def build_command(bot: Any, name: str, description: str, arguments: tuple[Argument, ...] | None, *,
                  parent: app_commands.Group | None, gm_only: bool) -> app_commands.Command[Any, ..., Any] | None:
    """One app command for the game command ``name`` (its last word is the command's own name)."""
    leaf = _discord_name(name.split()[-1])
    if leaf is None:
        log.warning("the game command /%s has a name Discord refuses: it is left out", name)
        return None
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    plan: list[tuple[str, Argument | None]] = []
    describe: dict[str, str] = {}
    renames: dict[str, str] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}
    completes: dict[str, Callable[..., Any]] = {}
    if arguments is None:
        # Games disagree on this command's arguments: the player types them as a line, each game reads its own.
        parameters.append(inspect.Parameter("args", inspect.Parameter.KEYWORD_ONLY, annotation=str, default=None))
        describe["args"] = "the arguments, as you would type them after the command"
        plan.append(("args", None))
    for i, argument in enumerate((arguments or ())[:OPTIONS_LIMIT]):
        ident = f"arg{i}"  # a safe Python name; Discord sees the argument's own name (rename)
        shown = _discord_name(argument.name)
        renames[ident] = shown if shown and shown not in renames.values() else ident
        annotation: Any = {"number": float, "attachment": discord.Attachment}.get(argument.kind, str)
        default: Any = None if argument.optional else inspect.Parameter.empty
        parameters.append(inspect.Parameter(ident, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default))
        describe[ident] = _clip(argument.help or argument.name)
        if argument.kind == "choice" and argument.choices:
            if len(argument.choices) <= CHOICES_LIMIT:
                choices[ident] = [app_commands.Choice(name=c[:100], value=c[:100]) for c in argument.choices]
            else:
                completes[ident] = _listed_autocomplete(argument.choices)
        elif argument.kind not in PLAIN_KINDS:
            completes[ident] = names_autocomplete(argument.kind)
        plan.append((ident, argument))

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run_game_command(bot, interaction, name, plan, values)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]  # discord.py reads it
    callback.__qualname__ = callback.__name__ = f"game_command_{leaf.replace('-', '_')}"
    for decorate, table in ((app_commands.describe, describe), (app_commands.rename, renames),
                            (app_commands.choices, choices), (app_commands.autocomplete, completes)):
        if table:
            decorate(**table)(callback)
    if parent is None:
        app_commands.guild_only()(callback)
        if gm_only:
            app_commands.default_permissions(manage_guild=True)(callback)
    return app_commands.Command(name=leaf, description=_clip(description), callback=callback, parent=parent)


async def run_game_command(bot: Any, interaction: discord.Interaction, name: str,
                           plan: list[tuple[str, Argument | None]], values: dict[str, Any]) -> None:
    words: list[str] = []
    files: list[tuple[Argument, discord.Attachment]] = []
    for ident, argument in plan:
        value = values.get(ident)
        if value is None or value == "":
            continue
        if argument is None:
            words.append(str(value))  # a whole line typed by the player, read as typed
        elif argument.kind == "attachment":
            files.append((argument, value))
        else:
            words.append(quoted(typed(value)))
    reply = await run_text_command(bot, interaction, " ".join([f"/{name}", *words]), offer_undo=True)
    if files and reply is not None and reply.changed and reply.ok:
        await show_attachments(interaction, name, files)


def add_game_commands(bot: Any, groups: dict[str, app_commands.Group], taken: set[str],
                      specs: dict[str, list[CommandSpec]]) -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """Add the games' commands to the shell's ``groups`` (by name) or as new commands and groups, which are
    returned for the tree. ``taken``: the shell's own command names ("turn open", "order"): a game cannot take
    their place, its command of the same name is left out (the shell's runs)."""
    top: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []
    new_groups: dict[str, app_commands.Group] = {}
    for name in sorted(specs):
        words = name.split()
        if name in taken or len(words) > 2 or (len(words) == 1 and (name in groups or name in new_groups)):
            log.warning("the game command /%s is left out: the shell has a command of that name, or it is too deep", name)
            continue
        description, arguments, gm_only = merged(name, specs[name])
        parent: app_commands.Group | None = None
        if len(words) == 2:
            parent = groups.get(words[0]) or new_groups.get(words[0])
            if parent is None:
                group_name = _discord_name(words[0])
                if group_name is None or group_name in taken:
                    log.warning("the game command /%s is left out: Discord refuses its group's name", name)
                    continue
                all_gm = all(merged(n, specs[n])[2] for n in specs if n.split()[0] == words[0] and len(n.split()) == 2)
                parent = app_commands.Group(name=group_name, description=_clip(f"{words[0]} commands of the game"),
                                            guild_only=True, default_permissions=GM_ONLY if all_gm else None)
                new_groups[words[0]] = parent
                top.append(parent)
            if len(parent.commands) >= OPTIONS_LIMIT:
                log.warning("the game command /%s is left out: /%s has 25 subcommands already", name, words[0])
                continue
        command = build_command(bot, name, description, arguments, parent=parent, gm_only=gm_only)
        if command is None:
            continue
        if parent is not None:
            parent.add_command(command)
        else:
            top.append(command)
    return top
