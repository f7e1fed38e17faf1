"""The slash commands built from the games' CommandSpecs (bot/discord/game_commands.py), as Discord receives them."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.game_commands import add_game_commands, merged, typed
from engine.ruleset import Argument, CommandSpec


def _payload(commands: list[Any]) -> dict[str, dict[str, Any]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return {c.name: c.to_dict(tree) for c in commands}


def test_each_spec_becomes_a_command_with_typed_options() -> None:
    gm = app_commands.Group(name="gm", description="GM tools")
    specs = {
        "battle": [CommandSpec("battle", "report a battle", (
            Argument("province", "province", "where"), Argument("winner", "side"),
            Argument("screenshot", "attachment", "the end screen", optional=True)))],
        "gm set": [CommandSpec("gm set", "set a fact", (Argument("what", "choice", choices=("stability", "owner")),
                                                         Argument("value", "number")), gm_only=True)],
        "market buy": [CommandSpec("market buy", "buy goods", (Argument("goods", "text"),), gm_only=True)],
        "order": [CommandSpec("order", "a game's own /order")],
    }
    top = add_game_commands(object(), {"gm": gm}, {"order", "gm undo"}, specs)
    payload = _payload(top)
    assert sorted(payload) == ["battle", "market"], "the shell's /order is not shadowed"
    options = {o["name"]: o for o in payload["battle"]["options"]}
    assert options["province"]["type"] == 3 and options["province"]["required"] and options["province"]["autocomplete"]
    assert options["screenshot"]["type"] == 11 and not options["screenshot"].get("required")
    assert payload["battle"]["default_member_permissions"] is None
    (gm_set,) = [c for c in gm.commands if c.name == "set"]
    set_options = {o["name"]: o for o in _payload([gm])["gm"]["options"][0]["options"]}
    assert [c["value"] for c in set_options["what"]["choices"]] == ["stability", "owner"] and gm_set.parent is gm
    assert set_options["value"]["type"] == 10  # a number
    assert payload["market"]["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    assert typed(3.0) == "3" and typed(2.5) == "2.5"


def test_games_that_disagree_on_a_command_share_one_free_text_option() -> None:
    one = CommandSpec("concede", "give up", (Argument("seat", "seat", optional=True),))
    two = CommandSpec("concede", "give up", (Argument("power", "power"), Argument("reason", optional=True)))
    description, arguments, gm_only = merged("concede", [one, two])
    assert arguments is None and "/concede [<seat>]" in description and "/concede <power> [<reason>]" in description
    assert merged("concede", [one, one])[1] == one.arguments
    (command,) = add_game_commands(object(), {}, set(), {"concede": [one, two]})
    options = _payload([command])["concede"]["options"]
    assert [(o["name"], o["type"], o.get("required", False)) for o in options] == [("args", 3, False)]
