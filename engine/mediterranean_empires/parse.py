"""Orders in the seed's own words, one per line: the order (orders.py) each line means, or a precise refusal.

    draw                                          (Stratagem Markers Phase)
    attempt alliance with Genoa using the King of France, the Pope and 1 TP
    attempt alliance with Castile ceding Navarre  (optional rule 14.3)
    attempt vassalage on Pisa | foment rebellion in Navarre | pass [forfeiting rebellion]
    recruit 2 levies of France in Vienne | recruit a fleet of Aragon in Balearic Sea | done
    return a levy of France to Vienne             (crusaders coming back, in the Recruitment Phase)
    activate France in Provence County [with 1 military advantage] [without the King]
    activate 2 field armies of France in Provence County
    move to Genoa | attack | embark from Arborea | land in Provence County | raid the coast of Calabria
    drop 1 levy | end | end operations
    redistribute a levy of France from Albi to Vienne | done
    never intercept | always intercept | always avoid combat with fewer than 3 units | clear standing orders
    take losses cheapest first                    (a standing order: losses are not asked)
    place 2 levies of France in Albi | place the King of France in Vienne | standard set-up   (the set-up, 3.1-3.2)
    an answer to a question: intercept, do not intercept, avoid combat, fight, thwart, counterattack, 2, ...
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.mediterranean_empires.orders import (Activate, Answer, Attack, Attempt, CoastalRaid, Done, Draw, Drop,
                                                  Embark, End, EndOperations, Land, Move, Order, Pass, Place, Play,
                                                  Recruit, Redistribute, Return, StandardSetUp, Standing)
from engine.mediterranean_empires.rules_data import UNIT_KINDS, RulesData, kind_word
from engine.names import join_or
from engine.quote import quote

KIND_WORDS = {
    "field army": "field_army", "field armies": "field_army", "army": "field_army", "armies": "field_army",
    "levy": "levy", "levies": "levy", "raider": "raider", "raiders": "raider", "mercenary": "mercenary",
    "mercenaries": "mercenary", "fleet": "fleet", "fleets": "fleet",
}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


class Unclear(ValueError):
    pass


def _area(rules: RulesData, text: str) -> str:
    r = rules.map.index.resolve(text)
    if not r.ok:
        raise Unclear(r.error)
    return str(r.name)


def _power(rules: RulesData, text: str) -> str:
    text = re.sub(r"^(the )", "", text.strip(), flags=re.I)
    r = rules.power_index.resolve(text)
    if not r.ok:
        raise Unclear(r.error)
    return str(r.name)


def _units(text: str) -> tuple[int, str]:
    m = re.fullmatch(r"(\d+|a|an|one|two|three|four|five|six)?\s*(.+?)", text.strip(), flags=re.I)
    if not m:
        raise Unclear(f"'{quote(text)}' is not a unit: write e.g. '2 levies' or 'a field army'")
    count = int(m[1]) if m[1] and m[1].isdigit() else NUMBERS.get((m[1] or "a").lower(), 1)
    word = m[2].lower().strip()
    if word not in KIND_WORDS:
        raise Unclear(f"unknown unit type '{quote(m[2])}': the types are field army, levy, raiders, mercenaries, fleet")
    return count, KIND_WORDS[word]


def _attempt(rules: RulesData, kind: str, target: str, using: str | None) -> Attempt:
    kind = {"diplomacy": "alliance"}.get(kind.lower(), kind.lower())
    power = _power(rules, target) if rules.power_index.resolve(target).ok else _home_power(rules, target)
    king: str | None = None
    pope = tp = False
    cede: str | None = None
    for part in re.split(r",| and ", using or ""):
        p = part.strip().lower()
        if not p:
            continue
        if p.startswith("the king of") or p.startswith("king of"):
            king = _power(rules, p.split("of", 1)[1])
        elif "pope" in p:
            pope = True
        elif re.fullmatch(r"(1|one) tp|a tp|1 treasury point", p):
            tp = True
        elif p.startswith("ceding "):
            cede = _area(rules, part.strip()[len("ceding "):])
        else:
            raise Unclear(f"unknown modifier '{quote(part.strip())}': use 'the King of <power>', 'the Pope', '1 TP' "
                          "or 'ceding <area>'")
    return Attempt(kind, power, king, pope, tp, cede)


def _activate(rules: RulesData, m: re.Match[str]) -> Activate:
    extras = m[4].lower()
    ma = re.search(r"with (\d|one|two|a) military advantage", extras)
    unit = _units(m[1]) if m[1] else None
    return Activate(_power(rules, m[2]), _area(rules, m[3]), unit[0] if unit else None, unit[1] if unit else None,
                    (int(ma[1]) if ma[1].isdigit() else NUMBERS[ma[1]]) if ma else 0, "without the king" not in extras)


def _embark(rules: RulesData, m: re.Match[str]) -> Embark:
    unit = _units(m[1]) if m[1] and m[1].lower() not in ("units", "all") else None
    return Embark(_area(rules, m[2]), unit[0] if unit else None, unit[1] if unit else None)


def _play(rules: RulesData, m: re.Match[str]) -> Play:
    r = rules.marker_index.resolve(m[1])
    if not r.ok:
        raise Unclear(r.error)
    return Play(str(r.name))


def _words(*phrases: str) -> str:
    return "|".join(re.escape(p) for p in phrases)


@dataclass(frozen=True)
class Reader:
    """One form of order line: a pattern matched against the whole line (its lower-case form where ``lower``, so
    that what it captures is lower case), and how the match becomes an order."""

    pattern: re.Pattern[str]
    read: Callable[[RulesData, re.Match[str]], Order]
    lower: bool = False


def _reader(pattern: str, read: Callable[[RulesData, re.Match[str]], Order], *, lower: bool = False) -> Reader:
    return Reader(re.compile(pattern, flags=re.I), read, lower)


# Tried in this order, the first match wins: a line that no pattern takes is an answer to a question.
READERS: tuple[Reader, ...] = (
    _reader(_words("draw", "draw a marker", "draw a stratagem marker", "pick", "pick a marker"),
            lambda r, m: Draw(), lower=True),
    _reader(r"(?:attempt )?(alliance|diplomacy|vassalage|rebellion)(?: attempt)? (?:with|on|against|in) (.+?)"
            r"(?: (?:using |with |(?=ceding ))(.+))?", lambda r, m: _attempt(r, m[1], m[2], m[3])),
    _reader(r"foment (?:a )?rebellion in (.+?)(?: (?:using|with) (.+))?", lambda r, m: _attempt(r, "rebellion", m[1], m[2])),
    _reader(r"pass(?: forfeiting (?:the |my )?(alliance|vassalage|rebellion)(?: attempt)?)?", lambda r, m: Pass(m[1]),
            lower=True),
    _reader(r"recruit (.+?) of (.+?) (?:in|at) (.+)",
            lambda r, m: Recruit(*_units(m[1]), _power(r, m[2]), _area(r, m[3]))),
    _reader(r"return (.+?) of (.+?) (?:to|in|at) (.+)",
            lambda r, m: Return(*_units(m[1]), _power(r, m[2]), _area(r, m[3]))),
    _reader(_words("done", "finished", "no more", "end recruitment", "end redistribution"), lambda r, m: Done(),
            lower=True),
    _reader(r"activate (?:(.+?) of )?(.+?) (?:in|at) (.+?)((?: (?:with|without) [^,]+?)*)", _activate),
    _reader(r"(?:move|go|sail|march) (?:to|into) (.+)", lambda r, m: Move(_area(r, m[1]))),
    _reader(_words("attack", "attack all", "attack the enemy", "give battle"), lambda r, m: Attack(), lower=True),
    _reader(r"(?:embark|pick up)(?: (.+?))? from (.+)", _embark),
    _reader(r"(?:land|unload|debark|disembark)(?: them)? (?:in|at|into) (.+)", lambda r, m: Land(_area(r, m[1]))),
    _reader(r"(?:coastal )?raid (?:the coast of )?(.+)", lambda r, m: CoastalRaid(_area(r, m[1]))),
    _reader(r"drop(?: off)? (.+)", lambda r, m: Drop(*_units(m[1]))),
    _reader(_words("end", "end action", "end this action", "stop"), lambda r, m: End(), lower=True),
    _reader(_words("end operations", "end my operations", "end phase", "end operations phase"),
            lambda r, m: EndOperations(), lower=True),
    _reader(r"redistribute (.+?) of (.+?) from (.+?) to (.+)",
            lambda r, m: Redistribute(*_units(m[1]), _power(r, m[2]), _area(r, m[3]), _area(r, m[4]))),
    _reader(r"(never intercept|always intercept|clear standing orders|always avoid combat(?: with fewer than (\d+) units)?)",
            lambda r, m: Standing(m[1]), lower=True),
    _reader(r"(?:always )?take (?:my )?losses cheapest first", lambda r, m: Standing("take losses cheapest first"),
            lower=True),
    _reader(r"play (?:the )?(.+?)(?: marker)?", _play),
    _reader(r"place (?:the )?king of (.+?) (?:in|at) (.+)", lambda r, m: Place(1, "king", _power(r, m[1]), _area(r, m[2]))),
    _reader(r"place (.+?) of (.+?) (?:in|at) (.+)", lambda r, m: Place(*_units(m[1]), _power(r, m[2]), _area(r, m[3]))),
    _reader(r"(?:the )?standard set[- ]?up", lambda r, m: StandardSetUp(), lower=True),
)


def read_line(rules: RulesData, line: str) -> Order:
    """One order line -> its order; raises Unclear with what was wrong and what would be right."""
    text = " ".join(line.strip().rstrip(".").split())
    low = text.lower()
    if not low:
        raise Unclear("empty line")
    for reader in READERS:
        m = reader.pattern.fullmatch(low if reader.lower else text)
        if m:
            return reader.read(rules, m)
    return Answer(low)


def _home_power(rules: RulesData, text: str) -> str:
    r = rules.map.index.resolve(text)
    if r.ok:
        for p in rules.powers.values():
            if r.name in p.home:
                return p.name
        raise Unclear(f"{r.name} is nobody's home area: name the power (e.g. {join_or(list(rules.powers)[3:6])})")
    raise Unclear(rules.power_index.resolve(text).error or f"unknown power '{quote(text)}'")


assert set(KIND_WORDS.values()) == set(UNIT_KINDS)
