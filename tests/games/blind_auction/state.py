"""The state of a Blind Auction game: what the fold over its event log produces.

Every sealed thing is a ``Sealed``: its digest and event number are public from the start; ``content`` is public
once revealed; ``known`` is what the fold learnt from the shell's private store (``Event.secret``) and is shown to
its own seat only. A replay of the public export has ``known = None`` everywhere and must show the same public view.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.chance.book import ChanceBook

SEATS = ("North", "South")
ROUNDS = 3
CARDS = range(1, 10)
HAND_SIZE = 3

# Phases, in order: seal hands; per round, seal bids, reveal them, maybe roll the tie dice; reveal the hands; over.
HANDS, BIDS, REVEAL, TIE, CHECK, OVER = "hands", "bids", "reveal", "tie", "check", "over"


@dataclass
class Sealed:
    seq: int  # the event that sealed it: Need("secret", str(seq)) asks for its reveal
    sealed: str  # the digest (engine/secrets.py), public
    content: dict[str, Any] | None = None  # public once revealed
    known: dict[str, Any] | None = None  # from the shell's private store: for its seat only

    def public(self) -> dict[str, Any]:
        return {"seq": self.seq, "sealed": self.sealed, "revealed": self.content}


@dataclass
class Round:
    number: int
    bids: dict[str, Sealed] = field(default_factory=dict)
    dice: list[list[int]] = field(default_factory=list)  # tie dice thrown: [North's, South's] per throw
    roll: int | None = None  # the id of the tie roll bound and not yet used
    winner: str | None = None  # the seat that scored; None while undecided


@dataclass
class SeatState:
    name: str
    player: str | None
    points: int = 0
    hand: Sealed | None = None


@dataclass
class State:
    ruleset: str
    gm: str
    seats: dict[str, SeatState]
    book: ChanceBook
    phase: str = HANDS
    rounds: list[Round] = field(default_factory=list)
    winner: str | None = None
    outcome: str = ""  # how the game ended, in words
    fouls: dict[str, str] = field(default_factory=dict)  # seat -> why it loses (a card bid that it did not hold)
    commitment: str | None = None  # commit-reveal: SHA-256 of the shell's seed, published at creation
    seed: str | None = None

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def turn(self) -> int:
        return max(1, len(self.rounds))

    def other(self, seat: str) -> str:
        return SEATS[1 - SEATS.index(seat)]
