"""The ruleset's data (data/rulesets/trading-mediterranean.toml): incomes, card bottoms and decks, tracks, culture,
industries, the development deck stacked by turn, the 36 developments, the twelve buildings, the calamities.

Every figure the seed prints is checked here on loading (a GM editing the file gets a message naming what is wrong),
so a data file that contradicts the seed is refused before a campaign starts.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tabletop import decks as dk
from engine.toml_reader import toml as tomllib

GOVERNMENT_SIDES = ("democracy", "dictatorship")
RELIGION_SIDES = ("venus", "mars")
ARROWS = GOVERNMENT_SIDES + RELIGION_SIDES
OPPOSITE = {"democracy": "dictatorship", "dictatorship": "democracy", "venus": "mars", "mars": "venus"}
TRACK_OF = {"democracy": "government", "dictatorship": "government", "venus": "religion", "mars": "religion"}
PLACES = ("city", "harbour", "farm", "culture", "industry", "warehouse", "bank", "army", "colosseum")
COLOURS = ("production", "culture", "improvement", "status", "wonder")
AGES = ("stone", "bronze", "iron")
CALAMITY_KINDS = ("unhappiness", "barbarian")
MAX_FIGURE = 1000  # any cost, count or bonus in the data: a bound on what a GM's typo can ask of a fold


class RulesError(ValueError):
    pass


@dataclass(frozen=True)
class Bottom:
    name: str
    arrow: str | None = None
    vp: int = 0
    happiness: int = 0
    safety: int = 0
    no_warehouse: bool = False
    opposite: bool = False  # Zealots, Corruption, Slave Revolt: the arrow opposite to the good's favour
    worthless: bool = False  # Piracy: no income


@dataclass(frozen=True)
class Development:
    name: str
    age: str
    colour: str
    cost: int
    cost_turn5: int | None = None
    place: str | None = None
    culture: str | None = None
    wonder: str | None = None
    vp: int = 0
    money: int = 0
    happiness: int = 0
    safety: int = 0
    government: int = 0
    religion: int = 0

    def price(self, turn: int) -> int:
        return self.cost_turn5 if turn == 5 and self.cost_turn5 is not None else self.cost


@dataclass(frozen=True)
class Building:
    tile: int
    track: str  # government or religion
    side: str  # democracy, dictatorship, venus or mars
    name: str
    cost: int
    population: int
    arrow: int = 0
    happiness: int = 0
    safety: int = 0
    money: int = 0
    give: str | None = None  # the opponent's track pushed one step down
    doubles: str | None = None  # the culture symbol doubled


@dataclass(frozen=True)
class Calamity:
    name: str
    kind: str
    cubes: int = 0
    vp: int = 0
    buildings: int = 0
    halve_money: bool = False


@dataclass(frozen=True)
class Stack:
    age: str
    developments: int
    calamities: int  # of each kind


@dataclass(frozen=True)
class Rules:
    id: str
    title: str
    players: tuple[int, int]
    civilizations: tuple[str, ...]
    turns: int
    start_vp: int
    start_money: int
    warehouse: int
    warehouse_upgraded: int
    industry_vp_price: int
    industry_vp_floor: int
    trading_minutes: int
    calamity_indecision_vp: int
    max_set: int
    farms: tuple[str, ...]
    population_supply: int
    income: dict[str, tuple[int, ...]]  # class -> income of a set of 1..max_set
    goods: dict[str, tuple[str, ...]]  # class -> goods
    bottoms: dict[str, Bottom]
    cards: dict[str, dict[str, int]]  # "basic" (each basic good), a civic good, "luxury" -> bottom -> count
    favours: dict[str, str]
    track_length: int
    allowance: tuple[int, ...]
    status_floor: int
    status_ceiling: int
    industry_length: int
    culture_symbols: tuple[str, ...]
    row_bonus: int
    column_bonus: tuple[int, ...]
    industries: dict[str, tuple[str, str]]  # basic good -> (industry, status track of its dominance bonus)
    dominance_vp: int
    dominance_step: int
    monopoly_vp: int
    stack: tuple[Stack, ...]
    developments: tuple[Development, ...]
    improvements: dict[str, dict[str, Any]]
    buildings: tuple[Building, ...]
    calamities: tuple[Calamity, ...]

    def class_of(self, good: str) -> str:
        for cls, goods in self.goods.items():
            if good in goods:
                return cls
        raise RulesError(f"'{good}' is not a good: the goods are {', '.join(g for gs in self.goods.values() for g in gs)}")

    def development(self, name: str) -> Development:
        for d in self.developments:
            if d.name.lower() == name.strip().lower():
                return d
        raise RulesError(f"there is no development '{name}': the developments are "
                         f"{', '.join(d.name for d in self.developments)}")

    def calamity(self, name: str) -> Calamity:
        for c in self.calamities:
            if c.name == name:
                return c
        raise RulesError(f"there is no calamity '{name}': the calamities are {', '.join(c.name for c in self.calamities)}")

    def building(self, name: str) -> Building:
        for b in self.buildings:
            if b.name.lower() == name.strip().lower():
                return b
        raise RulesError(f"there is no building '{name}': the buildings are {', '.join(b.name for b in self.buildings)}")

    def deck_specs(self) -> list[dk.DeckSpec]:
        """The seven goods decks as tabletop decks, hidden (a card's bottom is sealed to its holder). A card is
        '<good> <bottom>'; its face, what everyone sees held, is its good for basic and civic cards (their type is
        on the front) and 'luxury' for the luxury deck (Piracy passes for spice or gold)."""
        specs = []
        for good in self.goods["basic"]:
            cards = {f"{good} {b}": n for b, n in self.cards["basic"].items()}
            specs.append(dk.spec_from_data(good, {"cards": cards, "hidden": True,
                                                  "faces": {c: good for c in cards}}))
        civic: dict[str, int] = {}
        for good in self.goods["civic"]:
            civic.update({f"{good} {b}": n for b, n in self.cards[good].items()})
        specs.append(dk.spec_from_data("civic", {"cards": civic, "hidden": True,
                                                  "faces": {c: c.split(" ", 1)[0] for c in civic}}))
        luxury = {f"{good} {b}": n for good in self.goods["luxury"] for b, n in self.cards["luxury"].items()}
        luxury["piracy"] = 1
        specs.append(dk.spec_from_data("luxury", {"cards": luxury, "hidden": True, "faces": {}}))
        return specs

    def card(self, card: str) -> tuple[str, Bottom]:
        """A card's good and bottom ('piracy' is a luxury card with no good)."""
        if card == "piracy":
            return "piracy", self.bottoms["piracy"]
        good, _, bottom = card.partition(" ")
        if bottom not in self.bottoms:
            raise RulesError(f"'{card}' is not a card: a card is a good then its bottom, e.g. 'grain democracy'")
        self.class_of(good)
        return good, self.bottoms[bottom]


def _int(where: str, value: Any, lo: int = 0, hi: int = MAX_FIGURE) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RulesError(f"{where} is {value!r}; it must be a whole number from {lo} to {hi}")
    return value


def _one_of(where: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise RulesError(f"{where} is {value!r}; it must be one of {', '.join(allowed)}")
    return str(value)


def _known(where: str, table: dict[str, Any], fields: set[str]) -> None:
    unknown = sorted(set(table) - fields)
    if unknown:
        raise RulesError(f"{where} has unknown field(s) {', '.join(unknown)}; the fields are {', '.join(sorted(fields))}")


def _bottom(name: str, raw: dict[str, Any]) -> Bottom:
    _known(f"bottom '{name}'", raw, {"arrow", "vp", "happiness", "safety", "no_warehouse", "opposite", "worthless"})
    arrow = raw.get("arrow")
    if arrow is not None:
        _one_of(f"bottom '{name}' arrow", arrow, ARROWS)
    return Bottom(name, arrow, _int(f"bottom '{name}' vp", raw.get("vp", 0)),
                  _int(f"bottom '{name}' happiness", raw.get("happiness", 0), -5, 5),
                  _int(f"bottom '{name}' safety", raw.get("safety", 0), -5, 5),
                  bool(raw.get("no_warehouse", False)), bool(raw.get("opposite", False)), bool(raw.get("worthless", False)))


def _development(raw: dict[str, Any], symbols: tuple[str, ...]) -> Development:
    name = str(raw.get("name", ""))
    where = f"development '{name}'"
    _known(where, raw, {"name", "age", "colour", "cost", "cost_turn5", "place", "culture", "wonder", "vp", "money",
                        "happiness", "safety", "government", "religion"})
    place = raw.get("place")
    culture = raw.get("culture")
    if place is not None:
        _one_of(f"{where} place", place, PLACES)
    if culture is not None:
        _one_of(f"{where} culture", culture, symbols + ("any",))
        if place != "culture":
            raise RulesError(f"{where} scores culture '{culture}' but places no culture cube (place = \"culture\")")
    wonder = raw.get("wonder")
    if wonder is not None:
        _one_of(f"{where} wonder", wonder, ("government", "religion"))
    turn5 = raw.get("cost_turn5")
    age = _one_of(f"{where} age", raw.get("age"), AGES)
    if turn5 is not None and age != "bronze":
        raise RulesError(f"{where}: only bronze age developments have a turn-5 price (it is {age} age)")
    return Development(name, age, _one_of(f"{where} colour", raw.get("colour"), COLOURS),
                       _int(f"{where} cost", raw.get("cost")),
                       None if turn5 is None else _int(f"{where} cost_turn5", turn5), place, culture, wonder,
                       *(_int(f"{where} {k}", raw.get(k, 0), -MAX_FIGURE, MAX_FIGURE)
                         for k in ("vp", "money", "happiness", "safety", "government", "religion")))


def _buildings(raws: list[dict[str, Any]], symbols: tuple[str, ...]) -> tuple[Building, ...]:
    out = []
    for raw in raws:
        tile = _int("a building's tile", raw.get("tile"), 1, 12)
        track = _one_of(f"building tile {tile} track", raw.get("track"), ("government", "religion"))
        sides = GOVERNMENT_SIDES if track == "government" else RELIGION_SIDES
        _known(f"building tile {tile}", raw, {"tile", "track", *sides})
        for side in sides:
            face = raw.get(side)
            where = f"building tile {tile} ({side})"
            if not isinstance(face, dict):
                raise RulesError(f"{where} is missing: a tile has a {sides[0]} side and a {sides[1]} side")
            _known(where, face, {"name", "cost", "population", "arrow", "happiness", "safety", "money", "give", "doubles"})
            give, doubles = face.get("give"), face.get("doubles")
            if give is not None:
                _one_of(f"{where} give", give, ("happiness", "safety"))
            if doubles is not None:
                _one_of(f"{where} doubles", doubles, symbols)
            out.append(Building(tile, track, side, str(face.get("name")), _int(f"{where} cost", face.get("cost"), 1),
                                _int(f"{where} population", face.get("population", 0), 0, 3),
                                _int(f"{where} arrow", face.get("arrow", 0), 0, 2),
                                happiness=_int(f"{where} happiness", face.get("happiness", 0), 0, 10),
                                safety=_int(f"{where} safety", face.get("safety", 0), 0, 10),
                                money=_int(f"{where} money", face.get("money", 0), 0, 10), give=give, doubles=doubles))
    tiles = sorted(b.tile for b in out)
    if tiles != sorted(list(range(1, 13)) * 2):
        raise RulesError(f"the buildings must be twelve tiles numbered 1 to 12, each once; they are {sorted(set(tiles))}")
    return tuple(out)


def _check_figures(r: Rules) -> None:
    """The seed's figures, which every edit of the data must still fit."""
    def income(cls: str, n: int) -> int:
        table = r.income[cls]
        full, rest = divmod(n, r.max_set)
        return full * table[-1] + (table[rest - 1] if rest else 0)
    for cls, n, money, said in (("basic", 1, 1, "grain 1 -> $1"), ("basic", 3, 6, "grain 3 -> $6"),
                                ("basic", 5, 15, "grain 5 -> $15"), ("civic", 1, 2, "wine 1 -> $2"),
                                ("civic", 2, 5, "wine 2 -> $5"), ("civic", 5, 20, "wine 5 -> $20"),
                                ("civic", 7, 29, "wine 7 -> $29"), ("luxury", 1, 3, "spice 1 -> $3")):
        if income(cls, n) != money:
            raise RulesError(f"the {cls} incomes give ${income(cls, n)} for {n}, but the seed says {said}")
    counts = {"basic": 90, "civic": 48, "luxury": 25}
    basic = sum(r.cards["basic"].values()) * len(r.goods["basic"])
    civic = sum(sum(r.cards[g].values()) for g in r.goods["civic"])
    luxury = sum(r.cards["luxury"].values()) * len(r.goods["luxury"]) + 1
    for cls, n in (("basic", basic), ("civic", civic), ("luxury", luxury)):
        if n != counts[cls]:
            raise RulesError(f"the {cls} decks hold {n} cards; the seed's component list says {counts[cls]}")
    ages = {a: sum(1 for d in r.developments if d.age == a) for a in AGES}
    wanted = {a: sum(s.developments for s in r.stack if s.age == a) for a in AGES}
    if len(r.developments) != 36 or ages != wanted:
        raise RulesError(f"the development deck holds {len(r.developments)} cards by age {ages}; the seed has 36 and "
                         f"the stack by turn asks for {wanted}")
    kinds = {k: sum(1 for c in r.calamities if c.kind == k) for k in CALAMITY_KINDS}
    if kinds != {"unhappiness": 5, "barbarian": 5}:
        raise RulesError(f"the calamities are {kinds}; the seed has 5 unhappiness and 5 barbarian")
    for k in CALAMITY_KINDS:
        if sum(s.calamities for s in r.stack) > kinds[k]:
            raise RulesError(f"the stack reveals more {k} calamities than the deck holds")


def parse(raw: dict[str, Any]) -> Rules:
    income = {cls: tuple(_int(f"income.{cls}", v, 0) for v in raw["income"][cls]) for cls in ("basic", "civic", "luxury")}
    max_set = _int("max_set", raw.get("max_set"), 1, 20)
    for cls, table in income.items():
        if len(table) != max_set:
            raise RulesError(f"income.{cls} lists {len(table)} sets; it must list one income per set size 1 to {max_set}")
    goods = {cls: tuple(str(g) for g in raw["goods"][cls]) for cls in ("basic", "civic", "luxury")}
    bottoms = {name: _bottom(name, b) for name, b in raw["bottoms"].items()}
    cards: dict[str, dict[str, int]] = {}
    for deck in ("basic", *goods["civic"], "luxury"):
        table = raw["cards"].get(deck)
        if not isinstance(table, dict):
            raise RulesError(f"cards.{deck} is missing: the cards of each deck are listed as bottom = count")
        for b, n in table.items():
            if b not in bottoms:
                raise RulesError(f"cards.{deck} names the bottom '{b}', which is not in [bottoms]")
            _int(f"cards.{deck}.{b}", n, 1, 100)
        cards[deck] = dict(table)
    tracks = raw["tracks"]
    length = _int("tracks.length", tracks.get("length"), 1, 30)
    allowance = tuple(_int("tracks.allowance", v, 0, 6) for v in tracks.get("allowance", []))
    if len(allowance) != length + 1 or list(allowance) != sorted(allowance):
        raise RulesError(f"tracks.allowance must give a rising building allowance for each level 0 to {length}")
    culture = raw["culture"]
    symbols = tuple(str(s) for s in culture["symbols"])
    industries = {}
    for good in goods["basic"]:
        ind = raw["industries"].get(good)
        if not isinstance(ind, dict):
            raise RulesError(f"industries.{good} is missing: each basic good has an industry")
        industries[good] = (str(ind["name"]), _one_of(f"industries.{good} track", ind.get("track"), ("happiness", "safety")))
    bonus = raw["industry_bonus"]
    stack = tuple(Stack(_one_of("stack age", s.get("age"), AGES), _int("stack developments", s.get("developments"), 0, 36),
                        _int("stack calamities", s.get("calamities"), 0, 5)) for s in raw["stack"])
    turns = _int("turns", raw.get("turns"), 1, 20)
    if len(stack) != turns:
        raise RulesError(f"the development deck is stacked for {len(stack)} turns; the game has {turns}")
    favours = {str(g): _one_of(f"favours.{g}", a, ARROWS) for g, a in raw["favours"].items()}
    if set(favours) != set(goods["civic"]):
        raise RulesError(f"favours must name each civic good once ({', '.join(goods['civic'])})")
    calamities = []
    for c in raw["calamities"]:
        _known(f"calamity '{c.get('name')}'", c, {"name", "kind", "cubes", "vp", "buildings", "halve_money"})
        calamities.append(Calamity(str(c["name"]), _one_of(f"calamity '{c.get('name')}' kind", c.get("kind"), CALAMITY_KINDS),
                                   _int("calamity cubes", c.get("cubes", 0), 0, 15), _int("calamity vp", c.get("vp", 0)),
                                   _int("calamity buildings", c.get("buildings", 0), 0, 12), bool(c.get("halve_money", False))))
    players = raw["players"]
    rules = Rules(
        id=str(raw["id"]), title=str(raw["title"]),
        players=(_int("players", players[0], 2, 6), _int("players", players[1], 2, 6)),
        civilizations=tuple(str(c) for c in raw["civilizations"]), turns=turns,
        start_vp=_int("start_vp", raw["start_vp"]), start_money=_int("start_money", raw["start_money"]),
        warehouse=_int("warehouse", raw["warehouse"], 0, 20), warehouse_upgraded=_int("warehouse_upgraded", raw["warehouse_upgraded"], 0, 20),
        industry_vp_price=_int("industry_vp_price", raw["industry_vp_price"], 1), industry_vp_floor=_int("industry_vp_floor", raw["industry_vp_floor"], 1),
        trading_minutes=_int("trading_minutes", raw["trading_minutes"], 1, 24 * 60),
        calamity_indecision_vp=_int("calamity_indecision_vp", raw["calamity_indecision_vp"]), max_set=max_set,
        farms=tuple(str(f) for f in raw["population"]["farms"]),
        population_supply=_int("population.supply", raw["population"]["supply"], 7, 100),
        income=income, goods=goods, bottoms=bottoms, cards=cards, favours=favours, track_length=length,
        allowance=allowance, status_floor=_int("tracks.happiness_floor", tracks["happiness_floor"], -30, 0),
        status_ceiling=_int("tracks.status_ceiling", tracks["status_ceiling"], 0, 30),
        industry_length=_int("tracks.industry_length", tracks["industry_length"], 0, 10),
        culture_symbols=symbols, row_bonus=_int("culture.row_bonus", culture["row_bonus"]),
        column_bonus=tuple(_int("culture.column_bonus", v) for v in culture["column_bonus"]),
        industries=industries, dominance_vp=_int("dominance_vp", bonus["dominance_vp"]),
        dominance_step=_int("dominance_step", bonus["dominance_step"], 0, 5), monopoly_vp=_int("monopoly_vp", bonus["monopoly_vp"]),
        stack=stack, developments=tuple(_development(d, symbols) for d in raw["developments"]),
        improvements={str(k): dict(v) for k, v in raw["improvements"].items()},
        buildings=_buildings(raw["buildings"], symbols), calamities=tuple(calamities))
    if len({d.name.lower() for d in rules.developments}) != len(rules.developments):
        raise RulesError("two developments share a name: each development is named once")
    if len(set(rules.civilizations)) != rules.players[1] or len(rules.civilizations) != rules.players[1]:
        raise RulesError(f"civilizations must name {rules.players[1]} different civilizations, one per seat at most")
    if rules.farms != goods["basic"]:
        raise RulesError("population.farms must list the five basic goods, one farm each")
    _check_figures(rules)
    rules.deck_specs()  # a deck the tabletop refuses is refused here, on loading
    return rules


def load(data_dir: Path) -> Rules:
    path = data_dir / "rulesets" / "trading-mediterranean.toml"
    with path.open("rb") as f:
        raw = tomllib.load(f)
    try:
        return parse(raw)
    except (KeyError, TypeError, IndexError) as e:
        raise RulesError(f"{path.name}: a required entry is missing or malformed ({e!r})") from e


def default_rules() -> Rules:
    return load(Path(__file__).resolve().parents[2] / "data")
