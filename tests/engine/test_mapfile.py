"""The map file format (engine/mapfile.py) and the Mare Nostrum map it holds (data/maps/mare-nostrum.map)."""
from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest

from engine.geography import GameMap
from engine.mapfile import ORDER_WORDS, MapError, load_map, parse_map
from engine.names import normalise

ROOT = Path(__file__).parents[2]
MAP_PATH = ROOT / "data/maps/mare-nostrum.map"
RULESET = tomllib.loads((ROOT / "data/rulesets/mare-nostrum.toml").read_text(encoding="utf-8"))

NATIONS = ("Carthaginians", "Gauls", "Macedonians", "Ptolemaics", "Romans", "Seleucids")
BORDERS = {
    "Carthaginians": {"Baetica", "Numidia"},
    "Gauls": {"Celtiberia", "Narbonensis"},
    "Macedonians": {"Dardania", "Argolis"},
    "Ptolemaics": {"Marmarica", "Judaea"},
    "Romans": {"Bruttium", "Apulia"},
    "Seleucids": {"Phrygia", "Cappadocia"},
}
CAPITALS = {
    "Carthaginians": "Carthago",
    "Gauls": "Celtica",
    "Macedonians": "Macedonia",
    "Ptolemaics": "Aegyptus",
    "Romans": "Latium",
    "Seleucids": "Syria",
}
# The seed's exceptions to "diagonal attacks are not allowed", and only those.
DIAGONALS = {
    frozenset(("Celtiberia", "Baetica")),
    frozenset(("Celtiberia", "Narbonensis")),
    frozenset(("Baetica", "Mauretania")),
    frozenset(("Phoenicia", "Cilicia")),
    frozenset(("Phoenicia", "Judaea")),
    frozenset(("Judaea", "Aegyptus")),
}
ISLANDS = {"Sardinia", "Sicilia", "Cyprus"}


@pytest.fixture(scope="module")
def game_map() -> GameMap:
    return load_map(MAP_PATH)


def _orthogonal(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _connected(start: str, allowed: set[str], links: dict[str, frozenset[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in links.get(todo.pop(), frozenset()):
            if nxt in allowed and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# ---------------------------------------------------------------------------------------------------
# The Mare Nostrum map


def test_the_real_file_loads(game_map: GameMap) -> None:
    assert game_map.name == "Mare Nostrum, 290 BC"
    assert (game_map.columns, game_map.rows) == (14, 8)


def test_38_provinces_six_per_nation_and_two_independents(game_map: GameMap) -> None:
    assert len(game_map.provinces) == 38
    for nation in NATIONS:
        mine = [p for p in game_map.provinces.values() if p.nation == nation]
        roles = sorted(p.role for p in mine)
        assert roles == ["border", "border", "capital", "home", "home", "home"], nation
        assert {p.name for p in mine if p.is_capital} == {CAPITALS[nation]}
    independent = {p.name for p in game_map.provinces.values() if p.nation is None}
    assert independent == {"Illyria", "Epirus"}
    assert all(game_map.provinces[name].role == "independent" for name in independent)


def test_border_provinces_are_the_seeds_invasions(game_map: GameMap) -> None:
    for nation, provinces in BORDERS.items():
        assert {p.name for p in game_map.provinces.values() if p.nation == nation and p.role == "border"} == provinces
    # ... and the ruleset's invasions strike exactly these, each in its own nation's province.
    invaded = {inv["province"] for inv in RULESET["invasions"]}
    assert invaded == set().union(*BORDERS.values())


def test_the_provinces_the_seed_names_exist(game_map: GameMap) -> None:
    for name in ("Mauretania", "Phoenicia", "Cilicia", "Aegyptus", "Illyria", "Epirus"):
        assert name in game_map.provinces
    assert game_map.provinces["Mauretania"].nation == "Carthaginians"
    assert game_map.provinces["Phoenicia"].nation == game_map.provinces["Cilicia"].nation == "Seleucids"
    assert game_map.provinces["Aegyptus"].nation == "Ptolemaics"


def test_the_diagonals_are_exactly_the_seeds_exceptions(game_map: GameMap) -> None:
    assert {frozenset(pair) for pair in game_map.diagonals} == DIAGONALS
    assert len(game_map.diagonals) == len(DIAGONALS)
    for a, b in map(tuple, DIAGONALS):
        ca, cb = game_map.provinces[a].cell, game_map.provinces[b].cell
        assert abs(ca[0] - cb[0]) == 1 and abs(ca[1] - cb[1]) == 1, (a, b)  # a true corner ...
        assert not _orthogonal(ca, cb)  # ... so the exception is what makes them neighbours
        assert game_map.adjacent(a, b) and game_map.adjacent(b, a)


def test_land_adjacency_is_the_grid_plus_the_diagonals_and_nothing_else(game_map: GameMap) -> None:
    provinces = game_map.provinces
    for a in provinces:
        expected = {
            b for b in provinces if b != a and _orthogonal(provinces[a].cell, provinces[b].cell)
        } | {b for pair in DIAGONALS if a in pair for b in pair if b != a}
        assert game_map.land[a] == expected, a


def test_adjacency_is_symmetric(game_map: GameMap) -> None:
    for a, neighbours in game_map.land.items():
        assert a not in neighbours
        for b in neighbours:
            assert a in game_map.land[b], (a, b)
    for province, seas in game_map.coasts.items():
        for sea in seas:
            assert province in game_map.shores[sea]
    for sea, provinces in game_map.shores.items():
        for province in provinces:
            assert sea in game_map.coasts[province]
    for sea, links in game_map.sea_links.items():
        for other in links:
            assert sea in game_map.sea_links[other]


def test_each_nation_holds_together_by_land_except_its_islands(game_map: GameMap) -> None:
    for nation in NATIONS:
        mainland = {p.name for p in game_map.provinces.values() if p.nation == nation and p.name not in ISLANDS}
        start = next(iter(mainland))
        assert _connected(start, mainland, game_map.land) == mainland, nation
    for island in ISLANDS:
        assert game_map.land[island] == frozenset(), island
        assert game_map.coasts[island], island


def test_seas_and_coasts(game_map: GameMap) -> None:
    assert 10 <= len(game_map.seas) <= 16
    for sea in game_map.seas.values():
        assert sea.cells, sea.name
        assert len(game_map.shores[sea.name]) >= 2, f"{sea.name} touches {sorted(game_map.shores[sea.name])}"
        assert sea.name.split()[0] in ("Mare", "Fretum", "Sinus", "Hellespontus"), "Latin names"
        assert len(sea.aliases) >= 3, sea.name
    for nation in NATIONS:
        assert any(game_map.coasts[p.name] for p in game_map.provinces.values() if p.nation == nation), nation
    for province in game_map.provinces.values():
        touching = {s.name for s in game_map.seas.values() if any(_orthogonal(province.cell, c) for c in s.cells)}
        assert game_map.coasts[province.name] == touching, province.name


def test_the_whole_map_is_connected(game_map: GameMap) -> None:
    links: dict[str, frozenset[str]] = {}
    for name in [*game_map.provinces, *game_map.seas]:
        links[name] = (
            game_map.land.get(name, frozenset())
            | game_map.coasts.get(name, frozenset())
            | game_map.shores.get(name, frozenset())
            | game_map.sea_links.get(name, frozenset())
        )
    everything = set(links)
    assert _connected("Latium", everything, links) == everything


def test_every_place_has_aliases_that_stay_out_of_other_slots(game_map: GameMap) -> None:
    nation_names = {normalise(n["name"]) for n in RULESET["nations"]}
    invader_names = {normalise(i["invader"]) for i in RULESET["invasions"]}
    invader_names |= {normalise(a) for i in RULESET["invasions"] for a in i["aliases"]}
    for province in game_map.provinces.values():
        assert len(province.aliases) >= 3, province.name
        for written in (province.name, *province.aliases):
            assert normalise(written) not in nation_names, (province.name, written)
            # The invader forces are resolved in their own slot; a province must not answer to their names.
            assert normalise(written) not in invader_names, (province.name, written)
    for sea in game_map.seas.values():
        for written in (sea.name, *sea.aliases):
            assert normalise(written) not in nation_names, (sea.name, written)


def test_well_known_names_resolve_to_the_right_province(game_map: GameMap) -> None:
    def owner(written: str) -> str:
        places = [*game_map.provinces.values(), *game_map.seas.values()]
        return next(p.name for p in places if normalise(written) in {normalise(a) for a in (p.name, *p.aliases)})

    assert owner("rome") == owner("Roma") == owner("Lazio") == "Latium"
    assert owner("Egypt") == owner("Alexandria") == "Aegyptus"
    assert owner("Carthage") == owner("Africa") == "Carthago"
    assert owner("Sicily") == "Sicilia"
    assert owner("Macedon") == "Macedonia"
    assert owner("Tyrrhenian Sea") == "Mare Tyrrhenum"
    assert owner("Adriatic") == "Mare Adriaticum"
    assert owner("Straits of Gibraltar") == "Fretum Gaditanum"


def test_names_keep_clear_of_the_order_grammar(game_map: GameMap) -> None:
    for place in [*game_map.provinces.values(), *game_map.seas.values()]:
        for written in (place.name, *place.aliases):
            assert not set(normalise(written).split()) & ORDER_WORDS, written


def test_the_grid_looks_like_the_mediterranean(game_map: GameMap) -> None:
    def cell(name: str) -> tuple[int, int]:
        return game_map.provinces[name].cell

    # Iberia in the west, Gaul to the north-west, Italy in the middle, then Greece, Asia Minor, the Levant.
    assert cell("Baetica")[0] == 0
    assert cell("Celtiberia")[0] < cell("Latium")[0] < cell("Macedonia")[0] < cell("Phrygia")[0] < cell("Syria")[0]
    assert cell("Belgica")[1] == 0 and cell("Belgica")[0] < cell("Latium")[0]
    # Africa below Europe; Egypt in the south-east.
    assert cell("Carthago")[1] > cell("Sardinia")[1] > cell("Gallia Cisalpina")[1]
    assert cell("Aegyptus")[1] > cell("Macedonia")[1] and cell("Aegyptus")[0] > cell("Latium")[0]
    assert cell("Thebais")[1] == game_map.rows - 1
    # Illyria and Epirus sit between the Romans (across the Adriatic) and the Macedonians.
    adriatic = game_map.shores["Mare Adriaticum"]
    assert {"Illyria", "Epirus", "Apulia", "Umbria"} <= adriatic
    assert "Macedonia" in game_map.land["Illyria"] and "Thessalia" in game_map.land["Epirus"]


# Real neighbours by land that the map must keep (docs/maps.md lists those a square grid cannot keep: of three
# provinces that all touch each other, one pair must go, since a grid of squares has no triangles).
LAND_NEIGHBOURS = [
    ("Illyria", "Epirus"), ("Macedonia", "Dardania"), ("Epirus", "Thessalia"), ("Macedonia", "Thessalia"),
    ("Illyria", "Macedonia"), ("Dardania", "Thracia"), ("Thessalia", "Achaea"), ("Achaea", "Argolis"),
    ("Celtica", "Belgica"), ("Celtica", "Gallia Cisalpina"), ("Celtica", "Narbonensis"), ("Aquitania", "Celtiberia"),
    ("Aquitania", "Narbonensis"), ("Gallia Cisalpina", "Umbria"), ("Etruria", "Umbria"), ("Etruria", "Latium"),
    ("Latium", "Campania"), ("Campania", "Bruttium"), ("Apulia", "Bruttium"), ("Latium", "Apulia"),
    ("Mauretania", "Numidia"), ("Numidia", "Carthago"), ("Aegyptus", "Thebais"), ("Aegyptus", "Marmarica"),
    ("Marmarica", "Cyrenaica"), ("Phrygia", "Cappadocia"), ("Cappadocia", "Cilicia"), ("Cilicia", "Syria"),
    ("Syria", "Mesopotamia"), ("Syria", "Phoenicia"),
]
# Every sea and the provinces it really borders (it may touch a few more where a cell has no better place).
SEA_BORDERS = {
    "Fretum Gaditanum": {"Baetica", "Mauretania"},
    "Mare Balearicum": {"Celtiberia", "Baetica"},
    "Sinus Gallicus": {"Narbonensis", "Celtiberia"},
    "Mare Ligusticum": {"Narbonensis", "Gallia Cisalpina", "Etruria"},
    "Mare Tyrrhenum": {"Latium", "Campania", "Sardinia", "Sicilia"},
    "Mare Inferum": {"Campania", "Bruttium", "Sicilia"},
    "Mare Africum": {"Carthago", "Sardinia", "Sicilia"},
    "Mare Adriaticum": {"Umbria", "Apulia", "Illyria", "Epirus"},
    "Mare Ionium": {"Bruttium", "Epirus", "Achaea", "Argolis"},
    "Hellespontus": {"Thracia", "Phrygia"},
    "Mare Thracium": {"Macedonia", "Thracia"},
    "Mare Aegaeum": {"Thessalia", "Achaea", "Phrygia"},
    "Mare Creticum": {"Argolis", "Cyrenaica"},
    "Mare Cyprium": {"Cilicia", "Cyprus", "Phoenicia"},
    "Mare Aegyptium": {"Aegyptus", "Marmarica", "Judaea", "Cyprus"},
}
# Provinces on the Mediterranean shore in 290 BC; the rest (Celtica, Aquitania, Belgica, Dardania, Thebais,
# Syria's capital Antioch, Mesopotamia, Cappadocia) face no sea of the game.
COASTAL = {
    "Carthago", "Sicilia", "Sardinia", "Mauretania", "Baetica", "Numidia", "Gallia Cisalpina", "Celtiberia",
    "Narbonensis", "Macedonia", "Thessalia", "Thracia", "Achaea", "Argolis", "Aegyptus", "Cyrenaica", "Cyprus",
    "Marmarica", "Judaea", "Latium", "Etruria", "Campania", "Umbria", "Bruttium", "Apulia", "Cilicia", "Phoenicia",
    "Phrygia", "Illyria", "Epirus",
}


@pytest.mark.parametrize(("a", "b"), LAND_NEIGHBOURS, ids=[f"{a}-{b}" for a, b in LAND_NEIGHBOURS])
def test_real_neighbours_are_adjacent(game_map: GameMap, a: str, b: str) -> None:
    assert game_map.adjacent(a, b) and game_map.adjacent(b, a)


def test_each_sea_touches_the_coasts_it_borders(game_map: GameMap) -> None:
    assert set(SEA_BORDERS) == set(game_map.seas)
    for sea, borders in SEA_BORDERS.items():
        assert borders <= game_map.shores[sea], f"{sea} misses {sorted(borders - game_map.shores[sea])}"


def test_coastal_provinces_have_their_sea_and_inland_ones_none(game_map: GameMap) -> None:
    for province in game_map.provinces:
        assert bool(game_map.coasts[province]) == (province in COASTAL), province


def test_sicily_and_bruttium_share_the_strait(game_map: GameMap) -> None:
    assert game_map.coasts["Sicilia"] & game_map.coasts["Bruttium"] == {"Mare Inferum"}


def test_file_order_is_kept(game_map: GameMap) -> None:
    assert list(game_map.provinces)[:2] == ["Carthago", "Sicilia"]
    assert list(game_map.provinces)[-2:] == ["Illyria", "Epirus"]
    assert list(game_map.seas)[0] == "Fretum Gaditanum"
    assert game_map.province_order("Carthago") == 0


# ---------------------------------------------------------------------------------------------------
# The format, on a tiny map

TINY = """\
# a test map
map Tiny

[grid]
A    B    .
S    C    D

[provinces]
A | Alpha | Reds  | capital     | Alfa, Alpha Land
B | Beta  | Reds  | home        |
C | Gamma | Blues | capital
D | Delta | -     | independent | Deltaland

[seas]
S | Mare Testum | Test Sea

[diagonals]
A C
"""


def test_the_tiny_map_reads() -> None:
    m = parse_map(TINY, "tiny.map")
    assert (m.name, m.columns, m.rows) == ("Tiny", 3, 2)
    assert m.provinces["Alpha"].cell == (0, 0)
    assert m.provinces["Alpha"].aliases == ("Alfa", "Alpha Land")
    assert m.provinces["Beta"].aliases == ()
    assert m.provinces["Delta"].nation is None
    assert m.seas["Mare Testum"].cells == ((0, 1),)
    assert m.land["Alpha"] == {"Beta", "Gamma"}  # Gamma only through the diagonal
    assert m.land["Gamma"] == {"Alpha", "Beta", "Delta"}
    assert m.coasts["Alpha"] == {"Mare Testum"} and m.coasts["Beta"] == frozenset()
    assert m.shores["Mare Testum"] == {"Alpha", "Gamma"}
    assert m.sea_links["Mare Testum"] == frozenset()
    assert m.diagonals == (("Alpha", "Gamma"),)


def test_a_sea_may_take_several_joined_cells() -> None:
    m = parse_map(TINY.replace("A    B    .\nS    C    D", "A    B    .\nS    C    D\nS    S    ."), "tiny.map")
    assert m.seas["Mare Testum"].cells == ((0, 1), (0, 2), (1, 2))
    assert m.shores["Mare Testum"] == {"Alpha", "Gamma"}
    assert m.coasts["Gamma"] == {"Mare Testum"}
    assert m.rows == 3


def _line_of(text: str, fragment: str) -> int:
    """The last line holding ``fragment``: a broken copy of a line comes after the original."""
    return max(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def _broken(replace: str, by: str, *, extra: Iterable[tuple[str, str]] = ()) -> str:
    assert replace in TINY
    text = TINY.replace(replace, by, 1)
    for old, new in extra:
        assert old in text
        text = text.replace(old, new, 1)
    return text


def _error(text: str) -> MapError:
    with pytest.raises(MapError) as caught:
        parse_map(text, "broken.map")
    error = caught.value
    assert error.filename == "broken.map"
    assert str(error) == (f"broken.map:{error.line}: {error.problem}" if error.line else f"broken.map: {error.problem}")
    return error


# (what is broken, the text, the line the error must name, words the problem must contain)
CASES: list[tuple[str, str, str | None, tuple[str, ...]]] = [
    ("unknown section", _broken("[diagonals]", "[rivers]"), "[rivers]", ("unknown section", "[rivers]", "[grid]")),
    ("section twice", _broken("[diagonals]\nA C", "[diagonals]\nA C\n[seas]"), "[seas]", ("twice", "line 14")),
    ("too few fields", _broken("B | Beta  | Reds  | home        |", "B | Beta | Reds"), "B | Beta | Reds",
     ("3 fields", "code | name | nation | role | aliases")),
    ("too many sea fields", _broken("S | Mare Testum | Test Sea", "S | Mare Testum | Test Sea | x"),
     "S | Mare Testum", ("4 fields", "code | name | aliases")),
    ("grid row of another width", _broken("S    C    D", "S    C    D    ."), "S    C    D    .",
     ("row 2 has 4 cells", "has 3", "line 5")),
    ("grid code not declared", _broken("S    C    D", "S    C    E"), "S    C    E", ("'E'", "not declared")),
    ("grid cell that is no code", _broken("S    C    D", "S    C    D?"), "S    C    D?", ("'D?'", "neither")),
    ("declared code not on the grid", _broken("S    C    D", "S    C    ."), "D | Delta", ("Delta", "not on the grid")),
    ("code on the grid twice", _broken("A    B    .", "A    B    D"), "S    C    D", ("'D'", "twice", "one cell")),
    ("code declared twice", _broken("D | Delta", "C | Delta"), "C | Delta", ("code 'C'", "Gamma")),
    ("unknown role", _broken("| home ", "| homeland "), "B | Beta", ("unknown role 'homeland'", "capital")),
    ("two capitals", _broken("| home ", "| capital "), "B | Beta", ("Reds", "two capitals", "Alpha")),
    ("no capital", _broken("C | Gamma | Blues | capital", "C | Gamma | Blues | home"), "C | Gamma",
     ("Blues", "no capital")),
    ("independent with a nation", _broken("D | Delta | -", "D | Delta | Greens"), "D | Delta",
     ("independent", "Greens")),
    ("nation province without a nation", _broken("B | Beta  | Reds ", "B | Beta  | -    "), "B | Beta",
     ("home", "no nation")),
    ("duplicate name across province and sea", _broken("Mare Testum", "gamma"), "S | gamma",
     ("'gamma'", "Gamma", "ignoring case")),
    ("duplicate alias across kinds", _broken("Test Sea", "ALFA"), "ALFA", ("'ALFA'", "Alpha", "(as 'Alfa')")),
    ("alias repeated in one place", _broken("Alfa, Alpha Land", "Alfa, alfa"), "Alfa, alfa", ("twice",)),
    ("diagonal that is orthogonal", _broken("A C", "A B"), "A B", ("corner", "Alpha", "Beta")),
    ("diagonal that is far", _broken("A C", "A D"), "A D", ("corner", "Delta")),
    ("diagonal naming an unknown code", _broken("A C", "A Z"), "A Z", ("'Z'", "not a declared code")),
    ("diagonal naming a sea", _broken("A C", "S B"), "S B", ("'S'", "sea")),
    ("diagonal that is no pair", _broken("A C", "A C B"), "A C B", ("not a pair",)),
    ("diagonal listed twice", _broken("A C", "A C\nC A"), "C A", ("already listed",)),
    ("order word in a name", _broken("| Beta  |", "| Beta to Gamma |"), "Beta to Gamma", ("'to'", "choose a name")),
    ("order word in an alias", _broken("Test Sea", "Sea of Alpha and Beta"), "Sea of Alpha", ("'and'",)),
    ("order word in any case", _broken("Deltaland", "Delta On Sea"), "Delta On Sea", ("'on'",)),
    ("odd character in a name", _broken("| Gamma |", "| Gamma! |"), "Gamma!", ("'!'", "letters")),
    ("digit in an alias", _broken("Deltaland", "Delta2"), "Delta2", ("'2'", "letters")),
    ("line outside any section", _broken("map Tiny", "map Tiny\nhello"), "hello", ("outside any section",)),
    ("second title", _broken("map Tiny", "map Tiny\nmap Other"), "map Other", ("second 'map' line",)),
    ("no title", _broken("map Tiny", ""), None, ("no title", "map <name>")),
    ("no grid", _broken("[grid]\nA    B    .\nS    C    D\n", ""), None, ("no grid",)),
    ("sea touching one province", _broken("A    B    .\nS    C    D", "A    B    .\nS    .    C\n.    .    D",
                                          extra=[("[diagonals]\nA C\n", "")]),
     "S | Mare Testum", ("Mare Testum", "touches 1 province (Alpha)", "at least two")),
    ("sea cells not joined", _broken("A    B    .", "A    B    S"), "S    C    D", ("not joined", "one piece")),
]


@pytest.mark.parametrize(("text", "where", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_maps_say_where_and_what(text: str, where: str | None, words: tuple[str, ...]) -> None:
    error = _error(text)
    if where is None:
        assert error.line is None
    else:
        assert error.line == _line_of(text, where)
    for word in words:
        assert word in error.problem, (word, error.problem)


def test_map_error_is_a_value_error_with_a_plain_message() -> None:
    error = MapError("x.map", 3, "something is wrong")
    assert isinstance(error, ValueError)
    assert str(error) == "x.map:3: something is wrong"
    assert str(MapError("x.map", None, "missing")) == "x.map: missing"


def test_comments_and_blank_lines_are_ignored_anywhere() -> None:
    text = TINY.replace("A    B    .", "A    B    .   # the north row").replace(
        "B | Beta  | Reds  | home        |", "\n# Beta is plain\nB | Beta  | Reds  | home | # no aliases"
    )
    m = parse_map(text, "tiny.map")
    assert m.provinces["Beta"].aliases == ()
    assert m.columns == 3


def test_load_map_reads_a_path(tmp_path: Path) -> None:
    path = tmp_path / "tiny.map"
    path.write_text(TINY, encoding="utf-8")
    assert load_map(path).name == "Tiny"
    assert load_map(str(path)).name == "Tiny"
    path.write_text(TINY.replace("[diagonals]", "[rivers]"), encoding="utf-8")
    with pytest.raises(MapError) as caught:
        load_map(path)
    assert caught.value.filename == str(path)


def test_the_example_in_the_docs_reads() -> None:
    doc = (ROOT / "docs/maps.md").read_text(encoding="utf-8")
    example = doc.split("```\n", 2)[1].split("```", 1)[0]
    m = parse_map(example, "docs/maps.md")
    assert m.land["Albion"] == {"Betica", "Gamma"}
    assert m.provinces["Delos"].nation is None
