"""Which rules a Mare Nostrum: Empires campaign follows: a rule added after a campaign began never changes its fold.

``campaign.created`` carries ``rules_version`` for campaigns created since (the shell writes the ruleset's
``rules_version``); a log without it (every older campaign) folds by version 1, as it always did."""
from __future__ import annotations

from typing import Any

from engine.events import Rejection

FIELD = "rules_version"
FIRST = 1  # the tiles are shown and count for the 5-tile victory, no ability is played; the row's shuffle is open
ABILITIES = 2  # every tile's ability is played (abilities.py)
# From the same version the row's face-down tiles are a hidden deck (hidden_row.py): its order keyed by a deck key the
# bot seals at the campaign's creation; older campaigns keep the open shuffle bound at their first event.
HIDDEN_ROW = ABILITIES
# The seed's legendary goods are face down: each is a card of a hidden deck of the reserve on the same table, sealed
# to its holder and shown only when it leaves the screen (legendary.py); before, each was a public roll.
LEGENDARY_FACE_DOWN = 3
# From the same version a fortress falls with the province conquered by battle, to a pillage, or when the province
# is converted (fortresses.py); before, a fortress was never destroyed.
FORTRESS_FALLS = LEGENDARY_FACE_DOWN
# From the same version a province touching a sea of the empire's trireme chain counts as adjacent to the empire for
# influence and conversion (sea_adjacency.py), so the islands can be reached; before, land borders only.
ISLANDS_BY_SEA = LEGENDARY_FACE_DOWN
NEWEST = LEGENDARY_FACE_DOWN


def of(setup: dict[str, Any]) -> int:
    value = setup.get(FIELD, FIRST)
    if not isinstance(value, int) or isinstance(value, bool) or not FIRST <= value <= NEWEST:
        raise Rejection(f"rules_version {str(value)[:20]} is not one of this game's: {FIRST} to {NEWEST}")
    return value
