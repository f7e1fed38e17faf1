"""The shell's slash commands, built from the same declarations as the typed ones (bot/discord/shell_tree.py), as
Discord receives them; and a player refused every GM command on the fake Discord, by the service's one check."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.shell_tree import discord_name, shell_tree
from bot.service import commands, shell_commands
from bot.service.shell_commands import Option, ShellCommand
from engine.ruleset import Argument, CommandSpec
from tests.bot.discord.test_discord_bot import Table, _role, run, set_up_campaign, table

GM_ONLY = discord.Permissions(manage_guild=True).value
NOTE = ShellCommand(CommandSpec("gm note", "Write a note to the table",
                                (Argument("seat", "seat"), Argument("text", optional=True)), gm_only=True),
                    lambda reading, posting, line_no, command: None)  # type: ignore[arg-type,return-value]


def _payload(commands_: list[Any]) -> dict[str, dict[str, Any]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return {c.name: c.to_dict(tree) for c in commands_}


def _names(payload: dict[str, dict[str, Any]]) -> set[str]:
    """Every command's full name: "order", "gm undo"."""
    names: set[str] = set()
    for name, command in payload.items():
        subs = [o["name"] for o in command.get("options") or [] if o["type"] == 1]
        names |= {f"{name} {sub}" for sub in subs} if subs else {name}
    return names


def test_the_tree_is_the_declared_faces() -> None:
    top, groups, taken = shell_tree(object())
    payload = _payload(top)
    declared = {n for c in shell_commands.SHELL if (n := discord_name(c)) is not None}
    assert _names(payload) == declared
    assert sorted(payload) == ["campaign", "chart", "gm", "ledger", "map", "order", "private", "roll", "settings",
                               "state", "turn", "undo", "verify"]
    assert sorted(groups) == ["campaign", "gm", "settings", "turn"]
    # A game can take none of them, nor a typed name (/status, /gm unlock).
    assert {"status", "gm unlock", "gm deadline", "help", "gm confirm-draw", "lotto confirm", "order"} <= taken
    # GM only is Discord's hint on a group all of whose commands are, and on a GM-only top-level command.
    assert payload["gm"]["default_member_permissions"] == GM_ONLY
    assert payload["turn"]["default_member_permissions"] is None
    assert payload["campaign"]["default_member_permissions"] is None
    assert payload["roll"]["default_member_permissions"] == GM_ONLY
    assert payload["order"]["default_member_permissions"] is None


def test_each_option_keeps_its_discord_type() -> None:
    top, _, _ = shell_tree(object())
    payload = _payload(top)
    subs = {f"{g} {o['name']}": o for g in ("campaign", "gm", "turn", "settings") for o in payload[g]["options"]}
    kinds = {name: [(o["name"], o["type"], o.get("required", False)) for o in c.get("options") or []]
             for name, c in {**payload, **subs}.items()}
    assert kinds["campaign create"] == [("name", 3, True), ("gm_role", 8, True), ("ruleset", 3, False),
                                        ("clock", 3, False), ("randomness", 3, False), ("options", 3, False)]
    assert kinds["campaign assign"] == [("seat", 3, True), ("player", 6, True)]
    assert kinds["gm lock"] == [("locked", 5, True), ("reason", 3, False)]
    assert kinds["gm extend"] == [("seat", 3, True), ("hours", 10, True)]
    assert kinds["undo"] == [("order", 4, False)]
    assert kinds["map"] == [("turn", 4, False)]
    assert [c["value"] for c in subs["campaign settings"]["options"][2]["choices"]] == ["pass", "wait"]
    assert subs["campaign assign"]["options"][0]["autocomplete"] and subs["campaign create"]["options"][2]["autocomplete"]
    assert subs["gm confirm-draw"]["description"] == "Type a lottery draw by hand when the sources disagree or are late"
    assert subs["turn open"]["options"][0]["description"] == "YYYY-MM-DD: the first draw on or after it (default: the next draw)"


def test_a_declared_command_gets_its_discord_command_with_no_other_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_commands, "SHELL", (*shell_commands.SHELL, NOTE))
    top, groups, taken = shell_tree(object())
    (note,) = [c for c in _payload([groups["gm"]])["gm"]["options"] if c["name"] == "note"]
    assert note["description"] == "Write a note to the table"
    assert [(o["name"], o["type"], o.get("required", False), o.get("autocomplete", False)) for o in note["options"]] \
        == [("seat", 3, True, True), ("text", 3, False, False)]
    assert "gm note" in taken and commands.parse_command("/gm note Romans hi").name == "gm note"


def test_an_option_kind_reaches_the_line_as_the_service_reads_it() -> None:
    face = next(c.discord for c in shell_commands.SHELL if c.name == "campaign assign")
    assert isinstance(face, shell_commands.DiscordFace) and face.line is not None
    assert face.line({"seat": 'the "Romans"', "player": "<@42>"}) == "/campaign assign \"the 'Romans'\" <@42>"
    lock = next(c.discord for c in shell_commands.SHELL if c.name == "gm lock")
    assert isinstance(lock, shell_commands.DiscordFace) and lock.line is not None
    assert (lock.line({"locked": False, "reason": None}), lock.line({"locked": True, "reason": "a break"})) \
        == ("/gm unlock", "/gm lock a break")
    assert Option("x").kind == "text"


def _value(t: Table, option: Option) -> Any:
    """A value a GM could give for ``option``."""
    if option.choices:
        return option.choices[0][1]
    return {"member": t.uid("bob"), "role": _role(t, "GM"), "number": 24, "integer": 1, "flag": True,
            "seat": "Romans"}.get(option.kind, "2023-01-05")


def test_a_player_is_refused_every_gm_command_on_discord(tmp_path: Path) -> None:
    faces = [c.discord for c in shell_commands.SHELL if c.spec.gm_only and isinstance(c.discord, shell_commands.DiscordFace)]
    assert sorted(f.name for f in faces) == ["campaign assign", "campaign reveal", "gm cancelled-draw", "gm confirm-draw",
                                             "gm extend", "gm lock", "gm undo", "gm void", "roll", "turn close",
                                             "turn open"]

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        before = t.service.export("mare")
        for face in faces:
            words = face.name.split()
            options = {o.name: _value(t, o) for o in face.options}
            answer = await t.slash("alice", words[0], words[1] if len(words) > 1 else None, **options)
            assert "is for the GM (<@&" in answer and t.ephemeral, (face.name, answer)
        assert t.service.export("mare") == before

    run(lambda: table(tmp_path, scenario))
