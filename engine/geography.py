"""A campaign map: provinces and sea quadrants on a square grid, with their adjacencies.

Maps are data (see ``data/maps/*.map`` and ``engine/mapfile.py``); this module only holds the loaded
form and answers questions about it.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Province:
    name: str
    cell: tuple[int, int]  # (column, row), 0-based, row 0 is the north edge
    nation: str | None  # the nation it belongs to at the start; None for independent provinces
    role: str  # "capital", "home", "border" or "independent"
    aliases: tuple[str, ...] = ()

    @property
    def is_home(self) -> bool:
        return self.role in ("capital", "home")

    @property
    def is_capital(self) -> bool:
        return self.role == "capital"


@dataclass(frozen=True)
class Sea:
    name: str
    cells: tuple[tuple[int, int], ...]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameMap:
    name: str
    columns: int
    rows: int
    provinces: dict[str, Province]  # in file order
    seas: dict[str, Sea]  # in file order
    # Land adjacency, symmetric, including the listed diagonal exceptions.
    land: dict[str, frozenset[str]]
    # Which seas each province faces, and which provinces each sea touches.
    coasts: dict[str, frozenset[str]]
    shores: dict[str, frozenset[str]]
    # Sea-to-sea adjacency (for rendering and for later rulesets).
    sea_links: dict[str, frozenset[str]] = field(default_factory=dict)
    diagonals: tuple[tuple[str, str], ...] = ()

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.land.get(a, frozenset())

    def faces(self, province: str, sea: str) -> bool:
        return sea in self.coasts.get(province, frozenset())

    def province_order(self, name: str) -> int:
        """Position of a province in the file: the stable order used wherever the rules must pick one of several."""
        return list(self.provinces).index(name)

    def sea_order(self, name: str) -> int:
        return list(self.seas).index(name)
