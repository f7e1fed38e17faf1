"""Production: a card per production cube (a farm its basic good, a city a civic card, a harbour a luxury card),
and the diversity of cities: civic cards are dealt from the bottom (their type is on the front), never more than a
pair of one type to a player in a turn; a third is put on top of the deck and replaced (Waldorf's example)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.tabletop import decks as dk
from engine.trading_mediterranean.rules_data import Rules
from engine.trading_mediterranean.state import Civ

MAX_OF_A_TYPE = 2


def owed(rules: Rules, civ: Civ) -> dict[str, int]:
    """The cards a civilization is dealt this turn, by deck (a basic good's deck, 'civic', 'luxury')."""
    out = {good: civ.cubes.get(f"farm:{good}", 0) for good in rules.goods["basic"]}
    out["civic"] = civ.cubes.get("city", 0)
    out["luxury"] = civ.cubes.get("harbour", 0)
    return {deck: n for deck, n in out.items() if n}


def keeps(dealt: Counter[str], face: str) -> bool:
    """A civic card of type ``face`` may be kept by a player already dealt ``dealt`` this turn."""
    return dealt[face] < MAX_OF_A_TYPE


def put_on_top(deck: dk.Deck, card: str | None) -> None:
    """A card dealt and refused goes back on top of the draw pile (``card`` None: this fold does not know the
    order, it keeps the size)."""
    deck.size += 1
    if deck.pile is not None and card is not None:
        deck.pile.insert(0, card)


@dataclass
class CivicDeal:
    kept: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)  # refused thirds, in the order they went on top
    short: int = 0  # cards still owed when no legal card was left (the deck must be reshuffled, or none exists)


def deal_civic(deck: dk.Deck, n: int, face_of: Callable[[str], str]) -> CivicDeal:
    """Deal ``n`` civic cards from the bottom of a deck whose order this fold knows, refusing any third of a type.
    Stops short when the pile is empty or holds no card the player may keep (each was refused once since the last
    card kept: another pass would refuse them again)."""
    deal = CivicDeal()
    dealt: Counter[str] = Counter()
    refused_in_a_row = 0
    while len(deal.kept) < n:
        if deck.size == 0 or refused_in_a_row >= deck.size:
            deal.short = n - len(deal.kept)
            break
        card = dk.take(deck, dk.BOTTOM)
        if card is None:
            raise ValueError("deal_civic needs a fold that knows the deck's order")
        face = face_of(card)
        if keeps(dealt, face):
            dealt[face] += 1
            deal.kept.append(card)
            refused_in_a_row = 0
        else:
            put_on_top(deck, card)
            deal.returned.append(card)
            refused_in_a_row += 1
    return deal


def luxury_reshuffle_due(rules: Rules, spent: list[str]) -> bool:
    """The luxury deck is reshuffled at the end of any turn in which Piracy was played."""
    return any(rules.card(c)[1].worthless for c in spent)
