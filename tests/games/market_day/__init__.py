"""Market Day, a third test game: every piece of engine/tabletop/ through the ruleset boundary alone (a hidden deck
dealt face down, one from the bottom, a card sold and revealed, trades with a sealed promise in an open window, an
open ascending auction of a face-up card, a vote with a default). ``register()`` makes it loadable as "market-day"."""
from __future__ import annotations

from pathlib import Path

from engine import rulesets
from tests.games.market_day.ruleset import MarketDay

RULESET_ID = MarketDay.id


def load(data_dir: Path) -> MarketDay:
    return MarketDay()


def register() -> None:
    rulesets.register(RULESET_ID, load)
