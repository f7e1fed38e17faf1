"""Reading order lines: a table of readers (pattern -> order), names resolved with their aliases, and a refusal
that quotes the line and says what would be right."""
from __future__ import annotations

import re
from collections.abc import Callable

from engine.events import Rejection
from engine.mare_nostrum_empires import legendary
from engine.mare_nostrum_empires import orders as o
from engine.mare_nostrum_empires.rules_data import BUILDINGS, RulesData
from engine.names import NameIndex
from engine.quote import quote

HELP = ("the orders are: token <I|II|III> <face>; offer <token>, <token>...; take <token> from <empire>; "
        "give <token>; next <empire>; buy <item> [in <place>] with taxes | with <good>, <good>...; swap <good> for "
        "<good>; done; "
        "sail <sea> to <sea> [attack <empire>]; march [<n>] <province> to <province>; pillage <building> in "
        "<province> [take tax|legendary]; occupy <building>, <building> in <province>; stand <province>; "
        "convert <province>; extra <province> tax|legendary; name <empire> <title>")


class Names:
    """The vocabularies a line may name: areas (provinces and seas, with aliases), empires, tiles, resources."""

    def __init__(self, rules: RulesData) -> None:
        self.rules = rules
        self.area = rules.map.index
        self.empire = NameIndex({e: (e.rstrip("s"),) for e in rules.empires}, "empire")
        self.tile = NameIndex({t: () for t in rules.tiles}, "Hero or Wonder")

    def one(self, index: NameIndex, text: str) -> str:
        found = index.resolve(text)
        if found.name is None:
            raise Rejection(found.error or f"unknown {index.kind} '{quote(text)}'")
        return found.name

    def province(self, text: str) -> str:
        name = self.one(self.area, text)
        if name not in self.rules.provinces:
            raise Rejection(f"{name} is a sea: name a province")
        return name

    def sea(self, text: str) -> str:
        name = self.one(self.area, text)
        if name not in self.rules.map.seas:
            raise Rejection(f"{name} is a province: name a sea")
        return name

    def token(self, text: str) -> str:
        """A commerce token: a resource, "tax", "legendary <resource>" or a legendary good's card ("legendary.3")."""
        word = " ".join(text.casefold().split())
        if word in ("tax", "taxes"):
            return "tax"
        if legendary.is_card(word):
            return word
        plain = word.removeprefix("legendary ")
        if plain not in self.rules.resources:
            raise Rejection(f"'{quote(text.strip())}' is not a token: a resource ({', '.join(self.rules.resources)}), 'tax' "
                            f"or 'legendary <resource>'")
        return word if word.startswith("legendary ") else plain

    def good(self, text: str) -> str:
        """A plain good: a resource (a tax or a legendary good is not one)."""
        word = " ".join(text.casefold().split())
        if word not in self.rules.resources:
            raise Rejection(f"'{quote(text.strip())}' is not a good: one of {', '.join(self.rules.resources)}")
        return word

    def item(self, text: str) -> str:
        word = " ".join(text.casefold().split())
        if word in self.rules.prices:
            return word
        if word in ("legendary city", "pyramid"):
            return {"legendary city": "legendary", "pyramid": "pyramids"}[word]
        found = self.tile.resolve(text)
        if found.name is None:
            raise Rejection(f"'{quote(text)}' cannot be bought: {', '.join(self.rules.prices)}, or a Hero or Wonder "
                            f"of the row")
        return found.name


def _list(text: str) -> list[str]:
    return [w for w in re.split(r"\s*,\s*|\s+and\s+", text.strip()) if w]


def _buy(n: Names, m: re.Match[str]) -> o.Order:
    item = n.item(m["item"])
    place = m["place"]
    where = None
    if place:
        where = n.sea(place) if item == "trireme" else n.province(place)
    pay = m["pay"].strip()
    if pay.casefold() in ("tax", "taxes"):
        return o.Buy(item, where, True)
    return o.Buy(item, where, False, tuple(n.token(t) for t in _list(pay)))


def _int(text: str, what: str, low: int, high: int) -> int:
    value = int(text)
    if not low <= value <= high:
        raise Rejection(f"{what} is {low} to {high}, not {value}")
    return value


Reader = tuple[re.Pattern[str], Callable[[Names, re.Match[str]], o.Order]]
READERS: tuple[Reader, ...] = tuple((re.compile(p, re.IGNORECASE), f) for p, f in (
    (r"^extra\s+(?P<p>.+?)\s+(?P<c>tax|legendary)$", lambda n, m: o.Extra(n.province(m["p"]), m["c"].casefold())),
    (r"^token\s+(?P<t>i{1,3})\s+(?P<f>\d{1,2})$", lambda n, m: o.ChooseToken(m["t"].upper(), _int(m["f"], "a face", 1, 12))),
    (r"^take\s+(?P<t>.+?)\s+from\s+(?P<e>.+)$", lambda n, m: o.Take(n.token(m["t"]), n.one(n.empire, m["e"]))),
    (r"^give\s+(?P<t>.+)$", lambda n, m: o.Give(n.token(m["t"]))),
    (r"^next\s+(?P<e>.+)$", lambda n, m: o.Next(n.one(n.empire, m["e"]))),
    (r"^buy\s+(?P<item>.+?)(?:\s+in\s+(?P<place>.+?))?\s+with\s+(?P<pay>.+)$", _buy),
    (r"^swap\s+(?P<g>.+?)\s+for\s+(?P<f>.+)$", lambda n, m: o.Swap(n.good(m["g"]), n.good(m["f"]))),
    (r"^(?:done|pass|end)$", lambda n, m: o.Done()),
    (r"^sail\s+(?P<s>.+?)\s+to\s+(?P<t>.+?)(?:\s+attack\s+(?P<e>.+))?$",
     lambda n, m: o.Sail(n.sea(m["s"]), n.sea(m["t"]), n.one(n.empire, m["e"]) if m["e"] else None)),
    (r"^march\s+(?:(?P<k>\d{1,2})\s+)?(?P<p>.+?)\s+to\s+(?P<t>.+)$",
     lambda n, m: o.March(n.province(m["p"]), n.province(m["t"]), _int(m["k"] or "1", "a number of legions", 1, 20))),
    (r"^pillage\s+(?P<b>\w+)\s+in\s+(?P<p>.+?)(?:\s+take\s+(?P<c>tax|legendary))?$",
     lambda n, m: o.Pillage(_pillaged(m["b"]), n.province(m["p"]), m["c"].casefold() if m["c"] else None)),
    (r"^occupy\s+(?P<b>.+?)\s+in\s+(?P<p>.+)$",
     lambda n, m: o.Occupy(tuple(_building(b) for b in _list(m["b"])), n.province(m["p"]))),
    (r"^stand\s+(?:on\s+)?(?P<p>.+)$", lambda n, m: o.Stand(n.province(m["p"]))),
    (r"^convert\s+(?P<p>.+)$", lambda n, m: o.Convert(n.province(m["p"]))),
    (r"^name\s+(?P<e>.+?)\s+(?P<t>commerce|politics|military)$",
     lambda n, m: o.Name(n.one(n.empire, m["e"]), m["t"].casefold())),
))


def _building(word: str) -> str:
    b = word.casefold().removesuffix("s") if word.casefold() != "fortress" else "fortress"
    if b not in BUILDINGS:
        raise Rejection(f"'{quote(word)}' is not a building: {', '.join(BUILDINGS)}")
    return b


def _pillaged(word: str) -> str:
    """A building, or an enemy fortress (rules version 3: the handler refuses it in older campaigns)."""
    return "fortress" if word.casefold() in ("fortress", "fortresses") else _building(word)


def read_line(names: Names, line: str) -> o.Order:
    text = " ".join(line.split())
    for pattern, build in READERS:
        match = pattern.match(text)
        if match:
            return build(names, match)
    raise Rejection(f"'{quote(text)}' is not understood: {HELP}")


