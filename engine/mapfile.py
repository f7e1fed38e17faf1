"""Campaign maps as text files (``data/maps/*.map``): reading and checking them into a ``GameMap``.

The format is written for GMs in ``docs/maps.md``. A map is a square grid: every province takes exactly one
cell, a sea quadrant one cell or several joined by their sides, and adjacency comes from the grid (orthogonal
neighbours) plus the few diagonal crossings the file lists. A map is data a GM edits by hand, so every mistake is reported with the
file, the line and what would be right, before a campaign can start on it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.geography import GameMap, Province, Sea
from engine.names import counted, normalise

ROLES = ("capital", "home", "border", "independent")
NO_NATION = "-"
EMPTY_CELL = "."
SECTIONS = ("grid", "provinces", "seas", "diagonals")

# The order parser (engine/mare_nostrum/order_slots.py) cuts a player's line into its parts at these words, so a
# name containing one would be cut in two: "attack Gallia on the Rhone from ..." could never be read.
ORDER_WORDS = frozenset(
    {
        "in", "inside", "at", "from", "through", "thru", "via", "across", "by", "against", "vs", "versus",
        "with", "on", "onto", "upon", "to", "into", "and", "then", "also",
    }
)

_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# A word as the order parser sees it: letters, with apostrophes inside ("Rome's" is one word).
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_SECTION = re.compile(r"\[\s*([^\]]*?)\s*\]")
_NAME_PUNCTUATION = frozenset(" '-.")


_Fail = Callable[[int | None, str], "MapError"]


class MapError(ValueError):
    """A map file that cannot be used, with where and why."""

    def __init__(self, filename: str, line: int | None, problem: str) -> None:
        self.filename = filename
        self.line = line  # 1-based; None when the problem is not on one line (something missing)
        self.problem = problem
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.filename}: {self.problem}"
        return f"{self.filename}:{self.line}: {self.problem}"


@dataclass
class _Place:
    """A province or sea as declared, before the grid gives it a cell."""

    code: str
    name: str
    aliases: tuple[str, ...]
    line: int
    nation: str | None = None  # provinces only
    role: str | None = None  # provinces only; None marks a sea

    @property
    def kind(self) -> str:
        return "sea" if self.role is None else "province"


@dataclass
class _Parsed:
    name: str | None = None
    name_line: int | None = None
    grid: list[tuple[int, list[str]]] = field(default_factory=list)  # (line, cells)
    places: list[_Place] = field(default_factory=list)
    diagonals: list[tuple[int, str, str]] = field(default_factory=list)


def load_map(path: str | Path) -> GameMap:
    path = Path(path)
    return parse_map(path.read_text(encoding="utf-8"), str(path))


def parse_map(text: str, filename: str) -> GameMap:
    """The map in ``text``; ``filename`` only names the file in error messages."""
    parsed = _read_sections(text, filename)
    return _build(parsed, filename)


# ---------------------------------------------------------------------------------------------------
# Lines and sections


def _read_sections(text: str, filename: str) -> _Parsed:
    parsed = _Parsed()
    section: str | None = None
    seen_sections: dict[str, int] = {}

    def fail(line: int | None, problem: str) -> MapError:
        return MapError(filename, line, problem)

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        header = _SECTION.fullmatch(line)
        if header:
            section = header.group(1).lower()
            if section not in SECTIONS:
                raise fail(number, f"unknown section '{line}': the sections are "
                                   f"{', '.join(f'[{s}]' for s in SECTIONS[:-1])} and [{SECTIONS[-1]}]")
            if section in seen_sections:
                raise fail(number, f"section [{section}] appears twice (first on line {seen_sections[section]}): "
                                   "write each section once")
            seen_sections[section] = number
            continue
        if section is None:
            _read_title(parsed, line, number, fail)
        elif section == "grid":
            parsed.grid.append((number, line.split()))
        elif section == "provinces":
            parsed.places.append(_read_province(line, number, fail))
        elif section == "seas":
            parsed.places.append(_read_sea(line, number, fail))
        else:
            parsed.diagonals.append(_read_diagonal(line, number, fail))
    if parsed.name is None:
        raise MapError(filename, None, "the map has no title: start the file with a line 'map <name>'")
    return parsed


def _read_title(parsed: _Parsed, line: str, number: int, fail: _Fail) -> None:
    keyword, _, title = line.partition(" ")
    if keyword.lower() != "map":
        raise fail(number, f"'{line}' is outside any section: before the first [section] only "
                           "a line 'map <name>' may stand")
    if not title.strip():
        raise fail(number, "the map needs a name: write 'map <name>', e.g. 'map Mare Nostrum, 290 BC'")
    if parsed.name is not None:
        raise fail(number, f"a second 'map' line (the first is on line {parsed.name_line}): write the title once")
    parsed.name, parsed.name_line = title.strip(), number


def _fields(line: str, number: int, fail: _Fail, shape: str, required: int) -> list[str]:
    """The '|'-separated fields of a line; the last field (the aliases) may be left out."""
    fields = [f.strip() for f in line.split("|")]
    full = shape.count("|") + 1
    if len(fields) not in (required, full):
        raise fail(number, f"'{line}' has {counted(len(fields), 'field')}: "
                           f"write '{shape}' ({full} fields separated by '|'; the aliases may be left out)")
    return fields + [""] * (full - len(fields))


def _aliases(text: str) -> tuple[str, ...]:
    # A stray comma ("Roma, , Rome" or a trailing one) is a harmless slip, not a name.
    return tuple(a.strip() for a in text.split(",") if a.strip())


def _check_code(code: str, line: str, number: int, fail: _Fail) -> None:
    if not _CODE.fullmatch(code):
        raise fail(number, f"'{code}' in '{line}' is not a code: a code is letters and digits starting "
                           "with a letter, e.g. LAT")


def _read_province(line: str, number: int, fail: _Fail) -> _Place:
    code, name, nation, role, aliases = _fields(line, number, fail, "code | name | nation | role | aliases", 4)
    _check_code(code, line, number, fail)
    if role not in ROLES:
        raise fail(number, f"unknown role '{role}' for {name or code}: the roles are {', '.join(ROLES)}")
    if not nation:
        raise fail(number, f"no nation for {name or code}: write the nation's name, or '{NO_NATION}' "
                           "for an independent province")
    owner = None if nation == NO_NATION else nation
    if role == "independent" and owner is not None:
        raise fail(number, f"{name} is independent but belongs to '{nation}': write '{NO_NATION}' as its nation, "
                           "or give it the role capital, home or border")
    if role != "independent" and owner is None:
        raise fail(number, f"{name} has the role '{role}' but no nation: name its nation, "
                           "or make it 'independent'")
    return _Place(code, name, _aliases(aliases), number, owner, role)


def _read_sea(line: str, number: int, fail: _Fail) -> _Place:
    code, name, aliases = _fields(line, number, fail, "code | name | aliases", 2)
    _check_code(code, line, number, fail)
    return _Place(code, name, _aliases(aliases), number)


def _read_diagonal(line: str, number: int, fail: _Fail) -> tuple[int, str, str]:
    codes = line.split()
    if len(codes) != 2:
        raise fail(number, f"'{line}' is not a pair: write the two provinces' codes, e.g. 'CEL BAE'")
    return number, codes[0], codes[1]


# ---------------------------------------------------------------------------------------------------
# Checking and building


def _build(parsed: _Parsed, filename: str) -> GameMap:
    def fail(line: int | None, problem: str) -> MapError:
        return MapError(filename, line, problem)

    places = _index_places(parsed.places, fail)
    _check_names(parsed.places, fail)
    cells = _place_on_grid(parsed.grid, places, fail)
    _check_capitals(parsed.places, fail)
    provinces = {p.code: p for p in parsed.places if p.role is not None}
    seas = {p.code: p for p in parsed.places if p.role is None}
    diagonals = _check_diagonals(parsed.diagonals, places, {c: cells[c][0] for c in provinces}, fail)

    at = {cell: code for code, spots in cells.items() for cell in spots}

    def neighbours(code: str) -> list[str]:
        """Every other place sharing a side with one of the cells of `code`, each once, in grid order."""
        found: list[str] = []
        for column, row in cells[code]:
            for spot in ((column, row - 1), (column + 1, row), (column, row + 1), (column - 1, row)):
                other = at.get(spot)
                if other is not None and other != code and other not in found:
                    found.append(other)
        return found

    _check_seas_touch_land(seas, provinces, neighbours, fail)

    def names(codes: Iterable[str]) -> frozenset[str]:
        return frozenset(places[c].name for c in codes)

    land = {code: {n for n in neighbours(code) if n in provinces} for code in provinces}
    for _line, a, b in diagonals:
        land[a].add(b)
        land[b].add(a)
    return GameMap(
        name=parsed.name or "",
        columns=len(parsed.grid[0][1]),
        rows=len(parsed.grid),
        provinces={
            p.name: Province(p.name, cells[code][0], p.nation, p.role or "", p.aliases) for code, p in provinces.items()
        },
        seas={s.name: Sea(s.name, tuple(cells[code]), s.aliases) for code, s in seas.items()},
        land={provinces[code].name: names(land[code]) for code in provinces},
        coasts={provinces[code].name: names(n for n in neighbours(code) if n in seas) for code in provinces},
        shores={seas[code].name: names(n for n in neighbours(code) if n in provinces) for code in seas},
        sea_links={seas[code].name: names(n for n in neighbours(code) if n in seas) for code in seas},
        diagonals=tuple((places[a].name, places[b].name) for _line, a, b in diagonals),
    )


def _index_places(declared: list[_Place], fail: _Fail) -> dict[str, _Place]:
    places: dict[str, _Place] = {}
    for place in declared:
        first = places.get(place.code)
        if first is not None:
            raise fail(place.line, f"code '{place.code}' is already used by {first.kind} {first.name} "
                                   f"(line {first.line}): every province and sea needs its own code")
        places[place.code] = place
    if not any(p.role is not None for p in declared):
        raise fail(None, "the map declares no provinces: list them in a [provinces] section")
    return places


def _check_names(declared: list[_Place], fail: _Fail) -> None:
    # Players type these names, and one index answers for provinces and seas alike in their heads: a name
    # shared by two places, or differing only in case, accents or punctuation, could only be a guess.
    owners: dict[str, tuple[str, _Place]] = {}
    for place in declared:
        for i, written in enumerate((place.name, *place.aliases)):
            what = "alias" if i else "name"
            _check_name_text(written, what, place, fail)
            key = normalise(written)
            if key in owners:
                other_text, other = owners[key]
                same = "" if other_text == written else f" (as '{other_text}')"
                if other is place:
                    raise fail(place.line, f"{place.name} lists '{written}' twice{same}: write each name once")
                raise fail(place.line, f"the {what} '{written}' of {place.name} is already used{same} by "
                                       f"{other.kind} {other.name} (line {other.line}): names and aliases must be "
                                       "unique, ignoring case, across provinces and seas")
            owners[key] = (written, place)


def _check_name_text(written: str, what: str, place: _Place, fail: _Fail) -> None:
    label = place.name or place.code
    if not written:
        raise fail(place.line, f"{place.kind} {place.code} has no name: write one in the name field")
    odd = sorted({c for c in written if not (c.isalpha() or c in _NAME_PUNCTUATION)})
    if odd:
        shown = " ".join(f"'{c}'" for c in odd)
        raise fail(place.line, f"the {what} '{written}' of {label} contains {shown}: names may only use letters, "
                               "spaces, apostrophes, hyphens and periods")
    words = normalise(written).split()
    if not words:
        raise fail(place.line, f"the {what} '{written}' of {label} has no letters: write a real name")
    clash = next((w for w in (normalise(m.group()) for m in _WORD.finditer(written)) if w in ORDER_WORDS), None)
    if clash is not None:
        raise fail(place.line, f"the {what} '{written}' of {label} contains the word '{clash}', which orders use "
                               "to separate their parts (in, at, from, through, via, across, against, with, on, "
                               "to, and ...): choose a name without it")


def _place_on_grid(
    grid: list[tuple[int, list[str]]], places: dict[str, _Place], fail: _Fail
) -> dict[str, list[tuple[int, int]]]:
    """The cells of every place: one for a province; one or more for a sea, joined side to side.

    A sea may spread over several cells so that it can touch every coast it really borders: on a square grid one
    cell has only four sides, and two provinces that are neighbours by land cannot both touch a one-cell sea."""
    if not grid:
        raise fail(None, "the map has no grid: add a [grid] section, one line per row of cells, north first")
    first_line, first_cells = grid[0]
    cells: dict[str, list[tuple[int, int]]] = {}
    line_of: dict[str, int] = {}
    for row, (number, row_cells) in enumerate(grid):
        if len(row_cells) != len(first_cells):
            raise fail(number, f"grid row {row + 1} has {len(row_cells)} cells but the first row (line {first_line}) "
                               f"has {len(first_cells)}: every row needs the same number of cells "
                               f"(use '{EMPTY_CELL}' for an empty one)")
        for column, code in enumerate(row_cells):
            if code == EMPTY_CELL:
                continue
            if code not in places:
                if not _CODE.fullmatch(code):
                    raise fail(number, f"grid cell '{code}' (row {row + 1}, column {column + 1}) is neither a code "
                                       f"nor '{EMPTY_CELL}'")
                raise fail(number, f"grid cell '{code}' (row {row + 1}, column {column + 1}) is not declared: "
                                   "list it in [provinces] or [seas], or write '.' for an empty cell")
            if code in cells and places[code].kind == "province":
                c, r = cells[code][0]
                raise fail(number, f"'{code}' is on the grid twice (row {r + 1}, column {c + 1} and row {row + 1}, "
                                   f"column {column + 1}): each province takes exactly one cell (only a sea may "
                                   "take several)")
            cells.setdefault(code, []).append((column, row))
            line_of[code] = number
    for place in places.values():
        if place.code not in cells:
            raise fail(place.line, f"{place.kind} {place.name} ('{place.code}') is not on the grid: "
                                   "put its code in one cell of the [grid]")
        spots = cells[place.code]
        if len(spots) > 1 and not _joined(spots):
            shown = ", ".join(f"row {r + 1} column {c + 1}" for c, r in spots)
            raise fail(line_of[place.code], f"the cells of the sea {place.name} ('{place.code}') are not joined "
                                            f"side to side ({shown}): a sea over several cells must be one piece "
                                            "of water")
    return cells


def _joined(spots: list[tuple[int, int]]) -> bool:
    """Whether the cells form one piece, each reachable from the first through cells sharing a side."""
    left, seen, todo = set(spots), {spots[0]}, [spots[0]]
    while todo:
        column, row = todo.pop()
        for spot in ((column, row - 1), (column + 1, row), (column, row + 1), (column - 1, row)):
            if spot in left and spot not in seen:
                seen.add(spot)
                todo.append(spot)
    return seen == left


def _check_seas_touch_land(
    seas: dict[str, _Place], provinces: dict[str, _Place], neighbours: Callable[[str], list[str]], fail: _Fail
) -> None:
    """A sea must touch at least two provinces: with one, no fleet raised in it could attack anyone."""
    for code, sea in seas.items():
        touching = [provinces[n].name for n in neighbours(code) if n in provinces]
        if len(touching) < 2:
            raise fail(sea.line, f"the sea {sea.name} ('{code}') touches {len(touching)} province"
                                 f"{'' if len(touching) == 1 else 's'}{' (' + touching[0] + ')' if touching else ''}: "
                                 "a sea must share a side with at least two provinces, or fleets in it could "
                                 "attack no one; draw it against the coasts it borders")


def _check_capitals(declared: list[_Place], fail: _Fail) -> None:
    nations: dict[str, list[_Place]] = {}
    for place in declared:
        if place.nation is not None:
            nations.setdefault(place.nation, []).append(place)
    for nation, provinces in nations.items():
        capitals = [p for p in provinces if p.role == "capital"]
        if not capitals:
            raise fail(provinces[0].line, f"the {nation} have no capital: give exactly one of their provinces "
                                          "the role 'capital'")
        if len(capitals) > 1:
            raise fail(capitals[1].line, f"the {nation} have two capitals, {capitals[0].name} (line "
                                         f"{capitals[0].line}) and {capitals[1].name}: a nation has exactly one "
                                         "capital, make the others 'home'")


def _check_diagonals(
    pairs: list[tuple[int, str, str]],
    places: dict[str, _Place],
    cells: dict[str, tuple[int, int]],
    fail: _Fail,
) -> list[tuple[int, str, str]]:
    seen: dict[frozenset[str], int] = {}
    for number, a, b in pairs:
        for code in (a, b):
            if code not in places:
                raise fail(number, f"'{code}' in the diagonal '{a} {b}' is not a declared code")
            if places[code].role is None:
                raise fail(number, f"'{code}' in the diagonal '{a} {b}' is a sea: diagonals join two provinces")
        (ac, ar), (bc, br) = cells[a], cells[b]
        if abs(ac - bc) != 1 or abs(ar - br) != 1:
            raise fail(number, f"{places[a].name} ({a}, row {ar + 1} column {ac + 1}) and {places[b].name} "
                               f"({b}, row {br + 1} column {bc + 1}) do not touch at a corner: a diagonal joins "
                               "two cells that meet only at a corner")
        key = frozenset((a, b))
        if key in seen:
            raise fail(number, f"the diagonal '{a} {b}' is already listed on line {seen[key]}: list each pair once")
        seen[key] = number
    return pairs
