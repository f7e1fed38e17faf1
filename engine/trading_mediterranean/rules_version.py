"""Which reading of the seed a campaign of Trading in the Mediterranean follows: a rule changed after a campaign
began never changes its fold.

``campaign.created`` carries ``rules_version`` for campaigns created since issue 27's second part (the shell writes
the ruleset's ``rules_version``); a log without it, every older campaign, folds by version 1 as it always did.
"""
from __future__ import annotations

from typing import Any

from engine.events import Rejection

FIELD = "rules_version"
FIRST = 1  # a fixed order picks a calamity victim's losses and a Bank's use; the open development decks
# The players choose what the seed lets them choose: a calamity victim names its own losses, a Bank's owner its use
# (each a prompt with a deadline whose default is version 1's fixed choice); losing the warehouse cube discards the
# cards warehoused. After a turn with Piracy the whole luxury deck is reshuffled, not only its discard pile. The
# development and calamity decks are face down (hidden, keyed by the deck key), each turn's drawn, sealed, revealed.
OWN_CHOICES = 2
NEWEST = OWN_CHOICES


def of(setup: dict[str, Any]) -> int:
    value = setup.get(FIELD, FIRST)
    if not isinstance(value, int) or isinstance(value, bool) or not FIRST <= value <= NEWEST:
        raise Rejection(f"rules_version {str(value)[:20]} is not one of this game's: {FIRST} to {NEWEST}")
    return value
