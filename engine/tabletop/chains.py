"""Chains of prompts where the next to act follows from the last move: in a pick chain the seat picked from picks
next. Between two seats there is one round trip at most: once A has taken from B, A never takes from B again
(B may still take from A once). The chain ends when the seat to pick has nobody left to pick from."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Rejection


@dataclass
class PickChain:
    seats: tuple[str, ...]
    next: str | None
    picks: list[tuple[str, str]] = field(default_factory=list)  # (picker, picked from), in order

    def targets(self, seat: str) -> list[str]:
        return [s for s in self.seats if s != seat and (seat, s) not in self.picks]

    def public(self) -> dict[str, Any]:
        return {"next": self.next, "picks": [list(p) for p in self.picks]}


def start(seats: list[str], first: str) -> PickChain:
    if first not in seats:
        raise Rejection(f"'{first}' is not one of the seats of the chain ({', '.join(seats)})")
    return PickChain(tuple(seats), first)


def pick(chain: PickChain, seat: str, target: str) -> str | None:
    """``seat`` picks from ``target``; the next to pick (None: the chain is over)."""
    if chain.next is None:
        raise Rejection("the pick chain is over")
    if seat != chain.next:
        raise Rejection(f"{chain.next} picks now, not {seat}")
    if target not in chain.seats or target == seat:
        raise Rejection(f"'{target}' cannot be picked from: pick from {', '.join(chain.targets(seat)) or 'nobody'}")
    if (seat, target) in chain.picks:
        raise Rejection(f"{seat} has already picked from {target}: one round trip per pair; pick from "
                        f"{', '.join(chain.targets(seat)) or 'nobody'}")
    chain.picks.append((seat, target))
    chain.next = target if chain.targets(target) else None
    return chain.next
