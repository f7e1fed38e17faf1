"""Which reading of the seed a campaign follows: the rules fixed after a campaign began never change its fold.

``campaign.created`` carries ``rules_version`` for campaigns created since issue 24's rule fixes (the shell writes
the ruleset's ``rules_version``); a log without it (every older campaign) folds by version 1, as it always did.
"""
from __future__ import annotations

from typing import Any

from engine.events import Rejection

FIELD = "rules_version"
FIRST = 1  # campaigns created before the field: the thwart's modifiers declared with the attempt, before the dice
# Issue 24's readings of the seed (docs/rules/mediterranean-empires.md, "Rules versions"): 7.0, a thwart rolls both
# dice first, then the opponent and then the attempting player declare the modifiers they use on it (a King's
# diplomacy, the Pope, one TP: any of them, chosen, not "everything"); 10.1, a land force picks up friendly units not
# yet activated.
SEED_READINGS = 2
SEED_THWART = SEED_READINGS
# 3.1-3.2 as play: the game begins in a set-up phase where Player A, then Player B, place their majors' units and
# Kings (setup_phase.py); older campaigns began with the data's placement already on the map.
SEED_SETUP = 3
# From the same version: a die an order asks for as a lottery draw is recorded, bound to another wheel of that very
# draw, is settled at once (older campaigns left it waiting for a draw already recorded: their logs fold as they did).
SETTLE_AT_ONCE = SEED_SETUP
NEWEST = SEED_SETUP


def of(setup: dict[str, Any]) -> int:
    value = setup.get(FIELD, FIRST)
    if not isinstance(value, int) or isinstance(value, bool) or not FIRST <= value <= NEWEST:
        raise Rejection(f"rules_version {str(value)[:20]} is not one of this game's: {FIRST} to {NEWEST}")
    return value
