"""What a rule function works with while one event is applied."""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.events import Event
from engine.mare_nostrum.rules_data import RulesData
from engine.mare_nostrum.state import State


@dataclass
class Ctx:
    rules: RulesData
    state: State  # a private copy, changed in place
    event: Event
    messages: list[str] = field(default_factory=list)

    def say(self, text: str) -> None:
        self.messages.append(text)

    def player_of(self, nation: str | None) -> str:
        if nation is None or nation not in self.state.nations:
            return self.state.gm
        ns = self.state.nations[nation]
        return ns.player if ns.alive and ns.player else self.state.gm


def pick(number: int, count: int) -> int:
    """Which of ``count`` candidates a lottery number 1..90 picks: equal ranges, lowest numbers first.

    With two candidates this is the seed's own rule for invasions: 1-45 the first, 46-90 the second.
    """
    return min(count - 1, (number - 1) * count // 90)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
