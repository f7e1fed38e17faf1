"""Blind Auction, a second game used only by the tests: proof that a game can be hosted through the ruleset
boundary alone (engine/ruleset.py), with sealed content (engine/secrets.py) and a chance book (engine/chance/).
The rules are in ``ruleset.py``'s docstring; ``register()`` makes it loadable as "blind-auction"."""
from __future__ import annotations

from pathlib import Path

from engine import rulesets
from tests.games.blind_auction.ruleset import BlindAuction

RULESET_ID = BlindAuction.id


def load(data_dir: Path) -> BlindAuction:
    return BlindAuction.load(data_dir)


def register() -> None:
    """Make "blind-auction" loadable through ``engine.rulesets.load_ruleset``, as a shipped game would be."""
    rulesets.register(RULESET_ID, load)
