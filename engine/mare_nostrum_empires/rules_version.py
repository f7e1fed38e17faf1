"""Which reading of the seed a campaign follows: a rule changed after a campaign began never changes its fold.

``campaign.created`` carries ``rules_version`` for campaigns created since the shell writes the ruleset's
``rules_version``; a log without it (every campaign created before) folds by version 1, as it always did.
"""
from __future__ import annotations

from typing import Any

from engine.events import Rejection

FIELD = "rules_version"
FIRST = 1  # a legendary good is the resource of a public roll: everyone knows what each empire holds
# The seed's legendary goods are face down: each is a card of a hidden deck of the reserve, sealed to its holder
# and shown only when it leaves the screen (legendary.py); the deck key is sealed when the campaign is created.
LEGENDARY_FACE_DOWN = 2
# A fortress falls with the province conquered by battle, to a pillage, or when the province is converted
# (fortresses.py); before, a fortress was never destroyed.
FORTRESS_FALLS = 3
NEWEST = FORTRESS_FALLS


def of(setup: dict[str, Any]) -> int:
    value = setup.get(FIELD, FIRST)
    if not isinstance(value, int) or isinstance(value, bool) or not FIRST <= value <= NEWEST:
        raise Rejection(f"rules_version {str(value)[:20]} is not one of this game's: {FIRST} to {NEWEST}")
    return value
