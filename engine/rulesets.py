"""The rulesets Legatus can host, by id. Each loads its own data files from the data folder.

The games shipped with Legatus are listed in ``LOADERS``; ``register`` adds one more at run time (a game under
test, a game from another package) without editing this registry.
"""
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


def _mare_nostrum_empires(data_dir: Path) -> Ruleset:
    from engine.mare_nostrum_empires.ruleset import MareNostrumEmpires

    return MareNostrumEmpires.load(data_dir)


def _trading_mediterranean(data_dir: Path) -> Ruleset:
    from engine.trading_mediterranean.ruleset import TradingMediterranean

    return TradingMediterranean.load(data_dir)


# The game a new campaign plays when none is named (the command line, Discord's /campaign create).
DEFAULT = "mare-nostrum"
LOADERS: dict[str, Callable[[Path], Ruleset]] = {
    "mare-nostrum": _mare_nostrum,
    "mediterranean-empires": _mediterranean_empires,
    "mare-nostrum-empires": _mare_nostrum_empires,
    "trading-mediterranean": _trading_mediterranean,
}
_cache: dict[tuple[str, Path], Ruleset] = {}


def register(ruleset_id: str, loader: Callable[[Path], Ruleset]) -> None:
    """Make ``ruleset_id`` loadable. Registering the same loader again is harmless; another loader for an id in use
    is refused, so a game cannot silently take the place of another one."""
    known = LOADERS.get(ruleset_id)
    if known is not None and known != loader:
        raise ValueError(f"the ruleset id '{ruleset_id}' is already registered to another loader")
    LOADERS[ruleset_id] = loader


def registered() -> list[str]:
    """The ids of every ruleset that can be loaded now, sorted."""
    return sorted(LOADERS)


def load_ruleset(ruleset_id: str, data_dir: Path) -> Ruleset:
    if ruleset_id not in LOADERS:
        raise KeyError(f"unknown ruleset '{ruleset_id}': available are {', '.join(sorted(LOADERS))}")
    key = (ruleset_id, data_dir.resolve())
    if key not in _cache:
        _cache[key] = LOADERS[ruleset_id](data_dir)
    return _cache[key]
