"""Orders in the seed's own words, one per line: what each line means, or a precise refusal.

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
    an answer to a question: intercept, do not intercept, avoid combat, fight, thwart, counterattack, 2, ...
"""
from __future__ import annotations

import re
from typing import Any

from engine.mediterranean_empires.rules_data import UNIT_KINDS, RulesData
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


def read_line(rules: RulesData, line: str) -> dict[str, Any]:
    """One order line -> {'order': ..., ...}; raises Unclear with what was wrong and what would be right."""
    text = " ".join(line.strip().rstrip(".").split())
    low = text.lower()
    if not low:
        raise Unclear("empty line")
    if low in ("draw", "draw a marker", "draw a stratagem marker", "pick", "pick a marker"):
        return {"order": "draw"}
    m = re.fullmatch(r"(?:attempt )?(alliance|diplomacy|vassalage|rebellion)(?: attempt)? (?:with|on|against|in) (.+?)"
                     r"(?: (?:using |with |(?=ceding ))(.+))?", text, flags=re.I)
    if not m:
        m2 = re.fullmatch(r"foment (?:a )?rebellion in (.+?)(?: (?:using|with) (.+))?", text, flags=re.I)
        if m2:
            m = re.fullmatch(r"(rebellion) (.+?)(?: using (.+))?", f"rebellion {m2[1]}" + (f" using {m2[2]}" if m2[2] else ""), flags=re.I)
    if m:
        kind = {"diplomacy": "alliance"}.get(m[1].lower(), m[1].lower())
        target = m[2]
        power = _power(rules, target) if rules.power_index.resolve(target).ok else _home_power(rules, target)
        mods: dict[str, Any] = {"king": None, "pope": False, "tp": False}
        for part in re.split(r",| and ", m[3] or ""):
            p = part.strip().lower()
            if not p:
                continue
            if p.startswith("the king of") or p.startswith("king of"):
                mods["king"] = _power(rules, p.split("of", 1)[1])
            elif "pope" in p:
                mods["pope"] = True
            elif re.fullmatch(r"(1|one) tp|a tp|1 treasury point", p):
                mods["tp"] = True
            elif p.startswith("ceding "):
                mods["cede"] = _area(rules, part.strip()[len("ceding "):])
            else:
                raise Unclear(f"unknown modifier '{quote(part.strip())}': use 'the King of <power>', 'the Pope', '1 TP' "
                              "or 'ceding <area>'")
        return {"order": "attempt", "kind": kind, "power": power, **mods}
    m = re.fullmatch(r"pass(?: forfeiting (?:the |my )?(alliance|vassalage|rebellion)(?: attempt)?)?", low)
    if m:
        return {"order": "pass", "forfeit": m[1]}
    m = re.fullmatch(r"recruit (.+?) of (.+?) (?:in|at) (.+)", text, flags=re.I)
    if m:
        count, kind = _units(m[1])
        return {"order": "recruit", "count": count, "kind": kind, "power": _power(rules, m[2]), "area": _area(rules, m[3])}
    m = re.fullmatch(r"return (.+?) of (.+?) (?:to|in|at) (.+)", text, flags=re.I)
    if m:
        count, kind = _units(m[1])
        return {"order": "return", "count": count, "kind": kind, "power": _power(rules, m[2]), "area": _area(rules, m[3])}
    if low in ("done", "finished", "no more", "end recruitment", "end redistribution"):
        return {"order": "done"}
    m = re.fullmatch(r"activate (?:(.+?) of )?(.+?) (?:in|at) (.+?)((?: (?:with|without) [^,]+?)*)", text, flags=re.I)
    if m:
        extras = m[4].lower()
        ma = re.search(r"with (\d|one|two|a) military advantage", extras)
        unit = _units(m[1]) if m[1] else None
        return {"order": "activate", "power": _power(rules, m[2]), "area": _area(rules, m[3]),
                "count": unit[0] if unit else None, "kind": unit[1] if unit else None,
                "markers": (int(ma[1]) if ma[1].isdigit() else NUMBERS[ma[1]]) if ma else 0,
                "king": "without the king" not in extras}
    m = re.fullmatch(r"(?:move|go|sail|march) (?:to|into) (.+)", text, flags=re.I)
    if m:
        return {"order": "move", "to": _area(rules, m[1])}
    if low in ("attack", "attack all", "attack the enemy", "give battle"):
        return {"order": "attack"}
    m = re.fullmatch(r"(?:embark|pick up)(?: (.+?))? from (.+)", text, flags=re.I)
    if m:
        unit = _units(m[1]) if m[1] and m[1].lower() not in ("units", "all") else None
        return {"order": "embark", "from": _area(rules, m[2]), "count": unit[0] if unit else None,
                "kind": unit[1] if unit else None}
    m = re.fullmatch(r"(?:land|unload|debark|disembark)(?: them)? (?:in|at|into) (.+)", text, flags=re.I)
    if m:
        return {"order": "land", "in": _area(rules, m[1])}
    m = re.fullmatch(r"(?:coastal )?raid (?:the coast of )?(.+)", text, flags=re.I)
    if m:
        return {"order": "coastal raid", "in": _area(rules, m[1])}
    m = re.fullmatch(r"drop(?: off)? (.+)", text, flags=re.I)
    if m:
        count, kind = _units(m[1])
        return {"order": "drop", "count": count, "kind": kind}
    if low in ("end", "end action", "end this action", "stop"):
        return {"order": "end"}
    if low in ("end operations", "end my operations", "end phase", "end operations phase"):
        return {"order": "end operations"}
    m = re.fullmatch(r"redistribute (.+?) of (.+?) from (.+?) to (.+)", text, flags=re.I)
    if m:
        count, kind = _units(m[1])
        return {"order": "redistribute", "count": count, "kind": kind, "power": _power(rules, m[2]),
                "from": _area(rules, m[3]), "to": _area(rules, m[4])}
    m = re.fullmatch(r"(never intercept|always intercept|clear standing orders|always avoid combat(?: with fewer than (\d+) units)?)", low)
    if m:
        return {"order": "standing", "rule": m[1]}
    if re.fullmatch(r"(?:always )?take (?:my )?losses cheapest first", low):
        return {"order": "standing", "rule": "take losses cheapest first"}
    m = re.fullmatch(r"play (?:the )?(.+?)(?: marker)?", text, flags=re.I)
    if m:
        r = rules.marker_index.resolve(m[1])
        if not r.ok:
            raise Unclear(r.error)
        return {"order": "play", "marker": r.name}
    return {"order": "answer", "answer": low}


def _home_power(rules: RulesData, text: str) -> str:
    r = rules.map.index.resolve(text)
    if r.ok:
        for p in rules.powers.values():
            if r.name in p.home:
                return p.name
        raise Unclear(f"{r.name} is nobody's home area: name the power (e.g. {join_or(list(rules.powers)[3:6])})")
    raise Unclear(rules.power_index.resolve(text).error or f"unknown power '{quote(text)}'")


def kind_word(kind: str) -> str:
    return kind.replace("_", " ")


assert set(KIND_WORDS.values()) == set(UNIT_KINDS)
