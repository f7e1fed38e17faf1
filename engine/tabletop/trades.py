"""Trades: a seat offers another seat (or everyone) a bundle for a bundle; the other accepts, declines or counters,
the offerer may withdraw. An accepted trade is one event, checked against both holdings and applied to both at once.

A bundle is money, resources, cards named by their id (``hands.Held.id``: it says nothing of a face-down card) and
cards asked for by their public face (the giver picks which when it accepts), and free text: promises the game
does not enforce. An offer's hidden part (a promise meant for the other party alone) is sealed
(``Proposal.secret``): its digest in the log, its content in the private store, shown to the two parties only
(``Offer.hidden``) and revealed at the game's end.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Rejection
from engine.tabletop import hands

EVERYONE = "everyone"
OPEN, ACCEPTED, DECLINED, WITHDRAWN, COUNTERED, LAPSED = "open", "accepted", "declined", "withdrawn", "countered", "lapsed"
MAX_OPEN = 50  # open offers of one seat at once: a bound on what one player can make every view carry


@dataclass
class Bundle:
    money: int = 0
    resources: dict[str, int] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)  # card ids the giver names
    faces: dict[str, int] = field(default_factory=dict)  # cards asked for by face: the giver picks them
    text: str = ""  # a public promise, not enforced

    def empty(self) -> bool:
        return not (self.money or any(self.resources.values()) or self.cards or any(self.faces.values()) or self.text)

    def to_dict(self) -> dict[str, Any]:
        return {"money": self.money, "resources": dict(self.resources), "cards": list(self.cards),
                "faces": dict(self.faces), "text": self.text}

    def words(self) -> str:
        parts = ([f"{self.money} money"] if self.money else []) + [f"{n} {r}" for r, n in self.resources.items() if n]
        parts += [f"card {c}" for c in self.cards] + [f"{n} {f} card(s)" for f, n in self.faces.items() if n]
        parts += [f"“{self.text}”"] if self.text else []
        return ", ".join(parts) or "nothing"


def bundle_from(data: Any) -> Bundle:
    """A bundle from an event's data, range-checked: a refusal says what was wrong."""
    if not isinstance(data, dict):
        raise Rejection(f"a bundle is a table (money, resources, cards, faces, text), not {data!r}")
    money = data.get("money", 0)
    if not isinstance(money, int) or isinstance(money, bool) or not 0 <= money <= hands.MAX_AMOUNT:
        raise Rejection(f"money in a bundle is a whole number from 0 to {hands.MAX_AMOUNT}, not {money!r}")
    counts: dict[str, dict[str, int]] = {}
    for part in ("resources", "faces"):
        raw = data.get(part) or {}
        if not isinstance(raw, dict) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                and 0 <= n <= hands.MAX_AMOUNT for n in raw.values()):
            raise Rejection(f"{part} in a bundle are counts from 0 to {hands.MAX_AMOUNT}, not {raw!r}")
        counts[part] = {str(k): n for k, n in raw.items()}
    cards = data.get("cards") or []
    if not isinstance(cards, list) or len(set(map(str, cards))) != len(cards):
        raise Rejection(f"cards in a bundle are distinct card ids, not {cards!r}")
    text = data.get("text", "")
    if not isinstance(text, str) or len(text) > 500:
        raise Rejection("a promise is text of at most 500 characters")
    return Bundle(money, counts["resources"], [str(c) for c in cards], counts["faces"], text)


@dataclass
class Offer:
    id: int
    seq: int
    by: str
    to: str  # a seat, or EVERYONE
    give: Bundle
    get: Bundle
    status: str = OPEN
    sealed: str | None = None  # digest of the hidden part
    hidden: dict[str, Any] | None = None  # the hidden part, as this fold knows it (the bot's fold; all at the end)
    counters: int | None = None  # the offer this one answers
    taker: str | None = None

    def parties(self) -> tuple[str, ...]:
        return (self.by,) if self.to == EVERYONE and self.taker is None else (self.by, self.taker or self.to)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "seq": self.seq, "by": self.by, "to": self.to, "give": self.give.to_dict(),
                "get": self.get.to_dict(), "status": self.status, "counters": self.counters, "taker": self.taker,
                **({"sealed": self.sealed} if self.sealed else {})}

    def words(self) -> str:
        return f"offer {self.id}: {self.by} gives {self.give.words()} to {self.to} for {self.get.words()}"


@dataclass
class Market:
    offers: list[Offer] = field(default_factory=list)

    def find(self, offer_id: Any) -> Offer:
        offer = next((o for o in self.offers if o.id == offer_id), None)
        if offer is None:
            known = ", ".join(str(o.id) for o in self.offers if o.status == OPEN) or "none"
            raise Rejection(f"there is no offer {offer_id!r}: the open offers are {known}")
        return offer

    def open(self) -> list[Offer]:
        return [o for o in self.offers if o.status == OPEN]


def offer(market: Market, seq: int, by: str, to: str, give: Bundle, get: Bundle, seats: list[str],
          sealed: str | None = None, hidden: dict[str, Any] | None = None, counters: int | None = None) -> Offer:
    if to != EVERYONE and to not in seats:
        raise Rejection(f"'{to}' is not a seat: offer to one of {', '.join(seats)} or to everyone")
    if to == by:
        raise Rejection("a seat cannot trade with itself")
    if give.empty() and get.empty():
        raise Rejection("an offer gives or asks for something")
    if give.faces:
        raise Rejection("what you give is named card by card (its id), never by face: you know your own cards")
    if sum(1 for o in market.open() if o.by == by) >= MAX_OPEN:
        raise Rejection(f"{by} has {MAX_OPEN} open offers: withdraw one first")
    made = Offer(len(market.offers) + 1, seq, by, to, give, get, OPEN, sealed, hidden, counters)
    market.offers.append(made)
    return made


def withdraw(market: Market, offer_id: Any, seat: str) -> Offer:
    o = _open(market, offer_id)
    if o.by != seat:
        raise Rejection(f"offer {o.id} is {o.by}'s: only they can withdraw it")
    o.status = WITHDRAWN
    return o


def decline(market: Market, offer_id: Any, seat: str) -> Offer:
    o = _addressed(market, offer_id, seat)
    if o.to == EVERYONE:
        raise Rejection(f"offer {o.id} is made to everyone: leave it, nobody needs to decline it")
    o.status = DECLINED
    return o


def counter(market: Market, offer_id: Any, seat: str) -> Offer:
    """The offer being countered: it closes, and the counter-offer (made by the caller) names it."""
    o = _addressed(market, offer_id, seat)
    if o.to != EVERYONE:
        o.status = COUNTERED
    return o


def accept(market: Market, offer_id: Any, seat: str, holdings: dict[str, hands.Holding], picked: list[str]) -> Offer:
    """Check both sides can give what the offer says (``picked``: the ids of the cards the taker gives for the
    faces asked for), then move everything at once: nothing is moved when anything is missing."""
    o = _addressed(market, offer_id, seat)
    giver, taker = holdings[o.by], holdings[seat]
    _picked_faces(taker, seat, o.get, picked)
    _check(giver, o.by, o.give, [])
    _check(taker, seat, o.get, picked)
    o.status, o.taker = ACCEPTED, seat
    _move(giver, taker, o.by, o.give, [])
    _move(taker, giver, seat, o.get, picked)
    return o


def lapse_all(market: Market) -> list[Offer]:
    """The window closes: every open offer lapses."""
    gone = market.open()
    for o in gone:
        o.status = LAPSED
    return gone


def _open(market: Market, offer_id: Any) -> Offer:
    o = market.find(offer_id)
    if o.status != OPEN:
        raise Rejection(f"offer {o.id} is {o.status}, no longer open")
    return o


def _addressed(market: Market, offer_id: Any, seat: str) -> Offer:
    o = _open(market, offer_id)
    if o.by == seat:
        raise Rejection(f"offer {o.id} is your own: withdraw it instead")
    if o.to not in (seat, EVERYONE):
        raise Rejection(f"offer {o.id} is made to {o.to}, not to {seat}")
    return o


def _picked_faces(holding: hands.Holding, seat: str, get: Bundle, picked: list[str]) -> None:
    wanted = {f: n for f, n in get.faces.items() if n}
    if len(set(picked)) != len(picked) or set(picked) & set(get.cards):
        raise Rejection("each card is given once")
    shown: dict[str, int] = {}
    for card_id in picked:
        held = holding.find(card_id)
        if held is None:
            raise Rejection(f"{seat} holds no card '{card_id}'")
        shown[held.face] = shown.get(held.face, 0) + 1
    if shown != wanted:
        asked = ", ".join(f"{n} {f}" for f, n in wanted.items()) or "no card by face"
        raise Rejection(f"the offer asks for {asked}; the cards picked show "
                        f"{', '.join(f'{n} {f}' for f, n in shown.items()) or 'nothing'}")


def _check(holding: hands.Holding, seat: str, bundle: Bundle, picked: list[str]) -> None:
    if bundle.money > holding.money:
        raise Rejection(f"{seat} has {holding.money} money, not the {bundle.money} of the trade")
    for r, n in bundle.resources.items():
        if n > holding.resources.get(r, 0):
            raise Rejection(f"{seat} has {holding.resources.get(r, 0)} {r}, not the {n} of the trade")
    for card_id in [*bundle.cards, *picked]:
        if holding.find(card_id) is None:
            raise Rejection(f"{seat} no longer holds card {card_id}")


def _move(source: hands.Holding, target: hands.Holding, seat: str, bundle: Bundle, picked: list[str]) -> None:
    hands.pay(source, seat, bundle.money)
    target.money += bundle.money
    for r, n in bundle.resources.items():
        hands.spend(source, seat, r, n)
        target.resources[r] = target.resources.get(r, 0) + n
    for card_id in [*bundle.cards, *picked]:
        target.cards.append(hands.remove(source, seat, card_id))
