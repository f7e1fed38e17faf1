"""Games from outside the package: ``LEGATUS_RULESETS="id=module:function,..."`` registers each loader.

A community can play its own game without changing Legatus: a package with a ruleset (engine/ruleset.py's
protocol) and a function ``load(data_dir) -> Ruleset``. The tests register their small second game this way.
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Mapping

from engine import rulesets

ENV = "LEGATUS_RULESETS"


class PluginError(ValueError):
    """A LEGATUS_RULESETS entry that cannot be loaded; the message quotes it and says what to write."""


def load_plugins(environ: Mapping[str, str] = os.environ) -> list[str]:
    loaded = []
    for entry in (e.strip() for e in environ.get(ENV, "").split(",")):
        if not entry:
            continue
        ruleset_id, sep, target = entry.partition("=")
        module_name, colon, attribute = target.partition(":")
        if not sep or not colon or not ruleset_id.strip() or not module_name or not attribute:
            raise PluginError(f"{ENV}: '{entry[:80]}' is not id=module:function, e.g. my-game=my_game.rules:load")
        try:
            loader = getattr(importlib.import_module(module_name.strip()), attribute.strip())
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"{ENV}: cannot load '{target[:80]}': {exc}") from None
        rulesets.register(ruleset_id.strip(), loader)
        loaded.append(ruleset_id.strip())
    return loaded
