"""What the seed lets a player choose and version 1 chose for them (engine/trading_mediterranean/rules_version.py):
a calamity victim's losses and a Bank's use. Each is asked as a prompt with a deadline; its default at the deadline
is the fixed choice of version 1, so a player who does not answer loses nothing to the new rule."""
from __future__ import annotations

from collections import Counter
from engine.events import Rejection
from engine.trading_mediterranean.rules_data import Calamity, Rules
from engine.trading_mediterranean.state import Civ

# The cubes a calamity takes by default, in this order: the least useful first, the warehouse last (version 1's
# fixed order, the default at the deadline from version 2).
CUBE_ORDER = ("available", "harbour", "city", "culture", "army", "colosseum", "bank", "warehouse_upgrade")
BANK_USES = {"prosperity": "triple prosperity", "poverty": "ignore poverty"}


def default_losses(civ: Civ, calamity: Calamity) -> tuple[list[str], list[str]]:
    """Version 1's fixed losses: cubes in ``CUBE_ORDER``, then farms and industries, the warehouse last; the most
    recent buildings first."""
    places = [p for p in CUBE_ORDER for _ in range(civ.cubes.get(p, 0))]
    places += sorted(p for p in civ.cubes for _ in range(civ.cubes[p]) if p.startswith(("farm:", "industry")))
    places += ["warehouse"] * civ.cubes.get("warehouse", 0)
    return places[:min(calamity.cubes, civ.population())], list(reversed(civ.buildings))[:calamity.buildings]


def has_choice(civ: Civ, calamity: Calamity) -> bool:
    """Whether the victim has more than one way to take the losses (else they are taken at once)."""
    cubes = 0 < calamity.cubes < civ.population() and len([p for p, n in civ.cubes.items() if n]) > 1
    return cubes or 0 < calamity.buildings < len(civ.buildings)


def losses_line(cubes: list[str], buildings: list[str]) -> str:
    return "lose " + ", ".join([*cubes, *buildings])


def losses_asked(calamity: Calamity, civ: Civ) -> str:
    cubes, buildings = default_losses(civ, calamity)
    what = [f"{len(cubes)} population cube(s)"] * bool(cubes) + [f"{len(buildings)} building(s)"] * bool(buildings)
    return (f"{calamity.name} strikes {civ.seat}: {civ.seat} names {' and '.join(what)} to lose, "
            f"'lose <places and buildings>' (its cubes: {', '.join(f'{p} {n}' for p, n in sorted(civ.cubes.items()) if n)}"
            + (f"; its buildings: {', '.join(civ.buildings)}" if civ.buildings else "")
            + f"); at the deadline: '{losses_line(cubes, buildings)}'")


def read_losses(rules: Rules, civ: Civ, text: str) -> tuple[list[str], list[str]]:
    """'city, grain farm, Forum' -> (cubes by place, buildings); a place is its cube's key ('farm:grain') or words
    ('grain farm', 'farm grain', 'salt industry'). Refused, quoting the item, when it is neither."""
    cubes: list[str] = []
    buildings: list[str] = []
    places = {p for p in civ.cubes} | set(CUBE_ORDER) | {"warehouse", "industry"}
    for raw in text.split(","):
        item = " ".join(raw.split()).lower()
        if not item:
            continue
        place = _place(item, rules)
        if place in places or place.startswith(("farm:", "industry:")):
            cubes.append(place)
            continue
        named = next((b for b in civ.buildings if b.lower() == item), None)
        if named is None:
            raise Rejection(f"'{raw.strip()}' is neither a place of {civ.seat}'s cubes "
                            f"({', '.join(sorted(p for p, n in civ.cubes.items() if n))}) nor one of its buildings "
                            f"({', '.join(civ.buildings) or 'none'})")
        buildings.append(named)
    if not cubes and not buildings:
        raise Rejection("name the cubes and buildings to lose, e.g. 'lose city, grain farm'")
    return cubes, buildings


def _place(item: str, rules: Rules) -> str:
    words = item.replace(":", " ").split()
    if len(words) == 2 and words[0] in ("farm", "industry") and words[1] in rules.goods["basic"]:
        return f"{words[0]}:{words[1]}"
    if len(words) == 2 and words[1] in ("farm", "industry") and words[0] in rules.goods["basic"]:
        return f"{words[1]}:{words[0]}"
    return item.replace(" ", "_") if item == "warehouse upgrade" else item


def bank_question(rules: Rules, civ: Civ, cards: list[str]) -> bool:
    """Whether a Bank's owner has a choice this turn: a prosperity and a poverty card among those spent (with one
    of them only, the use that helps is the only sensible one and is taken at once)."""
    names = Counter(rules.card(c)[1].name for c in cards)
    return bool(civ.cubes.get("bank")) and names["prosperity"] > 0 and names["poverty"] > 0


def default_bank(rules: Rules, cards: list[str]) -> str:
    """Version 1's fixed use: triple prosperity if a prosperity card is spent, else ignore poverty."""
    return "prosperity" if any(rules.card(c)[1].name == "prosperity" for c in cards) else "poverty"

