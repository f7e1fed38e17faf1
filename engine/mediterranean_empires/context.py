"""What a rule function works with while one order is played: rules, state (a private copy), oracle, messages.

A rule refuses an order with the engine's ``Rejection`` (engine/events.py): its message says why and what would be
right, and its ``hidden_of`` names the seat whose hidden hand the reason reads (``Ctx.seat`` of the side).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.mediterranean_empires.oracle import Oracle
from engine.mediterranean_empires.rules_data import RulesData
from engine.mediterranean_empires.state import State


@dataclass
class Ctx:
    rules: RulesData
    state: State
    oracle: Oracle = field(default_factory=Oracle)
    messages: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.messages.append(text)

    def dice(self, label: str, count: int = 1, sides: int = 6) -> list[int]:
        """The one door for chance: every die of the game is asked for here, by label."""
        return self.oracle.dice(label, count, sides)

    def die(self, label: str) -> int:
        return self.dice(label, 1, 6)[0]

    def seat(self, side: str) -> str:
        return self.rules.seat_of_side(side)


def other(side: str) -> str:
    return "B" if side == "A" else "A"
