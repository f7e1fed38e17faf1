"""`/roll <dice> [label]`: the GM's ad-hoc roll, read into the event the game's ruleset binds.

bot/service/shell_commands/lottery.py calls ``roll_event`` for the command "roll" (after the dispatch's GM check)
and appends the event as the campaign's GM; the service adds ``by`` (which of the GMs typed it) itself when the
author is not the GM identity, so the data here holds only what the command says.
"""
from __future__ import annotations

import re
from typing import Any

from bot.service.commands import CommandError, usage
from engine import dice

KIND = "roll.requested"
MAX_LABEL = 200
_MODIFIER = re.compile(r"^[+-]\d*$")


def _continues(expression: str, word: str) -> bool:
    if expression.endswith(("+", "-")):
        return word.isdigit()
    return bool(_MODIFIER.match(word))


def roll_event(args: list[str]) -> tuple[str, dict[str, Any]]:
    if not args:
        raise CommandError(f"usage: {usage('roll')} (for example /roll 2d6 siege of Numantia)")
    words = list(args)
    expression = words.pop(0)
    # "3d6 + 1" and "3d6 +1" arrive split into words; the modifier belongs to the dice, not the label.
    while words and _continues(expression, words[0]):
        expression += words.pop(0)
    try:
        parsed = dice.parse(expression)
    except dice.DiceError as exc:
        raise CommandError(f"{exc} (usage: {usage('roll')})") from None
    label = " ".join(" ".join(words).split())
    if len(label) > MAX_LABEL:
        raise CommandError(f"the label is {len(label)} characters long: keep it to {MAX_LABEL}")
    return KIND, {"dice": parsed.text, "label": label}
