"""drand quicknet as a source: a roll is bound to the first round the shell offered, a round still to come.

Its values are ``derive.values(randomness, label, count, lo, hi)`` (engine/chance/derive.py) of the beacon's
randomness, recorded by a ``beacon.recorded`` event once fetched and verified (bot/drand/; the signature stays in
the log for ``legatus verify``, engine/chance/drand.py checks it). Any book keeps the beacons it is given: a
commit-reveal label mixed with a round waits for the same beacon.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.chance import derive
from engine.chance.source import Rounds
from engine.events import Event, Rejection
from engine.ruleset import Need

if TYPE_CHECKING:
    from engine.chance.book import Binding, ChanceBook

NAME = "drand"
PREFIX = "drand:"  # an offered round, and a drand binding's ``where``: "drand:<round>"


def offered_round(event: Event) -> str | None:
    """The earliest drand round the shell offered with the event ("drand:<round>"), or None."""
    rounds = [d for d in event.draws if d.startswith(PREFIX) and d[len(PREFIX):].isdigit()]
    return min(rounds, key=lambda d: int(d[len(PREFIX):])) if rounds else None


def first_round(event: Event) -> str:
    """The round a roll asked for with ``event`` is bound to, or the refusal when the shell offered none."""
    first = offered_round(event)
    if first is None:
        raise Rejection("no future drand round was offered to bind this roll to; the shell offers one with every event")
    return first


def round_of(where: str) -> str:
    """The round's digits of an offered value or a binding's ``where`` ("drand:123" -> "123")."""
    return where[len(PREFIX):]


def value_of(randomness_hex: str, label: str, count: int, lo: int, hi: int) -> list[int]:
    """A roll's values from its round's randomness (hex) and its label."""
    return derive.values(bytes.fromhex(randomness_hex), label, count, lo, hi)


def record_beacon(beacons: dict[str, str], data: Mapping[str, Any]) -> None:
    """Keep a ``beacon.recorded`` event's randomness by round (any game's beacons: the book's or its own table).
    The signature stays in the log for ``legatus verify``; a round, once recorded, never changes."""
    round_no, randomness = str(data.get("round", "")), str(data.get("randomness", ""))
    if not round_no.isdigit() or len(randomness) != 64 or any(c not in "0123456789abcdef" for c in randomness):
        raise Rejection("beacon.recorded needs a round number and its randomness (64 lowercase hex digits)")
    known = beacons.get(round_no)
    if known is not None and known != randomness:
        raise Rejection(f"round {round_no} is already recorded with another randomness; a beacon never changes")
    beacons[round_no] = randomness


class Drand:
    name = NAME
    offered = True
    verifiable = True
    drand = True
    lottery = False
    seed = False
    clocked = True
    margin = dt.timedelta(seconds=6)  # two quicknet periods
    records: tuple[str, ...] = ("beacon.recorded",)
    span: int | None = None  # values derived from 256 bits of randomness
    values_words = "drand rounds"

    def created_fields(self) -> dict[str, Any]:
        return {}

    def rounds_offered(self, created: Mapping[str, Any]) -> bool:
        return True

    def configure(self, book: ChanceBook, setup: Mapping[str, Any]) -> None:
        return None

    def bind(self, book: ChanceBook, event: Event, label: str, lo: int, hi: int, count: int, *,
             avoid: Sequence[str] = (), whole_wheel: bool = False) -> tuple[str, list[str]]:
        return label, [first_round(event)]

    def record(self, book: ChanceBook, event: Event) -> None:
        record_beacon(book.beacons, event.data)

    def values(self, book: ChanceBook, binding: Binding, event: Event) -> list[int] | None:
        randomness = book.beacons.get(round_of(binding.where[0]))
        if randomness is None:
            return None
        return value_of(randomness, binding.label, binding.count, binding.lo, binding.hi)

    def wanted(self, book: ChanceBook, bindings: Sequence[Binding]) -> list[Need]:
        rounds = dict.fromkeys(b.where[0][len(PREFIX):] for b in bindings)
        return [Need(NAME, round_no) for round_no in rounds if round_no not in book.beacons]

    def key(self, binding: Binding) -> str:
        return round_of(binding.where[0])

    def slots(self, binding: Binding) -> list[list[Any]]:
        return []

    def describe(self, binding: Binding) -> str:
        return f"drand quicknet round {round_of(binding.where[0])}, label '{binding.label}'"

    def waits_for(self, key: str) -> tuple[str, str] | None:
        return NAME, key

    def moment(self, key: str, rounds: Rounds) -> dt.datetime | None:
        """A round is produced at genesis + (round - 1) x period on its chain."""
        genesis, period = rounds
        if not key.isdigit():
            return None
        try:
            return dt.datetime.fromtimestamp(genesis + (int(key) - 1) * period, tz=dt.timezone.utc)
        except (ValueError, OverflowError, OSError):
            return None


SOURCE = Drand()
