"""The shell's commands are declared once (bot/service/shell_commands/): the parser, the usage lines, /help and the
dispatch are all read from the declarations, and the GM check of a GM-only command is made in the one dispatch."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.service import commands, shell_commands
from bot.service.legatus import Legatus
from bot.service.shell_commands import Command, ShellCommand, done
from bot.store.campaigns import EventRow
from engine.ruleset import Argument, CommandSpec
from tests.conftest import LOTTO, PLAYERS

# The typed GM commands, each with arguments a GM could send: a player is refused before any is read.
GM_LINES = {
    "turn open": "/turn open 2023-01-05", "turn close": "/turn close", "gm undo": "/gm undo a slip",
    "gm void": "/gm void wrong nation", "gm lock": "/gm lock a break", "gm unlock": "/gm unlock back",
    "gm extend": "/gm extend Romans 24", "gm deadline": "/gm deadline Romans 2026-12-01 20:00",
    "campaign assign": "/campaign assign Romans mallory", "campaign reveal": "/campaign reveal",
    "roll": "/roll 2d6 a ruling", "lotto confirm": "/lotto confirm 2023-01-05 BA 1 2 3 4 5",
    "lotto cancelled": "/lotto cancelled 2023-01-05 a strike",
}


def _noted(reading: object, posting: object, line_no: int, command: Command) -> object:
    return done(line_no, command, f"noted: {' '.join(command.args)}", [f"usage was {command.usage}"])


NOTE = ShellCommand(CommandSpec("gm note", "Write a note to the table", (Argument("text", rest=True),), gm_only=True,
                                example="/gm note back on Monday"), _noted)  # type: ignore[arg-type]


@pytest.fixture
def started(service: Legatus) -> Legatus:
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS))
    assert service.post("gm", "/turn open 2023-01-03").ok
    return service


def _events(service: Legatus) -> int:
    with Session(service.engine) as session:
        return len(session.exec(select(EventRow)).all())


def test_the_typed_table_is_the_declarations() -> None:
    typed = shell_commands.typed_commands()
    assert list(commands.COMMANDS) == list(typed)
    assert commands.COMMANDS["gm deadline"] == (
        "/gm deadline <seat> <YYYY-MM-DD HH:MM, in the campaign's time zone>", "gm")
    assert commands.COMMANDS["campaign settings"][1] == "anyone", "shown to anyone; a change is checked by its handler"
    assert {name for name, c in typed.items() if c.spec.gm_only} == set(GM_LINES)
    # Discord-only declarations (a picture, a campaign's creation) are not typed commands.
    assert {c.name for c in shell_commands.SHELL if not c.typed} == {"campaign create", "map", "chart", "verify"}
    assert len({c.name for c in shell_commands.SHELL}) == len(shell_commands.SHELL)


def test_a_declared_command_is_parsed_helped_and_dispatched_with_no_other_edit(
        started: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_commands, "SHELL", (*shell_commands.SHELL, NOTE))
    parsed = commands.parse_command('/gm note "back on" Monday')
    assert (parsed.name, parsed.args, parsed.usage) == ("gm note", ["back on", "Monday"], "/gm note <text>")
    assert commands.help_text().endswith(", /gm note <text>")
    assert "/gm note <text>" in started.post("gm", "/help").render()
    answer = started.post("gm", "/gm note back Monday").answers[0]
    assert (answer.ok, answer.message, answer.details) == (True, "noted: back Monday", ["usage was /gm note <text>"])
    refused = started.post("antiochus", "/gm note I am the GM").answers[0]
    assert (refused.ok, refused.message) == (False, "refused: /gm note is for the GM (gm) only")


def test_without_its_declaration_a_command_is_unknown(started: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_commands, "SHELL", tuple(c for c in shell_commands.SHELL if c.name != "ledger"))
    answer = started.post("antiochus", "/ledger").answers[0]
    assert not answer.ok and answer.message.startswith("unknown command '/ledger'; commands: /turn open")
    assert "/ledger" not in commands.help_text()


@pytest.mark.parametrize("name", sorted(GM_LINES))
def test_a_player_is_refused_every_gm_command_and_nothing_is_written(started: Legatus, name: str) -> None:
    before = _events(started)
    reply = started.post("antiochus", GM_LINES[name])
    (answer,) = reply.answers
    assert (answer.ok, answer.message) == (False, f"refused: /{name} is for the GM (gm) only")
    assert _events(started) == before


def test_the_same_lines_from_the_gm_reach_their_handlers(started: Legatus) -> None:
    # Not refused as a player's are: each is read by its own handler (some then refused for the game's reasons).
    for name, line in GM_LINES.items():
        answer = started.post("gm", line).answers[0]
        assert "is for the GM" not in answer.message, (name, answer.message)


def test_campaign_settings_are_shown_to_anyone_and_changed_only_by_the_gm(started: Legatus) -> None:
    shown = started.post("antiochus", "/campaign settings").answers[0]
    assert shown.ok and shown.message.startswith("settings: time zone ")
    changed = started.post("antiochus", "/campaign settings player_hours=24").answers[0]
    assert (changed.ok, changed.message) == (False, "refused: /campaign settings is for the GM (gm) only")


def test_a_game_refuses_a_shell_command_before_the_gm_check(service: Legatus, tmp_path: Path) -> None:
    service.create_campaign("me", "mediterranean-empires", "gm", {"Player A": "ann", "Player B": "bob"})
    refused = service.post("ann", "/turn open").answers[0]
    assert refused.message.startswith("/turn open is not part of Mediterranean Empires: a game of Mediterranean "
                                      "Empires has no turn to open")


def test_a_game_command_cannot_take_a_shell_commands_name(started: Legatus, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = started.ruleset_of("c")
    own = ruleset.commands()
    monkeypatch.setattr(ruleset, "commands", lambda: [*own, CommandSpec("roll", "the game's own roll")])
    answer = started.post("gm", "/roll 2d6 a ruling").answers[0]
    assert (answer.ok, answer.message) == (True, "roll 2d6 a ruling"), "the shell's /roll runs, as on Discord"
    assert commands.help_text(ruleset.commands()).count("/roll") == 1
