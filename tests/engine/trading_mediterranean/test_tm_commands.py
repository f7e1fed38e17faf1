"""The slash commands as order lines: each command is read as the line a player would type, so a command and a
typed line give the same order; missing or extra arguments are refused with the usage and an example."""
from __future__ import annotations

import pytest

from engine.trading_mediterranean.commands import COMMANDS, command_line
from tests.engine.trading_mediterranean.tm_table import RULES, Table

FOUR = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}


@pytest.mark.parametrize(("name", "args", "line"), [
    ("offer", ["2 grain", "1 wine", "Bob"], "offer 2 grain for 1 wine to Bob"),
    ("counter", ["3", "1 salt", "1 dye"], "counter 3 1 salt for 1 dye"),
    ("accept", ["3"], "accept 3"),
    ("accept", ["3", "civic.4"], "accept 3 with civic.4"),
    ("warehouse", ["wine,", "dye"], "warehouse wine, dye"),
    ("use", ["Assembly", "Bob"], "use Assembly on Bob"),
    ("develop", ["Industry", "", "grain"], "buy Industry on grain"),
    ("develop", ["Settlement", "salt", "", "", "2"], "buy Settlement from salt steps 2"),
    ("points", ["2"], "vp 2"),
    ("vote", ["no", "one"], "vote no one"),
    ("lose", ["city,", "grain", "farm"], "lose city, grain farm"),
    ("bank", ["poverty"], "bank poverty"),
    ("revolt", [], "revolt"),
])
def test_each_command_is_the_line_a_player_would_type(name: str, args: list[str], line: str) -> None:
    assert command_line(name, args) == line


def test_wrong_arguments_are_refused_with_the_usage() -> None:
    with pytest.raises(ValueError, match=r"^/offer takes 3 argument\(s\), not 2: /offer <give> <get> <to>, e.g. "
                                         r"/offer 2 grain 1 wine Egypt$"):
        command_line("offer", ["2 grain", "1 wine"])
    with pytest.raises(ValueError, match=r"^/done takes 0 argument\(s\), not 1"):
        command_line("done", ["now"])
    with pytest.raises(ValueError, match=r"^/develop takes 1 to 5 argument\(s\), not 0"):
        command_line("develop", [])
    assert RULES.commands() == list(COMMANDS)


def test_a_command_reads_as_its_typed_line_in_the_game() -> None:
    t = Table(FOUR, "commands")
    state = t.state
    by_command = RULES.read_command(state, "ann", "revolt", [], is_gm=False)
    (typed,) = RULES.read_post(state, "ann", "revolt")
    assert (by_command.kind, by_command.data) == (typed.kind, typed.data) == ("civic.revolt", {"seat": "Ann", "track": "government"})
    assert RULES.read_command(state, "ann", "battle", [], is_gm=False).error == (
        "Trading in the Mediterranean has no command /battle: post orders instead")
    assert RULES.read_command(state, "ann", "use", ["Assembly"], is_gm=False).error == (
        "/use takes 2 argument(s), not 1: /use <building> <seat>, e.g. /use Assembly Egypt")
    assert RULES.names("good") == ["salt", "timber", "wool", "grain", "ore", "wine", "dye", "slaves", "art", "luxury",
                                   "money", "vp"]
    assert RULES.resolve("development", "fishing").name == "Fishing Port"
