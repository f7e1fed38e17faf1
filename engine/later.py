"""Modules imported where they are first used, not where they are named.

A game's ruleset names every module its rules are played by, but a process that only reads a campaign (``legatus
map`` of a campaign folded from its snapshot, a summary) plays no order: importing the orders, their parser and
the handlers would be most of what it spends on the game's code (Mediterranean Empires: ~30 ms of CPU, the
creation of some forty dataclasses). ``later`` stands for such a module: the module is imported by the first
attribute read through it, and every read asks the import system again, so a module patched or reloaded is seen as
it is now. ``importlib.import_module`` holds the import lock: two threads that read at once get one module.
"""
from __future__ import annotations

import importlib
from typing import Any


class Later:
    """Stands for the module ``name``: ``Later("x.y").f`` is ``x.y.f``, x.y imported on the first such read."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self._name), attr)

    def __repr__(self) -> str:
        return f"<module {self._name!r}, imported where first used>"


def later(package: str, *names: str) -> tuple[Later, ...]:
    """One ``Later`` for each of the modules ``package.name``."""
    return tuple(Later(f"{package}.{name}") for name in names)
