"""Trading in the Mediterranean played as the shell would, without the shell: sealed contents kept in a private
store and given to the bot's fold, the bot's seals made when ``needs`` asks, beacons recorded from a tag, due
contents revealed; stamps advance a second an event. ``export()`` is the log without its secrets."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from typing import Any

from engine import canonical, secrets
from engine.events import Event
from engine.ledger import event_hash
from engine.log import start, step
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.ruleset import TradingMediterranean

RULES = TradingMediterranean(default_rules())
START = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.timezone.utc)


class Table:
    def __init__(self, players: dict[str, str], tag: str, trading: str = "live", rules_version: int | None = None) -> None:
        self.tag = tag
        self.store: dict[int, dict[str, Any]] = {}
        self.events: list[Event] = []
        self.messages: list[str] = []
        self.now = START
        created = self._event("campaign.created", "gm", {"ruleset": RULES.id, "gm": "gm", "players": players,
                                                        "randomness": "drand", "trading": trading,
                                                        **({"rules_version": rules_version} if rules_version else {})})
        self.folded, _ = start(RULES, created)
        self.events.append(created)
        self.serve()

    def _event(self, kind: str, actor: str, data: dict[str, Any], secret: dict[str, Any] | None = None) -> Event:
        seq = len(self.events) + 1
        self.now += dt.timedelta(seconds=1)
        event = Event(seq, kind, actor, data, at=self.now.isoformat(timespec="seconds"), draws=(f"drand:{1000 + seq}",),
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

    def order(self, actor: str, text: str, seat: str | None = None) -> list[str]:
        """Post ``text``; returns the refusals (each line that failed, with its reason)."""
        from engine.events import Rejection
        refused = []
        for p in RULES.read_post(self.state, actor, text, seat):
            if p.error is not None or p.kind is None:
                refused.append(str(p.error))
                continue
            data, secret = dict(p.data), None
            if p.secret is not None:
                secret = {"content": p.secret, "salt": canonical.sha256_hex(f"{self.tag} {len(self.events)}")[:32]}
                data["sealed"] = secrets.digest(p.secret, secret["salt"])
            try:
                self.append(p.kind, actor, data, secret)
            except Rejection as e:
                refused.append(e.reason)
                continue
            self.serve()
        return refused

    def serve(self) -> None:
        while needs := RULES.needs(self.state):
            need = needs[0]
            if need.source == "seal":
                spec = json.loads(need.content)
                salt = canonical.sha256_hex(f"{self.tag} seal {need.key}")[:32]
                data = {"key": need.key, **spec["public"], "sealed": secrets.digest(spec["content"], salt)}
                self.append(secrets.SEALED, "legatus", data, {"content": spec["content"], "salt": salt})
            elif need.source == "secret":
                self.append(secrets.REVEALED, "legatus", {"seq": int(need.key), **self.store[int(need.key)]})
            elif need.source == "drand":
                self.append("beacon.recorded", "legatus",
                            {"round": int(need.key), "randomness": canonical.sha256_hex(f"{self.tag} beacon {need.key}")})
            else:
                raise AssertionError(f"unexpected need {need}")

    @property
    def state(self) -> Any:
        return self.folded.state

    def export(self) -> list[Event]:
        return [replace(e, secret=None) for e in self.events]


def replay(events: list[Event]) -> Any:
    folded, _ = start(RULES, events[0])
    for e in events[1:]:
        folded, _ = step(RULES, folded, e)
    return folded
