"""The Mare Nostrum ruleset's data (data/rulesets/mare-nostrum.toml) in loaded form."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import canonical
from engine.chance.sources.lottery import ROLL_WHEELS
from engine.geography import GameMap
from engine.mapfile import load_map
from engine.toml_reader import toml as tomllib


@dataclass(frozen=True)
class NationData:
    name: str
    aliases: tuple[str, ...]
    wheel: str
    army: str
    colour: str


@dataclass(frozen=True)
class InvasionData:
    province: str
    invader: str
    aliases: tuple[str, ...]
    army: str
    managed_by: str


@dataclass(frozen=True)
class EventData:
    low: int
    high: int
    name: str
    stability: int = 0
    actions: int = 0
    effect: str | None = None


@dataclass(frozen=True)
class RulesData:
    id: str
    title: str
    first_year_bc: int
    years_per_turn: int
    turns: int
    provinces_to_win: int
    start_stability: int
    min_stability: int
    max_stability: int
    low_stability: int
    treasury_per_action: int
    max_fleets_per_sea: int
    odds: dict[str, Any]
    independent_armies: tuple[tuple[int, str], ...]
    nations: dict[str, NationData]
    invasions: dict[str, InvasionData]  # by province
    events: tuple[EventData, ...]
    map: GameMap
    digest: str  # sha256 of the ruleset and map files, recorded in each campaign

    def event_for(self, number: int) -> EventData:
        for event in self.events:
            if event.low <= number <= event.high:
                return event
        raise ValueError(f"no event for number {number}")

    def year(self, turn: int) -> str:
        return f"{self.first_year_bc - (turn - 1) * self.years_per_turn} BC"

    def independent_army(self, turn: int) -> str:
        army = self.independent_armies[0][1]
        for from_turn, name in self.independent_armies:
            if turn >= from_turn:
                army = name
        return army

    def invader_named(self, name: str) -> InvasionData | None:
        for inv in self.invasions.values():
            if inv.invader == name:
                return inv
        return None


class RulesDataError(ValueError):
    pass


def load_rules(path: Path) -> RulesData:
    raw_bytes = path.read_bytes()
    try:
        raw = tomllib.loads(raw_bytes.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{path}: {exc}") from exc
    map_path = path.parent.parent / raw["map"]
    game_map = load_map(map_path)
    digest = canonical.sha256_hex(raw_bytes + b"\0" + map_path.read_bytes())
    nations = {
        n["name"]: NationData(n["name"], tuple(n.get("aliases", ())), n["wheel"], n["army"], n.get("colour", "#888888"))
        for n in raw["nations"]
    }
    invasions = {
        i["province"]: InvasionData(i["province"], i["invader"], tuple(i.get("aliases", ())), i["army"], i["managed_by"])
        for i in raw["invasions"]
    }
    events = tuple(
        EventData(e["range"][0], e["range"][1], e["name"], e.get("stability", 0), e.get("actions", 0), e.get("effect"))
        for e in raw["events"]
    )
    _check(path, nations, invasions, events, game_map)
    return RulesData(
        id=raw["id"],
        title=raw["title"],
        first_year_bc=raw["first_year_bc"],
        years_per_turn=raw["years_per_turn"],
        turns=raw["turns"],
        provinces_to_win=raw["provinces_to_win"],
        start_stability=raw["start_stability"],
        min_stability=raw["min_stability"],
        max_stability=raw["max_stability"],
        low_stability=raw["low_stability"],
        treasury_per_action=raw["treasury_per_action"],
        max_fleets_per_sea=raw["max_fleets_per_sea"],
        odds=dict(raw["odds"]),
        independent_armies=tuple((a["from_turn"], a["army"]) for a in raw["independent"]["armies"]),
        nations=nations,
        invasions=invasions,
        events=events,
        map=game_map,
        digest=digest,
    )


def _check(
    path: Path,
    nations: dict[str, NationData],
    invasions: dict[str, InvasionData],
    events: tuple[EventData, ...],
    game_map: GameMap,
) -> None:
    # Each nation's rolls take the 4th and 5th numbers of its own wheel (the turn's own take the 1st to 3rd), so two
    # nations on one wheel would share their numbers, and a wheel that was not drawn in every year is no wheel.
    wheels = [n.wheel for n in nations.values()]
    for nation in nations.values():
        if nation.wheel not in ROLL_WHEELS:
            raise RulesDataError(f"{path}: nation {nation.name} has wheel '{nation.wheel}': a wheel is one of "
                                 f"{', '.join(ROLL_WHEELS)}")
        if wheels.count(nation.wheel) > 1:
            raise RulesDataError(f"{path}: nation {nation.name} shares wheel '{nation.wheel}' with another nation: "
                                 f"each nation needs its own")
    covered = sorted(n for e in events for n in range(e.low, e.high + 1))
    if covered != list(range(1, 91)):
        raise RulesDataError(f"{path}: the events must cover 1..90 exactly once each")
    for inv in invasions.values():
        if inv.province not in game_map.provinces:
            raise RulesDataError(f"{path}: invasion province '{inv.province}' is not on the map")
        if inv.managed_by not in nations:
            raise RulesDataError(f"{path}: invasion of {inv.province} managed by unknown nation '{inv.managed_by}'")
    for prov in game_map.provinces.values():
        if prov.nation is not None and prov.nation not in nations:
            raise RulesDataError(f"{path}: map province {prov.name} belongs to unknown nation '{prov.nation}'")
