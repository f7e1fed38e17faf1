"""Which lottery slots a roll may take, by the rule its campaign was created under.

The five numbers of one wheel of a draw are drawn without replacement, so any two of them are linked: two d6 from
two positions of one wheel are equal with probability 14/89 = 0.157, not 1/6, and two 1..90 numbers can never be
equal. Rule 1 (campaigns created before issue 22) kept the numbers of *one* roll on distinct wheels of a draw, but
let separate rolls of a campaign take further positions of a wheel once every wheel's first number was taken.

Rule 2 (``"lottery_slots": 2`` in ``campaign.created``): **a wheel of a draw gives the campaign one number, its
first** (the "primo estratto"). Each wheel is then an independent draw of its own, so no two numbers a campaign
uses are ever linked, whichever rolls they serve; a draw gives 10 numbers (the Nazionale wheel is not used: it did
not exist before 2005), and a roll or a re-roll that needs more moves on to the next draw offered.

Mare Nostrum applies rule 2 to the GM's dice only (engine/mare_nostrum/slots.py): its other rolls are read with
the meanings its rules fix, at 32 slots a draw, and one number per wheel would make most of its turns wait for a
second draw (docs/randomness.md section 1 weighs it).

A campaign keeps the rule it was created under, so an old log replays to the same slots, state and chain head.
"""
from __future__ import annotations

ONE_ROLL_PER_WHEEL = 1  # rule 1: one roll's numbers on distinct wheels; separate rolls may share a wheel
ONE_NUMBER_PER_WHEEL = 2  # rule 2: a wheel of a draw serves one number, its first, to the whole campaign
NEWEST = ONE_NUMBER_PER_WHEEL
CREATED_KEY = "lottery_slots"  # the field of ``campaign.created`` that names the rule
POSITIONS = range(1, 6)  # the five numbers of a wheel


def rule_of(setup: dict[str, object]) -> int:
    """The rule a campaign was created under: rule 1 when ``campaign.created`` names none (every older log)."""
    value = setup.get(CREATED_KEY, ONE_ROLL_PER_WHEEL)
    return value if isinstance(value, int) and value in (ONE_ROLL_PER_WHEEL, ONE_NUMBER_PER_WHEEL) else ONE_ROLL_PER_WHEEL

