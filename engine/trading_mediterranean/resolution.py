"""Resolution: the cards not warehoused are spent: money by sets, arrows on the tracks, prosperity, poverty,
barbarians and the cards that may not be warehoused; industries' dominance and monopoly; wealth announced and the
turn order reset. Calamities are ``calamity``."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.events import Rejection
from engine.trading_mediterranean import income as inc
from engine.trading_mediterranean import tracks
from engine.trading_mediterranean.rules_data import OPPOSITE, Rules
from engine.trading_mediterranean.state import Civ

BANK_CHOICES = ("poverty", "prosperity")  # the Bank ignores poverty's sad faces, or triples prosperity


@dataclass
class Spent:
    """What a civilization's spent cards add up to."""

    money: int = 0
    arrows: Counter[str] = field(default_factory=Counter)
    vp: int = 0
    happiness: int = 0
    safety: int = 0
    by_good: dict[str, int] = field(default_factory=dict)


def warehousable(rules: Rules, card: str) -> bool:
    return not rules.card(card)[1].no_warehouse


def check_warehouse(rules: Rules, civ: Civ, cards: list[str], faces: dict[str, str]) -> None:
    """Up to 3 cards (5 with the upgrade), none marked MAY NOT WAREHOUSE, and a warehouse cube to store them in.
    ``faces`` names each card by its id for the refusal, so a refusal never says more than its holder knows."""
    room = 0 if not civ.cubes.get("warehouse") else (
        rules.warehouse_upgraded if civ.cubes.get("warehouse_upgrade") else rules.warehouse)
    if len(cards) > room:
        raise Rejection(f"{civ.seat} may warehouse {room} card(s), not {len(cards)}"
                        + ("" if room else ": the warehouse cube is lost"))
    for c in cards:
        if not warehousable(rules, c):
            raise Rejection(f"{faces.get(c, c)} may not be warehoused (its bottom says MAY NOT WAREHOUSE)")


def spend(rules: Rules, cards: list[str], bank: str | None = None) -> Spent:
    """The cards a civilization spends this turn. ``bank``: a Bank owner's choice for the turn."""
    if bank is not None and bank not in BANK_CHOICES:
        raise Rejection(f"the Bank ignores {BANK_CHOICES[0]} or triples {BANK_CHOICES[1]}, not '{bank}'")
    out = Spent(by_good=inc.income(rules, cards))
    out.money = sum(out.by_good.values())
    for card in cards:
        good, b = rules.card(card)
        if b.arrow:
            out.arrows[b.arrow] += 1
        if b.opposite:
            out.arrows[OPPOSITE[rules.favours[good]]] += 1
        out.vp += b.vp * (3 if bank == "prosperity" else 1)
        out.happiness += 0 if (bank == "poverty" and b.name == "poverty") else b.happiness
        out.safety += b.safety
    return out


def resolve(rules: Rules, civ: Civ, cards: list[str], bank: str | None = None) -> list[str]:
    s = spend(rules, cards, bank)
    civ.money += s.money
    civ.vp += s.vp
    tracks.step(rules, civ, "happiness", s.happiness)
    tracks.step(rules, civ, "safety", s.safety)
    said = [f"{civ.seat} earns ${s.money}" + (f" ({', '.join(f'{g} ${m}' for g, m in s.by_good.items())})" if s.by_good else "")]
    return said + tracks.apply_arrows(rules, civ, s.arrows)


def industry_bonuses(rules: Rules, civs: list[Civ], spent: dict[str, Counter[str]]) -> dict[str, tuple[int, str | None]]:
    """For each seat with an industry of a basic good: the only one to spend that good takes the monopoly bonus;
    one who spent the most (ties included) takes the dominance bonus, 2 VP and a step up the industry's track.
    Returns seat -> (vp, track stepped or None) summed over its industries (a seat's steps are listed once each)."""
    out: dict[str, tuple[int, str | None]] = {}
    for civ in civs:
        vp, track = 0, None
        for good, (_name, bonus_track) in rules.industries.items():
            if not civ.cubes.get(f"industry:{good}"):
                continue
            mine = spent.get(civ.seat, Counter())[good]
            if mine == 0:
                continue
            others = [spent.get(o.seat, Counter())[good] for o in civs if o.seat != civ.seat]
            if not any(others):
                vp += rules.monopoly_vp
            elif mine >= max(others):
                vp += rules.dominance_vp
                track = bonus_track
        if vp:
            out[civ.seat] = (vp, track)
    return out


def turn_order(order: list[str], money: dict[str, int]) -> list[str]:
    """Descending wealth; a tie keeps the current order (Python's sort is stable)."""
    return sorted(order, key=lambda seat: -money[seat])
