"""Area maps, read from TOML (docs/maps.md): one format for every game drawn as areas (Mediterranean Empires, Mare
Nostrum: Empires), so one loader and one renderer serve them all.

The map is a graph, not a grid: a land area borders land areas (land movement) and touches sea areas (its
coast: fleets embark and land there); a sea opens into other seas (naval movement). A city lies on some of its
area's coasts only (rule 11.1's example: Cagliari faces the sea south-east of Sardinia, not the one south-west),
which matters for where a fleet may start its action and where recruited fleets appear.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.area_drawing import Drawing, DrawingError, derived_table, read_drawing
from engine.names import NameIndex, normalise
from engine.toml_reader import toml as tomllib


class MapError(ValueError):
    """A mistake in the map file, named precisely enough to fix it."""


@dataclass(frozen=True)
class Land:
    name: str
    at: tuple[float, float]
    borders: tuple[str, ...]
    coast: tuple[str, ...]
    city: str | None = None
    city_coast: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sea:
    name: str
    at: tuple[float, float]
    links: tuple[str, ...]
    coast: tuple[str, ...]  # the land areas it touches (derived from the lands' coasts)
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class AreaMap:
    title: str
    lands: dict[str, Land]
    seas: dict[str, Sea]
    drawing: Drawing | None = None  # how it is drawn over the coastline: the file's [drawing] table
    index: NameIndex = field(init=False, repr=False, compare=False)  # every area's name and aliases

    def __post_init__(self) -> None:
        names = {n: a.aliases for n, a in self.lands.items()} | {n: s.aliases for n, s in self.seas.items()}
        object.__setattr__(self, "index", NameIndex(names, "area"))

    @property
    def areas(self) -> list[str]:
        return [*self.lands, *self.seas]

    def is_land(self, area: str) -> bool:
        return area in self.lands

    def is_sea(self, area: str) -> bool:
        return area in self.seas

    def land_neighbours(self, land: str) -> tuple[str, ...]:
        return self.lands[land].borders

    def sea_neighbours(self, sea: str) -> tuple[str, ...]:
        return self.seas[sea].links

    def touches(self, land: str, sea: str) -> bool:
        return sea in self.lands[land].coast

    def port_seas(self, land: str) -> tuple[str, ...]:
        """The seas the area's city lies on (none for an area without a city or with an inland city)."""
        return self.lands[land].city_coast

    def cities(self) -> dict[str, str]:
        """City name -> its land area."""
        return {land.city: land.name for land in self.lands.values() if land.city}

    def links(self) -> list[tuple[str, str]]:
        """Every adjacency once, in map order: land borders, coasts, sea links (for drawing)."""
        order = {n: i for i, n in enumerate(self.areas)}
        seen: set[tuple[str, str]] = set()
        out: list[tuple[str, str]] = []
        for land in self.lands.values():
            for other in (*land.borders, *land.coast):
                first, second = sorted((land.name, other), key=order.__getitem__)
                pair = (first, second)
                if pair not in seen:
                    seen.add(pair)
                    out.append(pair)
        for sea in self.seas.values():
            for other in sea.links:
                first, second = sorted((sea.name, other), key=order.__getitem__)
                pair = (first, second)
                if pair not in seen:
                    seen.add(pair)
                    out.append(pair)
        return out


def load_map(path: Path) -> AreaMap:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path.name}: not valid TOML: {exc}") from exc
    return build_map(raw, path.name, path.resolve().parents[1] / "geo")


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MapError(f"{where} must be a list of names in quotes")
    return tuple(value)


def _at(value: object, where: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value)):
        raise MapError(f"{where}: 'at' must be two numbers, [x, y]")
    return float(value[0]), float(value[1])


def build_map(raw: dict, source: str = "map", geo: Path | None = None) -> AreaMap:
    lands_raw = raw.get("land") or {}
    seas_raw = raw.get("sea") or {}
    if not lands_raw or not seas_raw:
        raise MapError(f"{source}: a map needs [land.\"...\"] and [sea.\"...\"] tables")
    seen: dict[str, str] = {}

    def claim(written: str, owner: str) -> None:
        key = normalise(written)
        if key in seen and seen[key] != owner:
            raise MapError(f"{source}: the name '{written}' of {owner} is already used by {seen[key]}: names must be unique")
        seen[key] = owner

    for name in [*lands_raw, *seas_raw]:
        claim(name, name)
    cities: dict[str, str] = {}
    lands: dict[str, Land] = {}
    for name, body in lands_raw.items():
        where = f"{source}: land area '{name}'"
        city = body.get("city")
        aliases = list(_strings(body.get("aliases", []), f"{where} aliases"))
        if city is not None:
            if not isinstance(city, str) or not city.strip():
                raise MapError(f"{where}: 'city' must be a name in quotes")
            if city in cities:
                raise MapError(f"{where}: the city '{city}' is already placed in {cities[city]}")
            cities[city] = name
            # Players name areas by their city ("attack Barcelona"): a city is an alias of its area.
            if normalise(city) != normalise(name) and city not in aliases:
                aliases.append(city)
        for alias in aliases:
            claim(alias, name)
        city_coast = _strings(body.get("city_coast", []), f"{where} city_coast")
        coast = _strings(body.get("coast", []), f"{where} coast")
        if city is None and city_coast:
            raise MapError(f"{where}: 'city_coast' without a city")
        stray = [s for s in city_coast if s not in coast]
        if stray:
            raise MapError(f"{where}: its city lies on {', '.join(stray)}, which the area itself does not touch")
        lands[name] = Land(
            name=name,
            at=_at(body.get("at"), where),
            borders=_strings(body.get("borders", []), f"{where} borders"),
            coast=coast,
            city=city,
            city_coast=city_coast,
            aliases=tuple(aliases),
        )
    coasts: dict[str, list[str]] = {s: [] for s in seas_raw}
    for land in lands.values():
        for other in land.borders:
            if other not in lands:
                raise MapError(f"{source}: land area '{land.name}' borders '{other}', which is not a land area")
            if land.name not in lands[other].borders:
                raise MapError(f"{source}: '{land.name}' borders '{other}' but '{other}' does not list '{land.name}'")
            if other == land.name:
                raise MapError(f"{source}: '{land.name}' cannot border itself")
        for sea in land.coast:
            if sea not in coasts:
                raise MapError(f"{source}: land area '{land.name}' touches '{sea}', which is not a sea area")
            coasts[sea].append(land.name)
    seas: dict[str, Sea] = {}
    for name, body in seas_raw.items():
        where = f"{source}: sea area '{name}'"
        sea_aliases = _strings(body.get("aliases", []), f"{where} aliases")
        for alias in sea_aliases:
            claim(alias, name)
        links = _strings(body.get("links", []), f"{where} links")
        for other in links:
            if other not in seas_raw:
                raise MapError(f"{where} opens into '{other}', which is not a sea area")
            if name not in (seas_raw[other].get("links") or []):
                raise MapError(f"{source}: '{name}' opens into '{other}' but '{other}' does not list '{name}'")
        if len(coasts[name]) < 2:
            raise MapError(f"{where} touches {len(coasts[name])} land area(s): every sea touches at least two")
        seas[name] = Sea(name=name, at=_at(body.get("at"), where), links=links, coast=tuple(coasts[name]), aliases=sea_aliases)
    centres = {n: ("land", a.at) for n, a in lands.items()} | {n: ("sea", a.at) for n, a in seas.items()}
    try:
        table = raw.get("drawing")
        if table is None and geo is not None:
            table = derived_table(centres, geo)  # no table: drawn over the coast around its centres all the same
        drawing = read_drawing(table, centres, source, geo)
    except DrawingError as exc:
        raise MapError(str(exc)) from exc
    return AreaMap(title=str(raw.get("title", "")), lands=lands, seas=seas, drawing=drawing)
