"""The Heroes' and Wonders' abilities played: one small function per place a phase reads a number or a rule the
tiles change (a price, the taxes kept, an offer's size, a yield, a reach, a battle's sides, a tie). Each asks which
abilities an empire holds through ``held``, which gives none to a campaign created before abilities were played
(rules_version 1), so its log folds as it did. The effects and their data are in ability_data.py; the readings of
the ambiguous texts are in docs/rules/mare-nostrum-empires.md, "Heroes and Wonders"."""
from __future__ import annotations

from dataclasses import dataclass

from engine.mare_nostrum_empires.ability_data import Ability
from engine.mare_nostrum_empires.rules_data import RulesData
from engine.mare_nostrum_empires.rules_version import ABILITIES
from engine.mare_nostrum_empires.state import Board

FORTRESS_POINTS = 5


def held(rules: RulesData, board: Board, empire: str, effect: str, item: str | None = None) -> list[Ability]:
    """The abilities of ``effect`` (bearing on ``item``, when it takes one) among the tiles ``empire`` holds."""
    if board.rules_version < ABILITIES or empire not in board.screens:
        return []
    out = []
    for name in board.screens[empire].tiles:
        ability = rules.tiles[name].ability if name in rules.tiles else None
        if ability is not None and ability.effect == effect and (item is None or ability.item == item):
            out.append(ability)
    return out


def has(rules: RulesData, board: Board, empire: str, effect: str, item: str | None = None) -> bool:
    return bool(held(rules, board, empire, effect, item))


def _most(rules: RulesData, board: Board, empire: str, effect: str, item: str | None = None) -> int:
    """The largest amount among the tiles held (two tiles of one effect do not add up: the better one acts)."""
    return max((a.amount for a in held(rules, board, empire, effect, item)), default=0)


# --- Purchase --------------------------------------------------------------------------------------------------

def price(rules: RulesData, board: Board, empire: str, item: str, base: int) -> int:
    cheaper = [a.amount for a in held(rules, board, empire, "price", item)]
    return min([base, *cheaper])


def keep_taxes(rules: RulesData, board: Board, empire: str, base: int) -> int:
    return max(base, _most(rules, board, empire, "keep_taxes"))


def trireme_seas(rules: RulesData, board: Board, empire: str) -> list[str]:
    """The seas where the Lighthouse lets ``empire`` place a trireme beyond the seas touching its provinces: every
    sea touching a province that touches a sea holding one of its triremes."""
    if not has(rules, board, empire, "trireme_placement"):
        return []
    chain = [s for s, fleets in board.triremes.items() if fleets.get(empire, 0)]
    coast = {p for s in chain for p in rules.map.seas[s].coast if p in board.provinces}
    return sorted({s for s in rules.map.seas if any(p in coast for p in rules.map.seas[s].coast)})


# --- Commerce --------------------------------------------------------------------------------------------------

def smallest_offer(rules: RulesData, board: Board, empire: str, count: int) -> int:
    """The fewest tokens ``empire`` may put forward (and still take part) when the face asks ``count``."""
    return max(1, count - _most(rules, board, empire, "offer_fewer")) if count else count


# --- Production ------------------------------------------------------------------------------------------------

def goods_doubled(rules: RulesData, board: Board, empire: str, market: bool, temple: bool) -> bool:
    """A caravan's goods are doubled by its controller's market, or with Hammurabi by its temple (once: a market and
    a temple together still double, they do not quadruple)."""
    return market or (temple and has(rules, board, empire, "temple_doubles_goods"))


def good_bonus(rules: RulesData, board: Board, empire: str, resource: str) -> int:
    return _most(rules, board, empire, "good_bonus", resource)


def tax_bonus(rules: RulesData, board: Board, empire: str) -> int:
    return _most(rules, board, empire, "tax_bonus")


# --- Military --------------------------------------------------------------------------------------------------

def legion_range(rules: RulesData, board: Board, empire: str) -> int:
    return max(1, _most(rules, board, empire, "legion_range"))


def trireme_range(rules: RulesData, board: Board, empire: str) -> int:
    return max(1, _most(rules, board, empire, "trireme_range"))


def extra_dice(rules: RulesData, board: Board, empire: str, at_sea: bool, defending: bool) -> int:
    return _most(rules, board, empire, "defence_dice") if at_sea and defending else 0


@dataclass(frozen=True)
class Side:
    """One side of a battle as the throw reads it: its units, its dice, points added to its sum, hits against it
    cancelled, and why (the words of the battle's report)."""

    units: int
    dice: list[int]
    points: int = 0
    cancels: int = 0
    why: tuple[str, ...] = ()


def side(rules: RulesData, board: Board, empire: str, place: str, units: int, dice: list[int], attacking: bool,
         by_sea: bool = False) -> Side:
    """What a fortress and the tiles of ``empire`` add to its side of the battle in ``place``."""
    points, cancels, why = 0, 0, []
    prov = board.provinces.get(place)
    if prov is not None:
        if prov.fortress == empire:
            fortress = max(FORTRESS_POINTS, _most(rules, board, empire, "fortress_points"))
            points, cancels = points + fortress, cancels + 1
            why.append(f"fortress: +{fortress}, one hit cancelled")
        if attacking and (bonus := _most(rules, board, empire, "attack_bonus")):
            points += bonus
            why.append(f"attacking: +{bonus}")
        if attacking and by_sea and (bonus := _most(rules, board, empire, "landing_bonus")):
            points += bonus
            why.append(f"from the trireme chain: +{bonus}")
        if not attacking and units == 1 and (more := _most(rules, board, empire, "lone_defender_cancels")):
            cancels += more
            why.append(f"one legion defending: {more} more hit cancelled")
        capital = rules.empires[empire].capital_province if empire in rules.empires else None
        if place == capital and (more := _most(rules, board, empire, "capital_cancels")):
            cancels += more
            why.append(f"in its capital: {more} more hit cancelled")
    elif not attacking and len(dice) > units:
        why.append(f"{len(dice) - units} more die defending")
    return Side(units, dice, points, cancels, tuple(why))


# --- Claims ----------------------------------------------------------------------------------------------------

def tie_winner(rules: RulesData, board: Board, tied: list[str]) -> str | None:
    """The one tied empire whose tile wins ties (Homer); None when no one, or more than one, holds such a tile."""
    winning = [e for e in tied if has(rules, board, e, "wins_ties")]
    return winning[0] if len(winning) == 1 else None


def tie_chooser(rules: RulesData, board: Board, title: str) -> str:
    """Who names the successor in a tie: the holder of a tile naming it (the Oracle), else the previous leader."""
    naming = [e for e in board.empires if has(rules, board, e, "names_tie", title)]
    return naming[0] if len(naming) == 1 else board.leaders[title]
