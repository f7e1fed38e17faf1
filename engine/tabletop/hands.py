"""What a seat holds: money, resources and cards, and what of it everyone sees (counts, a card's public face).

A card drawn face down is sealed to its holder: the bot's ``secret.sealed`` event carries its digest, the private
store its content. ``Held.card`` is the card as this fold knows it: always in the bot's fold (which folds the
private store in), in the export's fold only once revealed (``revealed``) or for a card held face up. ``public``
never reads ``card`` of a sealed card not revealed, so every fold shows the same public holdings.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.events import Rejection

MAX_AMOUNT = 1_000_000  # money or a resource in one order: a bound on every number typed


@dataclass
class Held:
    id: str  # the draw's label ("goods.3"): how orders and views name the card without saying what it is
    deck: str
    face: str  # what everyone sees of it
    seq: int | None = None  # the secret.sealed event; None for a card held face up
    digest: str | None = None
    card: str | None = None  # known to this fold, or None
    revealed: bool = False

    def public(self) -> dict[str, Any]:
        shown = self.card if (self.seq is None or self.revealed) else None
        return {"id": self.id, "deck": self.deck, "face": self.face, **({"card": shown} if shown else {}),
                **({"sealed": self.digest} if self.digest else {})}


@dataclass
class Holding:
    money: int = 0
    resources: dict[str, int] = field(default_factory=dict)
    cards: list[Held] = field(default_factory=list)

    def find(self, card_id: str) -> Held | None:
        return next((h for h in self.cards if h.id == card_id), None)

    def public(self) -> dict[str, Any]:
        faces = Counter(h.face for h in self.cards)
        return {"money": self.money, "resources": {k: v for k, v in sorted(self.resources.items()) if v},
                "cards": len(self.cards), "faces": dict(sorted(faces.items())), "held": [h.public() for h in self.cards]}

    def private(self) -> dict[str, Any]:
        return {**self.public(), "held": [{**h.public(), "card": h.card} for h in self.cards]}


def amount(text: str, what: str) -> int:
    """A typed amount, range-checked: the refusal quotes it and says what is right."""
    if not text.isdigit() or not 0 <= int(text) <= MAX_AMOUNT:
        raise Rejection(f"'{text}' is not an amount of {what}: write a whole number from 0 to {MAX_AMOUNT}")
    return int(text)


def pay(holding: Holding, seat: str, money: int) -> None:
    if money > holding.money:
        raise Rejection(f"{seat} has {holding.money} money, not {money}")
    holding.money -= money


def spend(holding: Holding, seat: str, resource: str, n: int) -> None:
    have = holding.resources.get(resource, 0)
    if n > have:
        raise Rejection(f"{seat} has {have} {resource}, not {n}")
    holding.resources[resource] = have - n


def remove(holding: Holding, seat: str, card_id: str) -> Held:
    held = holding.find(card_id)
    if held is None:
        raise Rejection(f"{seat} holds no card '{card_id}': its cards are {', '.join(h.id for h in holding.cards) or 'none'}")
    holding.cards.remove(held)
    return held


def of_face(holding: Holding, face: str, n: int, skip: tuple[str, ...] = ()) -> list[Held]:
    """``n`` cards of ``face`` (the earliest drawn first): faces are public, so choosing by them tells nothing."""
    found = [h for h in holding.cards if h.face == face and h.id not in skip][:n]
    if len(found) < n:
        raise Rejection(f"{len(found)} card(s) showing '{face}' to give, not {n}")
    return found
