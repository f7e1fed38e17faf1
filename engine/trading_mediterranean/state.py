"""Plain dataclasses for a civilization: its tracks, population, buildings, culture and holdings of points."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Track:
    """A double-sided board: the side face up and the marker's level on it (0 is the start)."""

    side: str
    level: int = 0


@dataclass
class Civ:
    seat: str
    vp: int
    money: int
    government: Track
    religion: Track
    happiness: int = 0
    safety: int = 0
    industry: int = 0  # steps along the industry track
    # Where each population cube stands: "farm:<good>", "city", "harbour", "available", "culture", "industry:<good>",
    # "warehouse", "bank", "army", "colosseum". The starting seven: five farms, one industry, one warehouse.
    cubes: dict[str, int] = field(default_factory=dict)
    buildings: list[str] = field(default_factory=list)  # names of the buildings standing
    culture: dict[str, int] = field(default_factory=dict)  # symbol -> cubes in its row
    bought: list[str] = field(default_factory=list)  # developments bought this turn

    def population(self) -> int:
        return sum(self.cubes.values())

    def culture_cubes(self) -> int:
        return sum(self.culture.values())
