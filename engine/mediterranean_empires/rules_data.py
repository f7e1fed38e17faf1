"""The ruleset's data (data/rulesets/mediterranean-empires.toml): powers, set-up, tables, marker pool."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.area_map import AreaMap, load_map
from engine.names import NameIndex
from engine.toml_reader import toml as tomllib

UNIT_KINDS = ("field_army", "levy", "raider", "mercenary", "fleet")
UNIT_WORDS = {"field_army": "field army", "levy": "levy", "raider": "raiders", "mercenary": "mercenaries", "fleet": "fleet"}
STATUSES = ("major", "ally", "vassal", "neutral")
SIDES = ("A", "B")


def kind_word(kind: str) -> str:
    """A unit kind as a line of text says it (field_army: field army)."""
    return kind.replace("_", " ")


class RulesError(ValueError):
    pass


@dataclass(frozen=True)
class Power:
    name: str
    status: str  # at set-up
    side: str | None  # at set-up
    group: str
    home: tuple[str, ...]
    areas: tuple[str, ...]  # controlled at set-up
    units: tuple[tuple[str, str], ...]  # (area, kind) set up
    counters: dict[str, int]
    deploy: str = "either"
    king: tuple[int, int] | None = None  # (diplomacy, military) of the starting King
    king_pool: tuple[tuple[int, int], ...] = ()
    king_at: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class CombatTable:
    columns: tuple[int, ...]  # the lowest unit count of each column
    rows: tuple[tuple[str, ...], ...]  # die rolls 1..6 then 7+
    double: tuple[str, ...]

    def result(self, units: int, roll: int) -> str:
        """The table's cell: a modified roll below 1 reads row 1, above 7 reads row 7+; over 10 units, 8-10."""
        col = max(i for i, low in enumerate(self.columns) if units >= low) if units >= 1 else 0
        row = min(max(roll, 1), 7) - 1
        return self.rows[row][col]


@dataclass(frozen=True)
class Scenario:
    """13.0: a shorter game with its own victory conditions (the set-up of 3.0)."""

    name: str
    turns: int
    first_year: int  # the year the first game turn starts (it still ends with the standard one)
    hold: tuple[str, ...]  # areas Player B must hold under total control at the end
    keep: tuple[str, ...]  # areas Player A must not hold under total control at the end


@dataclass(frozen=True)
class RulesData:
    id: str
    title: str
    map: AreaMap
    first_year: int
    years_per_turn: int
    turns: int
    max_treasury: int
    max_ops: int
    markers_per_draw: int
    political_rounds: int
    max_recruits_per_area: int
    stack_without_city: int
    stack_with_city: int
    vp_margin_to_win: int
    seats: dict[str, str]  # seat name -> side
    cost_halves: dict[str, int]
    markers: dict[str, int]
    powers: dict[str, Power]
    treasury: dict[str, int]
    tables: dict[str, CombatTable]
    double_fleets: tuple[str, ...]
    diplomacy: dict[str, int]
    options: dict[str, str] = field(default_factory=dict)  # campaign options: name -> what it turns on
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    power_index: NameIndex = field(init=False)
    marker_index: NameIndex = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "power_index", NameIndex({p.name: p.aliases for p in self.powers.values()}, "power"))
        object.__setattr__(self, "marker_index", NameIndex({m: () for m in self.markers}, "stratagem marker"))

    def seat_of_side(self, side: str) -> str:
        return next(seat for seat, s in self.seats.items() if s == side)

    def year_span(self, turn: int) -> str:
        start = self.first_year + (turn - 1) * self.years_per_turn
        return f"{start}–{start + self.years_per_turn - 1}"


def _power(name: str, body: dict[str, Any], amap: AreaMap) -> Power:
    status = body.get("status")
    if status not in STATUSES:
        raise RulesError(f"power {name}: status must be one of {', '.join(STATUSES)}, not {status!r}")
    side = body.get("side")
    if side is not None and side not in SIDES:
        raise RulesError(f"power {name}: side must be A or B")
    if status != "neutral" and side is None:
        raise RulesError(f"power {name}: a {status} power needs a side")
    units = tuple((str(a), str(k)) for a, k in body.get("units", []))
    for area, kind in units:
        if kind not in UNIT_KINDS:
            raise RulesError(f"power {name}: unknown unit type {kind!r}; types are {', '.join(UNIT_KINDS)}")
        if area not in amap.lands and area not in amap.seas:
            raise RulesError(f"power {name}: unit set up in {area!r}, which is not on the map")
        if (kind == "fleet") != (area in amap.seas):
            raise RulesError(f"power {name}: a {kind} cannot be set up in {area}")
    for area in (*body.get("home", []), *body.get("areas", [])):
        if area not in amap.lands:
            raise RulesError(f"power {name}: {area!r} is not a land area of the map")
    counters = dict(body.get("counters") or {})
    for _, kind in units:  # a neutral's counters are the units it sets up with
        counters.setdefault(kind, 0)
    set_up = {k: sum(1 for _, kk in units if kk == k) for k in counters}
    for kind, count in set_up.items():
        if "counters" in body and count > counters[kind]:
            raise RulesError(f"power {name}: {count} {kind} set up but only {counters[kind]} counters")
        if "counters" not in body:
            counters[kind] = count
    king = body.get("king")
    return Power(
        name=name, status=status, side=side, group=str(body.get("group", "")),
        home=tuple(body.get("home", [])), areas=tuple(body.get("areas", [])), units=units, counters=counters,
        deploy=str(body.get("deploy", "either")), king=tuple(king) if king else None,
        king_pool=tuple(tuple(k) for k in body.get("king_pool", [])),
        king_at=body.get("king_at"), aliases=tuple(body.get("aliases", [])),
    )


def load_rules(path: Path) -> RulesData:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    amap = load_map(path.parent.parent / raw["map"])
    powers = {name: _power(name, body, amap) for name, body in raw["powers"].items()}
    owners: dict[str, str] = {}
    for p in powers.values():
        for area in p.areas:
            if area in owners:
                raise RulesError(f"{area} is set up for both {owners[area]} and {p.name}")
            owners[area] = p.name
    tables = {
        name: CombatTable(tuple(t["columns"]), tuple(tuple(r) for r in t["rows"]), tuple(t["double"]))
        for name, t in raw["tables"].items()
    }
    scenarios = {name: Scenario(name, int(b["turns"]), int(b["first_year"]), tuple(b.get("hold", [])),
                                tuple(b.get("keep", []))) for name, b in (raw.get("scenarios") or {}).items()}
    for sc in scenarios.values():
        for area in (*sc.hold, *sc.keep):
            if area not in amap.lands:
                raise RulesError(f"scenario {sc.name}: {area!r} is not a land area of the map")
        if sc.name not in dict(raw.get("options") or {}):
            raise RulesError(f"scenario {sc.name} needs an option of the same name to be chosen")
    return RulesData(
        id=raw["id"], title=raw["title"], map=amap, first_year=raw["first_year"], years_per_turn=raw["years_per_turn"],
        turns=raw["turns"], max_treasury=raw["max_treasury"], max_ops=raw["max_ops"],
        markers_per_draw=raw["markers_per_draw"], political_rounds=raw["political_rounds"],
        max_recruits_per_area=raw["max_recruits_per_area"], stack_without_city=raw["stack_without_city"],
        stack_with_city=raw["stack_with_city"], vp_margin_to_win=raw["vp_margin_to_win"], seats=dict(raw["seats"]),
        cost_halves=dict(raw["cost_halves"]), markers=dict(raw["markers"]), powers=powers,
        treasury=dict(raw["treasury"]), tables=tables, double_fleets=tuple(raw["naval"]["double_fleets"]),
        diplomacy=dict(raw["diplomacy"]), options=dict(raw.get("options") or {}), scenarios=scenarios,
    )


def default_rules() -> RulesData:
    return load_rules(Path(__file__).resolve().parents[2] / "data" / "rulesets" / "mediterranean-empires.toml")
