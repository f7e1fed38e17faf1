"""`/roll <dice> [label]` read into its event, before the service appends it."""
from __future__ import annotations

import re

import pytest

from bot.service.commands import COMMANDS, CommandError, parse_command
from bot.service.roll_command import roll_event


@pytest.mark.parametrize(
    ("line", "data"),
    [
        ("/roll 2d6 siege of Numantia", {"dice": "2d6", "label": "siege of Numantia"}),
        ("/roll d20", {"dice": "1d20", "label": ""}),
        ("/roll 1d90 omen", {"dice": "1d90", "label": "omen"}),
        ("/roll 3d6+1 ambush", {"dice": "3d6+1", "label": "ambush"}),
        ("/roll 3d6 + 1 ambush", {"dice": "3d6+1", "label": "ambush"}),
        ("/roll 3d6 +1", {"dice": "3d6+1", "label": ""}),
        ("/roll 2d10-1 5 legions", {"dice": "2d10-1", "label": "5 legions"}),
        ('/roll 2d6 "storm  at sea"', {"dice": "2d6", "label": "storm at sea"}),
    ],
)
def test_roll_event(line: str, data: dict[str, str]) -> None:
    command = parse_command(line)
    assert command.name == "roll" and COMMANDS["roll"] == ("/roll <dice> [label]", "gm")
    assert roll_event(command.args) == ("roll.requested", data)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "usage: /roll <dice> [label]"),
        (["2d0"], "'2d0' has no sides: write e.g. 2d6"),
        (["siege"], "'siege' is not a dice roll"),
        (["2d6", "x" * 201], "keep it to 200"),
    ],
)
def test_bad_rolls_say_what_to_write(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        roll_event(args)
