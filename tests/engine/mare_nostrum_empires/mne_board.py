"""Shared set-ups for Mare Nostrum: Empires' rule tests: the shipped data and a board at the start."""
from __future__ import annotations

import copy
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from engine.area_map import load_map
from engine.mare_nostrum_empires import setup
from engine.mare_nostrum_empires.rules_data import RulesData, build_rules, load_rules
from engine.mare_nostrum_empires.state import Board

DATA = Path(__file__).resolve().parents[3] / "data"


@cache
def rules() -> RulesData:
    return load_rules(DATA)


def raw() -> dict[str, Any]:
    """The shipped ruleset file as a dict, to be spoiled by a test."""
    return tomllib.loads((DATA / "rulesets" / "mare-nostrum-empires.toml").read_text(encoding="utf-8"))


def rebuild(data: dict[str, Any]) -> RulesData:
    return build_rules(data, load_map(DATA / "maps" / "mare-nostrum-empires.toml"))


def board(players: int = 3) -> Board:
    return copy.deepcopy(setup.start(rules(), players))
