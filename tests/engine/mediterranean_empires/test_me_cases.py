"""Rule cases of Mediterranean Empires, one file per rule corner (cases/README.md), played through the game's
Ruleset event by event in the bot's own fold (me_play.Play): a set-up, orders with their dice and answers, and what
must come of them."""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.events import Rejection
from tests.engine.mediterranean_empires.me_play import Play

CASES = Path(__file__).parent / "cases"
KIND_WORDS = {"field army": "field_army", "levy": "levy", "raider": "raider", "mercenary": "mercenary", "fleet": "fleet"}


@dataclass
class Step:
    side: str
    text: str
    dice: list[int] = field(default_factory=list)
    answers: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Case:
    path: Path
    title: str = ""
    setup: list[str] = field(default_factory=list)
    script: list[Step] = field(default_factory=list)
    expect: list[str] = field(default_factory=list)


def load_case(path: Path) -> Case:
    case, section = Case(path), None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("  #")[0].rstrip()
        if not line.strip():
            continue
        if line.startswith("# ") and not case.title:
            case.title = line[2:]
        elif line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "script" and raw[:1].isspace():
            word, _, rest = line.strip().partition(" ")
            if word == "dice":
                case.script[-1].dice += [int(v) for v in rest.split()]
            elif word == "answer":
                kind, _, answer = rest.partition(":")
                case.script[-1].answers.setdefault(kind.strip(), []).append(answer.strip())
            else:
                raise ValueError(f"{path.name}: '{line.strip()}' is neither 'dice ...' nor 'answer <kind>: ...'")
        elif section == "script":
            side, _, text = line.partition(":")
            case.script.append(Step(side.strip(), text.strip()))
        elif section in ("setup", "expect"):
            getattr(case, section).append(line.strip())
        else:
            raise ValueError(f"{path.name}: '{line}' is outside a section")
    return case


def set_up(p: Play, line: str) -> None:
    """One set-up line: the state a case starts from (a test's hand on the board, not an event of the game)."""
    words = shlex.split(line)
    st = p.state
    if words[0] == "rules":  # rules <version>: the reading of the seed the campaign follows (rules_version.py)
        st.rules_version = int(words[1])
    elif words[0] == "phase":  # phase <name...> <side to act>
        st.phase, st.to_move = " ".join(words[1:-1]), words[-1]
    elif words[0] == "clear":  # clear <area> [<area>...]
        p.clear(*words[1:])
    elif words[0] == "put":  # put <power> <unit type> <area> [count]
        for _ in range(int(words[4]) if len(words) > 4 else 1):
            p.put(words[1], KIND_WORDS[words[2]], words[3])
    elif words[0] == "owner":  # owner <area> <side or power>
        st.owner[words[1]] = words[2]
    elif words[0] == "status":  # status <power> <ally|vassal|neutral> [side]
        st.status[words[1]], st.side_of[words[1]] = words[2], words[3] if len(words) > 3 else None
    elif words[0] == "hold":  # hold <side> <marker>
        p.hold(words[1], words[2])
    elif words[0] == "treasury":  # treasury <side> <TP>
        st.sides[words[1]].treasury = int(words[2])
    elif words[0] == "king":  # king <power> <area>
        st.kings[words[1]].area = words[2]
    else:
        raise ValueError(f"unknown set-up line '{line}'")


def run(case: Case) -> tuple[Play, list[str | None], list[str]]:
    """The case played: its Play, per script step the refusal (or None), and every message said."""
    p = Play()
    for line in case.setup:
        set_up(p, line)
    refusals: list[str | None] = []
    for step in case.script:
        try:
            p.order(step.side, step.text)
            p.drive(list(step.dice), dict(step.answers))
            refusals.append(None)
        except Rejection as exc:
            refusals.append(exc.reason)
    return p, refusals, p.messages


def lookup(view: Any, path: str) -> Any:
    for part in path.split("."):
        view = view[int(part)] if isinstance(view, list) else view[part]
    return view


def check(case: Case, p: Play, refusals: list[str | None], said: list[str]) -> None:
    text = "\n".join(said)
    for line in case.expect:
        word, _, rest = line.partition(" ")
        if word in ("says", "not"):
            wanted = json.loads(rest.removeprefix("says ").strip())
            assert (wanted in text) == (word == "says"), f"{case.path.name}: {line}\n--- said:\n{text}"
        elif word == "order":  # order <n> ok | order <n> refused "<text>"
            n, verdict, quoted = (rest.split(" ", 2) + [""])[:3]
            got = refusals[int(n) - 1]
            if verdict == "ok":
                assert got is None, f"{case.path.name}: order {n} refused: {got}"
            else:
                assert got is not None and json.loads(quoted) in got, f"{case.path.name}: order {n}: {got}"
        elif word == "state":  # state <path in the public view> = <JSON>
            path, _, value = rest.partition(" = ")
            got = lookup(p.game.public_view(p.state), path.strip())
            assert got == json.loads(value), f"{case.path.name}: {path} is {got!r}"
        elif word == "units":  # units <area> = <power> <unit type>, ... (sorted)
            area, _, value = rest.partition(" = ")
            got = sorted(f"{u.power} {u.kind.replace('_', ' ')}" for u in p.state.units_in(area.strip()))
            assert got == sorted(v.strip() for v in value.split(",") if v.strip()), f"{case.path.name}: {area}: {got}"
        else:
            raise ValueError(f"{case.path.name}: unknown expectation '{line}'")


@pytest.mark.parametrize("path", sorted(CASES.glob("*.case")), ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    case = load_case(path)
    assert case.title and case.script and case.expect, f"{path.name}: a case has a title, a script and expectations"
    check(case, *run(case))


def test_every_case_file_is_run() -> None:
    assert len(list(CASES.glob("*.case"))) >= 5
