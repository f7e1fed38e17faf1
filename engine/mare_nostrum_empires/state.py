"""The board as the fold holds it: who has influence where, what is built, the units, each empire's screen."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ProvinceState:
    influence: str | None = None  # the empire whose influence marker is here
    built: set[str] = field(default_factory=set)
    occupied: dict[str, str] = field(default_factory=dict)  # building -> the conqueror whose unit stands on it
    legions: dict[str, int] = field(default_factory=dict)
    fortress: str | None = None  # the empire whose fortress stands here (one per province)
    at_war: bool = False
    conqueror: str | None = None
    converting: str | None = None  # a conqueror whose unit stands on the influence marker

    def controller(self, building: str) -> str | None:
        """A building's controller: the conqueror whose unit stands on it, else the influence holder."""
        if building not in self.built:
            return None
        return self.occupied.get(building, self.influence)


@dataclass
class Screen:
    """What is behind an empire's screen."""

    goods: dict[str, int] = field(default_factory=dict)
    taxes: int = 0
    legendary: list[str] = field(default_factory=list)  # legendary goods, each a resource (face down to others)
    tiles: list[str] = field(default_factory=list)  # Heroes and Wonders, the national hero first
    pyramids: bool = False

    def token_count(self) -> int:
        return sum(self.goods.values()) + self.taxes + len(self.legendary)


@dataclass
class Board:
    round: int
    empires: tuple[str, ...]  # in play, in seating order
    provinces: dict[str, ProvinceState]
    triremes: dict[str, dict[str, int]]  # sea -> empire -> count
    screens: dict[str, Screen]
    leaders: dict[str, str]  # title -> empire
    levels: dict[str, dict[str, int]] = field(default_factory=dict)  # title -> empire -> level, after each phase
    rules_version: int = 1  # the campaign's rules (rules_version.py): the abilities act from version 2
