"""A game played as the shell would, without the shell: the one loop the engine-level test tables share (Market Day,
Blind Auction, Trading in the Mediterranean). Events are chained through engine/log's start/step; sealed contents
are kept in a private store and given to the bot's fold; when ``needs`` asks, the bot's seals are made, beacons
recorded and due contents revealed.

Every salt and beacon is a digest of a tag, so every run is the same game. What differs between the games' tables
is a parameter, never a copy of the loop: the salts (``order_salt``, ``seal_salt``) and beacons (``beacon_of``)
each table derives, the drand round an event offers (``offered_round``), whether events are stamped (a clock
from ``start_at``, a second an event), whether a refused order is returned or raised (``keeps_refusals``) and
whether the table serves the needs after each order (``serves_after_orders``)."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from typing import Any

from engine import canonical, secrets
from engine.events import Event, Rejection
from engine.ledger import event_hash
from engine.log import start, step
from engine.ruleset import Ruleset


def salt_of(tag: str, chars: int = 32) -> str:
    """The salt a test names by ``tag``: 128 bits as the bot's (32 hex digits), or the whole digest."""
    return canonical.sha256_hex(f"salt of {tag}")[:chars]


def beacon(tag: str) -> str:
    """A beacon's randomness named by ``tag``."""
    return canonical.sha256_hex(f"beacon {tag}")


class TableWithoutShell:
    """``created``: the campaign's first event's data. ``beacons``: a round's randomness chosen by the test (else
    ``beacon_of``'s). ``start_at``: the clock of the stamps (None: events carry no time). ``live``: False folds the
    sealed orders without their content, as a shell that lost its private store (the store still keeps them)."""

    keeps_refusals = False  # True: ``order`` returns each refused line's reason; False: a refusal is raised
    serves_after_orders = True  # False: the test serves (or reveals) when it chooses

    def __init__(self, rules: Ruleset, created: dict[str, Any], beacons: dict[str, str] | None = None,
                 start_at: dt.datetime | None = None, live: bool = True) -> None:
        self.rules = rules
        self.live = live
        self.store: dict[int, dict[str, Any]] = {}
        self.beacons = beacons or {}
        self.events: list[Event] = []
        self.said: list[tuple[str, ...]] = []  # what each event after the first said
        self.now = start_at
        first = self._event("campaign.created", "gm", created)
        self.folded, _ = start(rules, first)
        self.events.append(first)

    def order_salt(self, seq: int) -> str:
        """The salt of the content an order sealed as event ``seq``."""
        return salt_of(str(seq))

    def seal_salt(self, key: str) -> str:
        """The salt of the bot's own seal ``key`` (a deck key, a card dealt)."""
        return salt_of(f"seal {key}")

    def beacon_of(self, round_number: str) -> str:
        return self.beacons.get(round_number, beacon(round_number))

    def offered_round(self, seq: int) -> int:
        """The drand round event ``seq`` offers: small round numbers, long past."""
        return 1000 + seq

    def _event(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> Event:
        seq = len(self.events) + 1
        at = ""
        if self.now is not None:
            self.now += dt.timedelta(seconds=1)
            at = self.now.isoformat(timespec="seconds")
        event = Event(seq, kind, actor, data, at=at, draws=(f"drand:{self.offered_round(seq)}",), secret=secret)
        head = self.folded.head if self.events else "0" * 64
        return replace(event, hash=event_hash(head, event))

    def append(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> tuple[str, ...]:
        event = self._event(kind, actor, data, secret)
        self.folded, said = step(self.rules, self.folded, event)
        self.events.append(event)
        self.said.append(said)
        if secret is not None:
            self.store[event.seq] = secret
        return said

    def order(self, actor: str, text: str, seat: str | None = None) -> list[str]:
        """Post ``text``, each line an order; a sealed order's content goes to the private store. Returns the refusals
        (each line refused, with its reason) if ``keeps_refusals``, else raises the first."""
        refused: list[str] = []
        for p in self.rules.read_post(self.state, actor, text, seat):
            if p.error is not None or p.kind is None:
                assert self.keeps_refusals, p
                refused.append(str(p.error))
                continue
            data: dict[str, Any] = dict(p.data)
            secret: dict[str, Any] | None = None
            if p.secret is not None:
                secret = {"content": p.secret, "salt": self.order_salt(len(self.events) + 1)}
                data["sealed"] = secrets.digest(p.secret, secret["salt"])
            try:
                self.append(p.kind, actor, data, secret if self.live else None)
            except Rejection as e:
                if not self.keeps_refusals:
                    raise
                refused.append(e.reason)
                continue
            if secret is not None and not self.live:
                self.store[len(self.events)] = secret
            if self.serves_after_orders:
                self.serve()
        return refused

    def serve(self) -> None:
        """Answer every need the shell can answer: seal what the bot seals, reveal what is due, record the beacons."""
        while needs := self.rules.needs(self.state):
            need = needs[0]
            if need.source == "seal":
                spec = json.loads(str(need.content))
                salt = self.seal_salt(need.key)
                data = {"key": need.key, **spec["public"], "sealed": secrets.digest(spec["content"], salt)}
                self.append(secrets.SEALED, "legatus", data, {"content": spec["content"], "salt": salt})
            elif need.source == "secret":
                self.reveal_due(int(need.key))
            elif need.source == "drand":
                self.append("beacon.recorded", "legatus", {"round": int(need.key), "randomness": self.beacon_of(need.key)})
            else:
                raise AssertionError(f"unexpected need {need}")

    def reveal_due(self, seq: int) -> None:
        self.append(secrets.REVEALED, "legatus", {"seq": seq, **self.store[seq]})

    def later(self, seconds: float) -> None:
        assert self.now is not None, "this table's events carry no time"
        self.now += dt.timedelta(seconds=seconds)

    @property
    def state(self) -> Any:
        return self.folded.state

    @property
    def messages(self) -> list[str]:
        """Everything said after the campaign's creation, in order."""
        return [m for said in self.said for m in said]

    def export(self) -> list[Event]:
        """The log as exported: without its secrets."""
        return [replace(e, secret=None) for e in self.events]
