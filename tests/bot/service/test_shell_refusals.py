"""The shell's command table as a game sees it: the shell commands a game refuses, asked through its protocol."""
from __future__ import annotations

from pathlib import Path

from bot.service.commands import shell_refusals
from engine.rulesets import load_ruleset

DATA = Path(__file__).parents[3] / "data"


def test_the_refusals_are_those_a_game_declares() -> None:
    empires = load_ruleset("mediterranean-empires", DATA)
    state = empires.initial_state({"players": {}, "gm": "gm", "randomness": "drand"})
    assert sorted(shell_refusals(empires, state)) == [
        "campaign reveal", "gm lock", "gm unlock", "lotto cancelled", "lotto confirm", "roll", "turn close", "turn open",
    ]


def test_a_game_without_refusals_takes_every_shell_command() -> None:
    mare_nostrum = load_ruleset("mare-nostrum", DATA)
    assert shell_refusals(mare_nostrum, mare_nostrum.initial_state({"players": {}, "gm": "gm"})) == {}
