"""The orders of the Mare Nostrum campaign, as understood from a player's line.

An order is plain data: the parser (``parse.py``) makes it from text, the rules (``rules.py``) check it
against the state, and the event log stores ``to_dict()``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.order_record import OrderRecord, RecordShape, from_record

SHAPE = RecordShape(tag_attr="kind", tag_key="kind")  # "kind" names the order, first; then every field


@dataclass(frozen=True)
class Order(OrderRecord):
    shape: ClassVar[RecordShape] = SHAPE
    kind: ClassVar[str] = ""
    # Orders that spend one of the nation's actions for the turn.
    costs_action: ClassVar[bool] = True

    def describe(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Build(Order):
    kind: ClassVar[str] = "build"
    building: str  # "fortification", "suburbs" or "temple"
    province: str

    def describe(self) -> str:
        return f"build {self.building} in {self.province}"


@dataclass(frozen=True)
class RaiseFleet(Order):
    kind: ClassVar[str] = "raise_fleet"
    sea: str

    def describe(self) -> str:
        return f"raise a fleet in {self.sea}"


@dataclass(frozen=True)
class PeaceTreaty(Order):
    kind: ClassVar[str] = "peace_treaty"
    nation: str

    def describe(self) -> str:
        return f"offer a peace treaty to the {self.nation}"


@dataclass(frozen=True)
class Alliance(Order):
    kind: ClassVar[str] = "alliance"
    invader: str  # the invader force's name as in the ruleset data (e.g. "Samnites")
    province: str  # the province attacked with the allied army

    def describe(self) -> str:
        return f"ally with the {self.invader} against {self.province}"


@dataclass(frozen=True)
class GrainDistribution(Order):
    kind: ClassVar[str] = "grain_distribution"

    def describe(self) -> str:
        return "grain distribution (+2 stability)"


@dataclass(frozen=True)
class Attack(Order):
    kind: ClassVar[str] = "attack"
    province: str
    base: str

    def describe(self) -> str:
        return f"attack {self.province} from {self.base}"


@dataclass(frozen=True)
class NavalBattle(Order):
    kind: ClassVar[str] = "naval_battle"
    enemy: str  # a nation's name, or "Pirates"
    sea: str

    def describe(self) -> str:
        return f"naval battle against the {self.enemy} in {self.sea}"


@dataclass(frozen=True)
class Amphibious(Order):
    kind: ClassVar[str] = "amphibious"
    province: str
    base: str
    sea: str

    def describe(self) -> str:
        return f"amphibious attack on {self.province} from {self.base} through {self.sea}"


@dataclass(frozen=True)
class Pass(Order):
    kind: ClassVar[str] = "pass"
    costs_action: ClassVar[bool] = False

    def describe(self) -> str:
        return "pass (end of your turn)"


@dataclass(frozen=True)
class EventChoice(Order):
    """The choice a random event leaves to its player: it spends no action."""

    kind: ClassVar[str] = "event_choice"
    costs_action: ClassVar[bool] = False
    event: str  # "earthquake", "great_blaze" or "defensive_artworks"
    province: str

    def describe(self) -> str:
        what = {
            "earthquake": f"Earthquake: destroy the fortification of {self.province}",
            "great_blaze": f"Great Blaze: destroy the temple of {self.province}",
            "defensive_artworks": f"Defensive Artworks: {self.province} counts as fortified this turn",
        }[self.event]
        return what


ORDER_TYPES: dict[str, type[Order]] = {
    t.kind: t
    for t in (Build, RaiseFleet, PeaceTreaty, Alliance, GrainDistribution, Attack, NavalBattle, Amphibious, Pass, EventChoice)
}


def order_from_dict(data: dict[str, str]) -> Order:
    return from_record(ORDER_TYPES[data["kind"]], data, SHAPE)
