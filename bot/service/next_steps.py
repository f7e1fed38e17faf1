"""Who is to do what now, and how to type it, in words any game's prompts give: the first hour of a campaign
depends on it (a newcomer cannot guess that a game begins with 'draw' rather than /turn open)."""
from __future__ import annotations

from typing import Any

from bot.service.deadline_text import seat_players


def next_steps(ruleset: Any, state: Any) -> list[str]:
    """One line per seat the game waits for: its player, what is asked, and a line to type."""
    players = seat_players(ruleset, state)
    lines = []
    for prompt in ruleset.prompts(state):
        example = f"; for example: {prompt.choices[0]}" if prompt.choices else ""
        lines.append(f"{prompt.seat} ({players.get(prompt.seat) or 'no player yet'}) to play: {prompt.what}{example}")
    return lines


def first_step(ruleset: Any, state: Any) -> str:
    """What a new campaign waits for first: its prompts, or (a game that waits for the GM, e.g. to open a turn) the
    first line of its status."""
    steps = next_steps(ruleset, state)
    if steps:
        return "First: " + "; ".join(steps) + "."
    return ruleset.status(state).splitlines()[0]
