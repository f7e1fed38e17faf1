"""Rule cases, one file per rule corner (like DATC for Diplomacy): draws, a script of posts, expectations.

Format of a `.case` file (see cases/README.md):

    # title
    [draws]                    archive lines; wheels not given are filled (see fill())
    2023/01/03 BA 90 80 70 60 50
    [script]                   NAME: TEXT posts; an indented line continues the post above; "draw: <archive line>"
                               publishes a draw at that point (its answer: what the campaign did with it)
    gm: /turn open 2023-01-03
    scipio: build temple in Latium
    [expect]
    post 2 refused "a temple needs suburbs"     (ok / refused, with text the answer must contain)
    says "Turn 1"                              (some answer contains it)
    not says "falls"
    state provinces.Latium.temple = false      (a path in `legatus state --json`, a JSON value)
    [setup]  (optional, before the script: GM rulings as `/gm set` lines, posted by gm); see cases/README.md
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.service import Legatus
from engine.lotto import WHEELS, wheels_on
from tests.conftest import PLAYERS

CASES = Path(__file__).parent / "cases"
DRAW = "draw"  # a script line by "draw" imports archive lines at that point of the script, as a draw published later
# Wheels a case does not give: the nations play in the seed's order (Carthaginians first) and draw
# Internal Conspiracy (28), the one event that changes nothing in the state; other wheels read 1 2 3 4 5.
NATION_FILL = {"BA": 60, "CA": 50, "FI": 40, "GE": 30, "MI": 20, "NA": 10}


def fill(wheel: str) -> list[str]:
    if wheel in NATION_FILL:
        return [str(NATION_FILL[wheel]), "28", "1", "2", "3"]
    return "1 2 3 4 5".split()


@dataclass
class Case:
    path: Path
    title: str = ""
    draws: list[str] = field(default_factory=list)
    setup: list[str] = field(default_factory=list)
    script: list[tuple[str, str]] = field(default_factory=list)
    expect: list[str] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=lambda: dict(PLAYERS))


def load_case(path: Path) -> Case:
    case = Case(path)
    section = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        if raw.startswith("#") and not case.title:
            case.title = raw.lstrip("# ").strip()
            continue
        if raw.lstrip().startswith("#"):
            continue
        if raw.strip().startswith("[") and raw.strip().endswith("]"):
            section = raw.strip()[1:-1]
            continue
        if section == "draws":
            case.draws.append(raw.strip())
        elif section == "setup":
            case.setup.append(raw.strip())
        elif section == "script":
            if raw[:1].isspace() and case.script:
                who, text = case.script[-1]
                case.script[-1] = (who, text + "\n" + raw.strip())
            else:
                who, _, text = raw.partition(":")
                case.script.append((who.strip(), text.strip()))
        elif section == "expect":
            case.expect.append(raw.strip())
        elif section == "players":
            nation, _, user = raw.partition("=")
            if user.strip():
                case.players[nation.strip()] = user.strip()
            else:
                case.players.pop(nation.strip(), None)
        else:
            raise AssertionError(f"{path.name}: line outside a section: {raw!r}")
    return case


def draws_text(lines: list[str]) -> str:
    """Archive lines, every draw completed with filler numbers on the wheels the case does not name."""
    given: dict[str, dict[str, list[str]]] = {}
    for line in lines:
        day, wheel, *numbers = line.split()
        given.setdefault(day, {})[wheel.upper()] = numbers
    out = []
    for day, wheels in given.items():
        from datetime import date

        y, m, d = (int(x) for x in day.split("/"))
        for wheel in wheels_on(date(y, m, d)):
            out.append("\t".join([day, wheel, *wheels.get(wheel, fill(wheel))]))
    return "\n".join(out) + "\n"


def lookup(state: Any, path: str) -> Any:
    value = state
    for part in path.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        else:
            value = value[part]
    return value


def run_case(service: Legatus, case: Case) -> tuple[list[str], dict[str, Any]]:
    if case.draws:
        report, _ = service.import_draws(draws_text(case.draws), case.path.name)
        assert not report.errors and not report.conflicts, report.errors + report.conflicts
    created = service.create_campaign("case", "mare-nostrum", "gm", case.players)
    assert created.changed, created.render()
    for line in case.setup:
        reply = service.post("gm", line)
        assert reply.ok, f"setup line {line!r}: {reply.render()}"
    answers = []
    for who, text in case.script:
        if who == DRAW:
            # A draw published while the campaign waits for it (live play: days after the orders). Its "answer" is
            # what the campaign did with it, as the bot would post it.
            report, progress = service.import_draws(draws_text(text.splitlines()), case.path.name)
            assert not report.errors and not report.conflicts, report.errors + report.conflicts
            answers.append("\n".join(line for lines in progress.values() for line in lines))
        else:
            answers.append(service.post(who, text).render())
    return answers, service.state()


def check(case: Case, answers: list[str], state: dict[str, Any]) -> None:
    everything = "\n".join(answers)
    for rule in case.expect:
        kind, _, rest = rule.partition(" ")
        if kind == "post":
            number, verdict, *text = rest.split(" ", 2)
            answer = answers[int(number) - 1]
            if verdict == "ok":
                assert "✗" not in answer, f"{rule}\n--- answer:\n{answer}"
            elif verdict == "refused":
                assert "✗" in answer, f"{rule}\n--- answer:\n{answer}"
            else:
                raise AssertionError(f"{case.path.name}: bad expectation {rule!r}")
            if text:
                assert json.loads(text[0]) in answer, f"{rule}\n--- answer:\n{answer}"
        elif kind == "says":
            assert json.loads(rest) in everything, f"{rule}\n--- answers:\n{everything}"
        elif kind == "not":
            _, _, quoted = rest.partition(" ")
            assert json.loads(quoted) not in everything, f"{rule}\n--- answers:\n{everything}"
        elif kind == "state":
            path, _, value = rest.partition(" = ")
            assert lookup(state, path) == json.loads(value), f"{rule}: got {lookup(state, path)!r}\n--- answers:\n{everything}"
        else:
            raise AssertionError(f"{case.path.name}: bad expectation {rule!r}")


CASE_FILES = sorted(CASES.glob("*.case"))


def test_there_are_cases() -> None:
    assert len(CASE_FILES) >= 1


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_case(service: Legatus, path: Path) -> None:
    case = load_case(path)
    assert case.expect, f"{path.name} expects nothing"
    answers, state = run_case(service, case)
    check(case, answers, state)
