"""Auctions. Open ascending: each bid must beat the highest; a bid in the last ``extend`` seconds moves the end to
``extend`` seconds after it, so nobody wins by sniping; the auction ends when every other seat has passed since
the highest bid, or at its end (a close after it). Sealed: each seat seals one amount (``Proposal.secret``), all are
revealed together, the highest wins and equal amounts go to the earliest sealed."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Event, Rejection
from engine.tabletop import clock
from engine.tabletop.hands import MAX_AMOUNT


@dataclass
class Auction:
    lot: str
    seats: tuple[str, ...]
    ends_at: str
    extend: int  # seconds; its default is open_auction's, the one way an auction is opened
    minimum: int
    high: int = 0
    leader: str | None = None
    passed: list[str] = field(default_factory=list)
    bids: list[tuple[str, int, str]] = field(default_factory=list)  # (seat, amount, at)
    over: bool = False

    def public(self) -> dict[str, Any]:
        return {"lot": self.lot, "high": self.high, "leader": self.leader, "ends_at": self.ends_at,
                "passed": list(self.passed), "bids": [list(b) for b in self.bids], "over": self.over}

    def to_bid(self) -> list[str]:
        return [] if self.over else [s for s in self.seats if s != self.leader and s not in self.passed]


def open_auction(lot: str, seats: list[str], event: Event, seconds: int, extend: int = 60, minimum: int = 1) -> Auction:
    return Auction(lot, tuple(seats), clock.later(clock.moment(event), seconds), extend, minimum)


def bid(a: Auction, seat: str, amount: int, event: Event, purse: int) -> str:
    """A bid, checked; what it did in words."""
    if a.over:
        raise Rejection(f"the auction of {a.lot} is over")
    when = clock.moment(event)
    if when >= clock.until(a.ends_at):
        raise Rejection(f"the auction of {a.lot} ended at {a.ends_at}: no bid is taken after it")
    if seat not in a.seats or seat in a.passed:
        raise Rejection(f"{seat} " + ("has passed in" if seat in a.passed else "takes no part in") + f" the auction of {a.lot}")
    floor = max(a.minimum, a.high + 1)
    if not floor <= amount <= MAX_AMOUNT:
        raise Rejection(f"a bid of {amount} is too low: bid at least {floor}" if amount < floor else f"a bid is at most {MAX_AMOUNT}")
    if amount > purse:
        raise Rejection(f"{seat} has {purse} money: it cannot bid {amount}")
    a.high, a.leader = amount, seat
    a.bids.append((seat, amount, when.isoformat(timespec="seconds")))
    a.passed = []  # a new high bid: everyone may answer it
    extended = ""
    if (clock.until(a.ends_at) - when).total_seconds() < a.extend:
        a.ends_at = clock.later(when, a.extend)
        extended = f"; a late bid: the auction now ends at {a.ends_at}"
    return f"{seat} bids {amount} for {a.lot}{extended}."


def pass_bid(a: Auction, seat: str) -> bool:
    """``seat`` passes; True when that ends the auction (every other seat passed since the high bid)."""
    if a.over:
        raise Rejection(f"the auction of {a.lot} is over")
    if seat == a.leader:
        raise Rejection(f"{seat} holds the high bid ({a.high}): it cannot pass on it")
    if seat not in a.seats or seat in a.passed:
        raise Rejection(f"{seat} has already passed" if seat in a.passed else f"{seat} takes no part in this auction")
    a.passed.append(seat)
    a.over = not a.to_bid()
    return a.over


def close(a: Auction, event: Event) -> None:
    if a.over:
        raise Rejection(f"the auction of {a.lot} is already over")
    if clock.moment(event) < clock.until(a.ends_at):
        raise Rejection(f"the auction of {a.lot} runs until {a.ends_at}")
    a.over = True


@dataclass
class SealedAuction:
    """Each seat seals one amount (``Proposal.secret`` {"amount"}: its digest in the log); once all are in, the shell
    reveals them (``due``), and the highest wins, equal amounts going to the earliest sealed."""

    lot: str
    seats: tuple[str, ...]
    sealed: dict[str, tuple[int, str]] = field(default_factory=dict)  # seat -> (seq of its seal, digest)
    amounts: dict[str, int] = field(default_factory=dict)  # revealed

    def due(self) -> list[int]:
        if len(self.sealed) < len(self.seats):
            return []
        return sorted(seq for seat, (seq, _) in self.sealed.items() if seat not in self.amounts)

    def winner(self) -> tuple[str, int] | None:
        if self.due() or len(self.amounts) < len(self.seats):
            return None
        return sealed_winner([(s, a, self.sealed[s][0]) for s, a in self.amounts.items()])

    def public(self) -> dict[str, Any]:
        return {"lot": self.lot, "sealed": {s: d for s, (_, d) in self.sealed.items()}, "amounts": dict(self.amounts)}


def seal_bid(a: SealedAuction, seat: str, seq: int, digest: str, known: int | None, purse: int) -> None:
    """A sealed bid; ``known`` is its amount where this fold holds the content (the bot's), checked at once."""
    if seat not in a.seats:
        raise Rejection(f"{seat} takes no part in the sealed auction of {a.lot}")
    if seat in a.sealed:
        raise Rejection(f"{seat} has sealed its bid for {a.lot}; a sealed bid is not changed")
    if known is not None and not 0 <= known <= min(purse, MAX_AMOUNT):
        raise Rejection(f"a bid is 0 to {min(purse, MAX_AMOUNT)} (the money held), not {known}", hidden_of=seat)
    a.sealed[seat] = (seq, digest)


def reveal_bid(a: SealedAuction, seq: int, content: dict[str, Any], purse: int) -> tuple[str, int]:
    """A revealed bid (its content already checked against the digest): a bid beyond the money held counts 0."""
    seat = next((s for s, (q, _) in a.sealed.items() if q == seq), None)
    if seat is None or seq not in a.due():
        raise Rejection(f"event #{seq} holds no sealed bid due to be revealed")
    amount = content.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= purse:
        amount = 0
    a.amounts[seat] = amount
    return seat, a.amounts[seat]


def sealed_winner(bids: list[tuple[str, int, int]]) -> tuple[str, int] | None:
    """A sealed auction once all bids are revealed: (seat, amount, seq of its seal) -> the winner and its price."""
    valid = [b for b in bids if b[1] > 0]
    if not valid:
        return None
    seat, amount, _ = max(valid, key=lambda b: (b[1], -b[2]))
    return seat, amount
