"""Which lottery slots a roll may take, by the rule its campaign was created under.

The five numbers of one wheel of a draw are drawn without replacement, so any two of them are linked: two d6 from
two positions of one wheel are equal with probability 14/89 = 0.157, not 1/6, and two 1..90 numbers can never be
equal. Rule 1 (campaigns created before issue 22) kept the numbers of *one* roll on distinct wheels of a draw, but
let separate rolls of a campaign take further positions of a wheel once every wheel's first number was taken.

Rule 2 (``"lottery_slots": 2`` in ``campaign.created``): **a wheel of a draw gives the campaign one number, its
first** (the "primo estratto"). Each wheel is then an independent draw of its own, so no two numbers a campaign
uses are ever linked, whichever rolls they serve; a draw gives 10 numbers (the Nazionale wheel is not used: it did
not exist before 2005), and a roll or a re-roll that needs more moves on to the next draw offered.

A campaign keeps the rule it was created under, so an old log replays to the same slots, state and chain head.
"""
from __future__ import annotations

from collections.abc import Collection

ONE_ROLL_PER_WHEEL = 1  # rule 1: one roll's numbers on distinct wheels; separate rolls may share a wheel
ONE_NUMBER_PER_WHEEL = 2  # rule 2: a wheel of a draw serves one number, its first, to the whole campaign
NEWEST = ONE_NUMBER_PER_WHEEL
CREATED_KEY = "lottery_slots"  # the field of ``campaign.created`` that names the rule


def rule_of(setup: dict[str, object]) -> int:
    """The rule a campaign was created under: rule 1 when ``campaign.created`` names none (every older log)."""
    value = setup.get(CREATED_KEY, ONE_ROLL_PER_WHEEL)
    return value if isinstance(value, int) and value in (ONE_ROLL_PER_WHEEL, ONE_NUMBER_PER_WHEEL) else ONE_ROLL_PER_WHEEL


def wheels_in_use(used: Collection[str], dates: Collection[str]) -> set[tuple[str, str]]:
    """(date, wheel) of every slot ``date|wheel|position`` among ``used`` on one of ``dates``."""
    found = set()
    for key in used:
        parts = key.split("|")
        if len(parts) == 3 and parts[0] in dates:
            found.add((parts[0], parts[1]))
    return found
