"""Market Day played as the shell would, without the shell: sealed contents kept in a private store and given to
the bot's fold, the bot's seals made when ``needs`` asks, beacons recorded, due contents revealed. Stamps advance
one second an event from a fixed moment, so the window and the auction read the times the test chooses."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from typing import Any

from engine import canonical, secrets
from engine.chance.drand import bind_round
from engine.events import Event
from engine.ledger import event_hash
from engine.log import start, step
from tests.games.market_day.ruleset import MarketDay

RULES = MarketDay()
PLAYERS = {"North": "ann", "South": "bob", "East": "cat"}
START = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.timezone.utc)


def salt_of(tag: str) -> str:
    return canonical.sha256_hex(f"salt of {tag}")[:32]


def beacon(tag: str) -> str:
    return canonical.sha256_hex(f"beacon {tag}")


class Table:
    def __init__(self, randomness: str = "drand", beacons: dict[str, str] | None = None,
                 key_salt: str | None = None, clock: str = "historical", rules_version: int | None = RULES.rules_version) -> None:
        self.store: dict[int, dict[str, Any]] = {}
        self.beacons = beacons or {}
        self.key_salt = key_salt
        self.events: list[Event] = []
        self.messages: list[str] = []
        self.now = START
        self.clock = clock
        created = self._event("campaign.created", "gm", {"ruleset": RULES.id, "gm": "gm", "players": PLAYERS,
                                                        "randomness": randomness, "clock": clock,
                                                        **({"rules_version": rules_version} if rules_version else {})})
        self.folded, _ = start(RULES, created)
        self.events.append(created)

    def _event(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> Event:
        seq = len(self.events) + 1
        self.now += dt.timedelta(seconds=1)
        # Live, the rounds the bot would offer (the first 10 s ahead); else small round numbers, long past.
        offered = bind_round(self.now.timestamp(), margin=10) if self.clock == "live" else 1000 + seq
        event = Event(seq, kind, actor, data, at=self.now.isoformat(timespec="seconds"), draws=(f"drand:{offered}",),
                      secret=secret)
        head = self.folded.head if self.events else "0" * 64
        return replace(event, hash=event_hash(head, event))

    def append(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> None:
        event = self._event(kind, actor, data, secret)
        self.folded, messages = step(RULES, self.folded, event)
        self.events.append(event)
        self.messages += messages
        if secret is not None:
            self.store[event.seq] = secret

    def order(self, actor: str, text: str) -> None:
        for p in RULES.read_post(self.folded.state, actor, text):
            assert p.error is None and p.kind is not None, p
            secret = None
            data = dict(p.data)
            if p.secret is not None:
                secret = {"content": p.secret, "salt": salt_of(str(len(self.events) + 1))}
                data["sealed"] = secrets.digest(p.secret, secret["salt"])
            self.append(p.kind, actor, data, secret)
            self.serve()

    def serve(self) -> None:
        while needs := RULES.needs(self.folded.state):
            need = needs[0]
            if need.source == "seal":
                spec = json.loads(need.content)
                salt = self.key_salt if need.key == "deck-key" and self.key_salt else salt_of(f"seal {need.key}")
                data = {"key": need.key, **spec["public"], "sealed": secrets.digest(spec["content"], salt)}
                self.append(secrets.SEALED, "legatus", data, {"content": spec["content"], "salt": salt})
            elif need.source == "secret":
                self.append(secrets.REVEALED, "legatus", {"seq": int(need.key), **self.store[int(need.key)]})
            elif need.source == "drand":
                self.append("beacon.recorded", "legatus",
                            {"round": int(need.key), "randomness": self.beacons.get(need.key, beacon(need.key))})
            else:
                raise AssertionError(f"unexpected need {need}")

    def later(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)

    @property
    def state(self) -> Any:
        return self.folded.state

    def holding(self, seat: str) -> Any:
        return self.state.table.holdings[seat]
