"""Mare Nostrum: Empires' data (data/rulesets/mare-nostrum-empires.toml and its area map), read and checked.

The seed names the board, the screens, the commerce tokens, the Heroes and Wonders and the title tracks but gives
none of them; a GM edits them as data, so every mistake is refused here with what is wrong and what would be
right, before a campaign can start on it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.area_map import AreaMap, load_map
from engine.mare_nostrum_empires.ability_data import Ability, AbilityError, read
from engine.toml_reader import toml as tomllib

CITY_SITES = ("city", "capital", "legendary")  # one city site per province
BUILDINGS = ("caravan", "market", "temple", *CITY_SITES)
UNITS = ("legion", "trireme", "fortress")
TITLES = ("commerce", "politics", "military")
PHASES = ("production", "commerce", "purchase", "military", "claims")
PURCHASES = (*BUILDINGS, *UNITS, "influence", "pyramids")
COUNTABLE = (*BUILDINGS, *UNITS, "influence")


class RulesError(ValueError):
    """A mistake in the game's data, named precisely enough to fix it."""


@dataclass(frozen=True)
class Province:
    name: str
    good: str
    sites: tuple[str, ...]  # the buildings printed on it
    legendary: str | None = None  # the legendary city's name, where one is printed

    @property
    def city_site(self) -> str | None:
        return next((s for s in self.sites if s in CITY_SITES), None)


@dataclass(frozen=True)
class Empire:
    name: str
    capital: str  # the capital city's name
    capital_province: str
    hero: str
    colour: str
    provinces: dict[str, tuple[str, ...]]  # province -> buildings built at the start
    legions: dict[str, int]
    triremes: dict[str, int]
    fortresses: tuple[str, ...]
    goods: dict[str, int]  # behind the screen at the start
    taxes: int


@dataclass(frozen=True)
class Title:
    key: str
    name: str
    counts: tuple[str, ...]
    start: tuple[str, ...]


@dataclass(frozen=True)
class Tile:
    name: str
    kind: str  # "hero" or "wonder"
    phase: str
    text: str
    empire: str | None = None  # a national hero's empire
    ability: Ability | None = None  # what it does (abilities.py), None for a tile only shown


@dataclass(frozen=True)
class RulesData:
    title: str
    map: AreaMap
    resources: tuple[str, ...]
    empires: dict[str, Empire]
    hidden: dict[int, tuple[str, ...]]
    provinces: dict[str, Province]
    titles: dict[str, Title]
    track_top: int
    prices: dict[str, int]
    tile_prices: tuple[tuple[int, int], ...]  # (from round, price), rounds ascending
    commerce: dict[str, tuple[int, int]]  # token -> its two faces
    empire_limits: dict[str, int]
    reserve_limits: dict[str, int]
    tiles: dict[str, Tile]

    def in_play(self, players: int) -> tuple[str, ...]:
        if players not in self.hidden:
            raise RulesError(f"Mare Nostrum: Empires is played by 3 to 5 players, not {players}")
        return tuple(e for e in self.empires if e not in self.hidden[players])

    def provinces_in_play(self, players: int) -> tuple[str, ...]:
        """The provinces on the board: a hidden empire's provinces are covered by the tracks."""
        covered = {p for e in self.hidden[players] for p in self.empires[e].provinces}
        return tuple(p for p in self.provinces if p not in covered)

    def tile_price(self, round_no: int) -> int:
        return [price for start, price in self.tile_prices if start <= round_no][-1]

    def legendary_cities(self) -> dict[str, str]:
        """Legendary city name -> its province."""
        return {p.legendary: p.name for p in self.provinces.values() if p.legendary}

    def capitals(self) -> dict[str, str]:
        """Capital name -> its province."""
        return {e.capital: e.capital_province for e in self.empires.values()}


def load_rules(data_dir: Path) -> RulesData:
    path = data_dir / "rulesets" / "mare-nostrum-empires.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{path.name}: not valid TOML: {exc}") from exc
    return build_rules(raw, load_map(data_dir / "maps" / str(raw.get("map", "mare-nostrum-empires.toml"))))


def _names(value: Any, where: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RulesError(f"{where} must be a list of names in quotes")
    if allowed is not None:
        wrong = [v for v in value if v not in allowed]
        if wrong:
            raise RulesError(f"{where}: '{wrong[0]}' is not one of {', '.join(allowed)}")
    return tuple(value)


def _count(value: Any, where: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RulesError(f"{where} must be a whole number of at least {low}, not {value!r}")
    return value


def _province(name: str, body: dict[str, Any], resources: tuple[str, ...], game_map: AreaMap) -> Province:
    where = f"province '{name}'"
    if name not in game_map.lands:
        raise RulesError(f"{where} is not a land area of the map ({game_map.title})")
    good = body.get("good")
    if good not in resources:
        raise RulesError(f"{where}: its good '{good}' is not one of the resources ({', '.join(resources)})")
    sites = _names(body.get("sites", []), f"{where} sites", BUILDINGS)
    doubles = sorted({s for s in sites if sites.count(s) > 1})
    if doubles:
        raise RulesError(f"{where} shows '{doubles[0]}' twice: each building is printed once at most")
    if sum(s in CITY_SITES for s in sites) > 1:
        raise RulesError(f"{where} shows more than one of {', '.join(CITY_SITES)}: a province has one city site")
    legendary = body.get("legendary")
    if ("legendary" in sites) != isinstance(legendary, str):
        raise RulesError(f"{where}: a legendary city site and its name ('legendary = \"Troy\"') go together")
    return Province(name, good, sites, legendary)


def _empire(name: str, body: dict[str, Any], rules: dict[str, Any]) -> Empire:
    where = f"empire '{name}'"
    provinces: dict[str, Province] = rules["provinces"]
    start = body.get("provinces") or {}
    if len(start) != 3:
        raise RulesError(f"{where} starts with {len(start)} provinces: every empire starts with 3")
    built: dict[str, tuple[str, ...]] = {}
    for prov, buildings in start.items():
        if prov not in provinces:
            raise RulesError(f"{where} starts in '{prov}', which is not a province of the data")
        names = _names(buildings, f"{where} in {prov}", BUILDINGS)
        missing = [b for b in names if b not in provinces[prov].sites]
        if missing:
            raise RulesError(f"{where}: {prov} does not show a {missing[0]} site (it shows "
                             f"{', '.join(provinces[prov].sites)})")
        built[prov] = names
    capitals = [p for p, b in built.items() if "capital" in b]
    if len(capitals) != 1:
        raise RulesError(f"{where} must build its capital in exactly one of its provinces, not {len(capitals)}")
    units = body.get("units") or {}
    legions = {p: _count(n, f"{where} legions in {p}", 1) for p, n in (units.get("legions") or {}).items()}
    triremes = {s: _count(n, f"{where} triremes in {s}", 1) for s, n in (units.get("triremes") or {}).items()}
    fortresses = _names(units.get("fortresses", []), f"{where} fortresses")
    for prov in [*legions, *fortresses]:
        if prov not in built:
            raise RulesError(f"{where} sets up a unit in '{prov}', which is not one of its provinces")
    game_map: AreaMap = rules["map"]
    for sea in triremes:
        if sea not in game_map.seas or not any(game_map.touches(p, sea) for p in built):
            raise RulesError(f"{where} sets up a trireme in '{sea}', which is not a sea touching its provinces")
    screen = body.get("screen") or {}
    goods = {g: _count(n, f"{where} screen {g}", 1) for g, n in (screen.get("goods") or {}).items()}
    stray = [g for g in goods if g not in rules["resources"]]
    if stray:
        raise RulesError(f"{where}: its screen holds '{stray[0]}', which is not a resource")
    hero = body.get("hero")
    if not isinstance(hero, str):
        raise RulesError(f"{where} needs its national hero: hero = \"Caesar\"")
    return Empire(name, str(body.get("capital", "")), capitals[0], hero, str(body.get("colour", "#808080")), built,
                  legions, triremes, fortresses, goods, _count(screen.get("taxes", 0), f"{where} screen taxes"))


def _tiles(raw: dict[str, Any], empires: dict[str, Empire], resources: tuple[str, ...]) -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    choices = {"purchase": PURCHASES, "resource": resources, "title": TITLES}
    for kind in ("hero", "wonder"):
        for body in raw.get(kind, []):
            name = body.get("name")
            if not isinstance(name, str) or name in tiles:
                raise RulesError(f"a {kind} needs a name of its own, not {name!r}")
            phase = body.get("phase")
            if phase not in PHASES:
                raise RulesError(f"{kind} '{name}': phase '{phase}' is not one of {', '.join(PHASES)}")
            empire = body.get("empire")
            if empire is not None and empire not in empires:
                raise RulesError(f"{kind} '{name}': '{empire}' is not an empire")
            try:
                ability = read(body, f"{kind} '{name}'", choices)
            except AbilityError as exc:
                raise RulesError(str(exc)) from exc
            tiles[name] = Tile(name, kind, phase, str(body.get("text", "")), empire, ability)
    for empire in empires.values():
        tile = tiles.get(empire.hero)
        if tile is None or tile.empire != empire.name:
            raise RulesError(f"empire '{empire.name}': its hero '{empire.hero}' must be a [[hero]] with "
                             f"empire = \"{empire.name}\"")
    return tiles


def build_rules(raw: dict[str, Any], game_map: AreaMap) -> RulesData:
    resources = _names(raw.get("resources", []), "resources")
    if len(set(resources)) != len(resources) or not resources:
        raise RulesError("resources must be a list of different names")
    provinces = {n: _province(n, b, resources, game_map) for n, b in (raw.get("province") or {}).items()}
    unlisted = [land for land in game_map.lands if land not in provinces]
    if unlisted:
        raise RulesError(f"the map's land area '{unlisted[0]}' has no [province.\"{unlisted[0]}\"] (its good, sites)")
    order = _names(raw.get("empires", []), "empires")
    bodies = raw.get("empire") or {}
    if sorted(order) != sorted(bodies):
        raise RulesError(f"empires lists {', '.join(order)} but [empire.*] tables are {', '.join(bodies)}")
    context = {"provinces": provinces, "map": game_map, "resources": resources}
    empires = {n: _empire(n, bodies[n], context) for n in order}
    owners: dict[str, str] = {}
    for e in empires.values():
        for prov in e.provinces:
            if prov in owners:
                raise RulesError(f"'{prov}' is a starting province of both {owners[prov]} and {e.name}")
            owners[prov] = e.name
    hidden = {int(k): _names(v, f"hidden {k}", tuple(order)) for k, v in (raw.get("hidden") or {}).items()}
    titles_raw = raw.get("titles") or {}
    titles = {}
    for key in TITLES:
        body = titles_raw.get(key) or {}
        titles[key] = Title(key, str(body.get("name", key)), _names(body.get("counts", []), f"title {key} counts",
                                                                 COUNTABLE),
                            _names(body.get("start", []), f"title {key} start", tuple(order)))
    prices_raw = dict(raw.get("prices") or {})
    tile_prices = tuple((_count(p.get("from"), "heroes_wonders from", 1), _count(p.get("price"), "heroes_wonders "
                                                                                                 "price", 1))
                        for p in prices_raw.pop("heroes_wonders", []))
    if not tile_prices or tile_prices[0][0] != 1 or list(tile_prices) != sorted(tile_prices):
        raise RulesError("heroes_wonders prices must start at round 1 and go up by round: [{from = 1, price = 4}]")
    prices = {k: _count(v, f"price of {k}", 1) for k, v in prices_raw.items()}
    missing = [p for p in PURCHASES if p not in prices]
    if missing:
        raise RulesError(f"[prices] has no price for '{missing[0]}'")
    commerce = {}
    for token in raw.get("commerce", []):
        faces = token.get("faces")
        if not (isinstance(faces, list) and len(faces) == 2):
            raise RulesError(f"commerce token {token.get('token')!r} needs two faces: faces = [1, 2]")
        commerce[str(token.get("token"))] = (_count(faces[0], "a face", 1), _count(faces[1], "a face", 1))
    if len(commerce) != 3:
        raise RulesError(f"there are 3 commerce tokens, not {len(commerce)}")
    limits = raw.get("limits") or {}
    rules = RulesData(str(raw.get("title", "")), game_map, resources, empires, hidden, provinces, titles,
                      _count((titles_raw.get("track") or {}).get("top", 15), "track top", 1), prices, tile_prices,
                      commerce, {k: _count(v, k) for k, v in (limits.get("empire") or {}).items()},
                      {k: _count(v, k) for k, v in (limits.get("reserve") or {}).items()},
                      _tiles(raw, empires, resources))
    return rules
