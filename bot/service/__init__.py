"""The handlers shared by every transport (Discord, console, command line): ``Legatus`` and its commands.

``from bot.service import Legatus`` works, but lazily: importing a light submodule (``bot.service.commands``)
does not load the whole service.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.service.legatus import BOT, DATA_DIR, CampaignNotFound, Legatus

__all__ = ["BOT", "DATA_DIR", "CampaignNotFound", "Legatus"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from bot.service import legatus

        return getattr(legatus, name)
    raise AttributeError(f"module 'bot.service' has no attribute {name!r}")
