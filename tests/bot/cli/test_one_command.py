"""Building only the named command's parser (bot/cli/one_command.py) changes nothing a user sees: each command
parses and explains itself exactly as among all the others, and a line naming no command, or a wrong one, still
gets every command."""
from __future__ import annotations

import argparse
import time

import pytest

from bot.cli.main import build_parser, main
from bot.cli.one_command import named_command


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Every parser's help under ``parser``, by its prog: the nested ones too (`lotto import`)."""
    out = {parser.prog: parser.format_help()}
    for sub in _commands(parser).values():
        out.update(_helps(sub))
    return out


EVERY = build_parser()
NAMES = sorted(_commands(EVERY))


def test_the_whole_parser_has_every_command() -> None:
    assert len(NAMES) >= 16 and {"map", "chart", "state", "lotto", "run", "console", "new", "verify"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_command_alone_is_the_same_parser_as_among_all(name: str) -> None:
    alone = build_parser(name)
    assert list(_commands(alone)) == [name]
    assert _helps(_commands(alone)[name]) == _helps(_commands(EVERY)[name])
    assert [(a.dest, a.option_strings, a.default, a.required) for a in _commands(alone)[name]._actions] == \
        [(a.dest, a.option_strings, a.default, a.required) for a in _commands(EVERY)[name]._actions]


def test_a_command_line_parses_to_the_same_arguments() -> None:
    line = ["map", "--db", "x.db", "--out", "m.png", "--turn", "3", "--width", "1200"]
    assert vars(build_parser("map").parse_args(line)) == vars(EVERY.parse_args(line))
    line = ["lotto", "list", "--db", "x.db", "--limit", "3"]
    assert vars(build_parser("lotto").parse_args(line)) == vars(EVERY.parse_args(line))


def test_no_command_or_a_wrong_one_gets_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert named_command([]) is None and named_command(["--help"]) is None and named_command(["map", "-h"]) == "map"
    assert sorted(_commands(build_parser("mpa"))) == NAMES
    with pytest.raises(SystemExit) as exit_:
        main(["mpa", "--db", "x.db"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'mpa'" in err and "'map'" in err and "'chart'" in err


def test_one_command_is_quicker_to_build_than_all() -> None:
    def cost(command: str | None) -> float:
        start = time.process_time()
        for _ in range(5):
            build_parser(command)
        return time.process_time() - start

    cost(None), cost("map")  # imports done
    assert cost("map") < cost(None) / 3
