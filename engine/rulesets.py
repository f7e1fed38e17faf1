"""The rulesets Legatus can host, by id. Each loads its own data files from the data folder."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.ruleset import Ruleset


def _mare_nostrum(data_dir: Path) -> Ruleset:
    from engine.mare_nostrum.ruleset import MareNostrum

    return MareNostrum.load(data_dir)


def _mediterranean_empires(data_dir: Path) -> Ruleset:
    from engine.mediterranean_empires.ruleset import MediterraneanEmpires

    return MediterraneanEmpires.load(data_dir)


LOADERS: dict[str, Callable[[Path], Ruleset]] = {
    "mare-nostrum": _mare_nostrum,
    "mediterranean-empires": _mediterranean_empires,
}
_cache: dict[tuple[str, Path], Ruleset] = {}


def load_ruleset(ruleset_id: str, data_dir: Path) -> Ruleset:
    if ruleset_id not in LOADERS:
        raise KeyError(f"unknown ruleset '{ruleset_id}': available are {', '.join(sorted(LOADERS))}")
    key = (ruleset_id, data_dir.resolve())
    if key not in _cache:
        _cache[key] = LOADERS[ruleset_id](data_dir)
    return _cache[key]
