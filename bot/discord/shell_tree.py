"""The shell's slash commands, built from their declarations (bot/service/shell_commands/) as the games' are from
their CommandSpecs (bot/discord/game_commands.py).

Each declared Discord face becomes one app command: "order" a top-level /order, "gm undo" a subcommand of /gm. Its
options come from the face (kinds by name: text, number, integer, flag, member, role, choice, or a vocabulary
autocompleted); it posts the line its ``line`` makes, as the author typed it, through the one dispatch, or runs the
Discord-only handler its ``action`` names (bot/discord/shell_actions.py). A declaration without a face gets one
built from its spec's arguments, exactly as a game's command. GM only is a hint here (Manage Server by default, which
a server admin can open to the GM role); the service's GM check is the rule.
"""
from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord
from discord import app_commands

from bot.discord.answers import run_text_command
from bot.discord.game_commands import GM_ONLY, PLAIN_KINDS, build_command, names_autocomplete, typed
from bot.discord.shell_actions import ACTIONS, ruleset_autocomplete
from bot.service import shell_commands
from bot.service.shell_commands import GROUPS, TYPED_ONLY, DiscordFace, ShellCommand, quoted

log = logging.getLogger("legatus.discord")

# A face's option kinds, as discord.py reads them from the callback's annotations.
ANNOTATIONS: dict[str, Any] = {"text": str, "number": float, "integer": int, "flag": bool, "member": discord.Member,
                               "role": discord.Role, "choice": str}
AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def discord_name(shell: ShellCommand) -> str | None:
    """The name the command has on Discord ("gm confirm-draw"), None when it has no Discord command."""
    if shell.discord == TYPED_ONLY or (shell.discord is None and not shell.typed):
        return None
    return shell.discord.name if isinstance(shell.discord, DiscordFace) else shell.name


def _shown(value: Any) -> Any:
    """A member or role as the mention the service reads; any other value as Discord gave it."""
    if isinstance(value, discord.Role):
        return f"<@&{value.id}>"
    if isinstance(value, discord.abc.User):
        return f"<@{value.id}>"
    return value


async def run_face(bot: Any, interaction: discord.Interaction, shell: ShellCommand, face: DiscordFace,
                   values: dict[str, Any]) -> None:
    given = {o.name: values.get(o.name) for o in face.options}
    if face.action is not None:
        await ACTIONS[face.action](bot, interaction, given)
        return
    shown = {name: _shown(value) for name, value in given.items()}
    text = face.line(shown) if face.line is not None else " ".join(
        [f"/{shell.name}", *(quoted(typed(v)) for v in shown.values() if v is not None and v != "")])
    await run_text_command(bot, interaction, text, face.embed_title, private=face.is_private(shown),
                           offer_undo=face.offer_undo)


def face_command(bot: Any, shell: ShellCommand, face: DiscordFace,
                 parent: app_commands.Group | None) -> app_commands.Command[Any, ..., Any]:
    leaf = face.name.split()[-1]
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    describe: dict[str, str] = {}
    choices: dict[str, list[app_commands.Choice[str]]] = {}
    completes: dict[str, Callable[..., Any]] = {}
    for option in face.options:
        default: Any = None if option.optional else inspect.Parameter.empty
        parameters.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY,
                                            annotation=ANNOTATIONS.get(option.kind, str), default=default))
        if option.description:
            describe[option.name] = option.description
        if option.choices:
            choices[option.name] = [app_commands.Choice(name=shown, value=value) for shown, value in option.choices]
        elif option.kind == "ruleset":
            completes[option.name] = ruleset_autocomplete
        elif option.kind not in (*PLAIN_KINDS, *ANNOTATIONS):
            completes[option.name] = names_autocomplete(option.kind)

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run_face(bot, interaction, shell, face, values)

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]  # discord.py reads it
    callback.__qualname__ = callback.__name__ = f"shell_command_{face.name.replace(' ', '_').replace('-', '_')}"
    for decorate, table in ((app_commands.describe, describe), (app_commands.choices, choices),
                            (app_commands.autocomplete, completes)):
        if table:
            decorate(**table)(callback)
    if parent is None:
        app_commands.guild_only()(callback)
        if shell.spec.gm_only:
            app_commands.default_permissions(manage_guild=True)(callback)
    return app_commands.Command(name=leaf, description=face.description, callback=callback, parent=parent)


def shell_tree(bot: Any, declared: Iterable[ShellCommand] | None = None
               ) -> tuple[list[AppCommand], dict[str, app_commands.Group], set[str]]:
    """The shell's app commands (top-level commands and groups, in declaration order), its groups by name (where the
    games' commands of two words go), and every name a game cannot take: the Discord ones and the typed ones."""
    commands = list(shell_commands.SHELL if declared is None else declared)
    named = [(shell, name) for shell in commands if (name := discord_name(shell)) is not None]
    top: list[AppCommand] = []
    groups: dict[str, app_commands.Group] = {}
    for shell, name in named:
        words = name.split()
        parent = None
        if len(words) == 2:
            parent = groups.get(words[0])
            if parent is None:
                all_gm = all(s.spec.gm_only for s, n in named if n.split()[0] == words[0])
                parent = groups[words[0]] = app_commands.Group(
                    name=words[0], description=GROUPS.get(words[0], f"{words[0]} commands"), guild_only=True,
                    default_permissions=GM_ONLY if all_gm else None)
                top.append(parent)
        if isinstance(shell.discord, DiscordFace):
            command: app_commands.Command[Any, ..., Any] | None = face_command(bot, shell, shell.discord, parent)
        else:  # as a game's command: the options from the spec's arguments, the line as typed
            command = build_command(bot, shell.name, shell.spec.help, shell.spec.arguments, parent=parent,
                                    gm_only=shell.spec.gm_only)
        if command is None:
            continue
        if parent is not None:
            parent.add_command(command)
        else:
            top.append(command)
    taken = {name for _, name in named} | {c.name for c in commands}
    return top, groups, taken


async def on_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """A bug must never leave a user with "thinking..." forever, nor show them a traceback."""
    log.error("slash command /%s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
    text = "Legatus hit an internal error on this command; the GM has the details in the log."
    from bot.store.at_rest import SealedKeyMissing

    if isinstance(getattr(error, "original", error), SealedKeyMissing):  # not a bug: a key to give back
        text = str(getattr(error, "original", error))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        pass
