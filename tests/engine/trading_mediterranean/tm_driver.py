"""A driver for the rules on the tabletop, as the shell drives a game: the bot's fold (which knows the deck key and
every sealed card) and the export's fold (the public log alone) take the same events; the tests compare them."""
from __future__ import annotations

import copy
import json
from typing import Any

from engine import canonical, secrets
from engine.chance import book as chance
from engine.events import Event
from engine.tabletop import table as tb
from engine.trading_mediterranean import dealing
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.setup import new_civ

RULES = default_rules()
SEATS = ["Waldorf", "Geoff", "Mark", "Paul"]


class Fold:
    def __init__(self, civs: list[Any]) -> None:
        self.book = chance.new_book("drand", {})
        self.table = tb.new_table(RULES.deck_specs(), [c.seat for c in civs])
        self.civs = civs
        self.dealing = dealing.Dealing()
        self.said: list[str] = []

    def apply(self, event: Event) -> None:
        if event.kind == "production.started":
            order = event.data.get("order") or [c.seat for c in self.civs]
            by_seat = {c.seat: c for c in self.civs}
            self.dealing, said = dealing.start(RULES, self.table, self.book, event, [by_seat[s] for s in order])
            self.said += said
        elif event.kind == secrets.SEALED:
            self.said += dealing.on_sealed(self.table, self.book, self.dealing, event)
        elif event.kind == secrets.REVEALED:
            said = dealing.on_revealed(self.table, self.dealing, event)
            assert said is not None
            self.said += said
        elif event.kind == "game.ended":
            dealing.reveal_at_end(self.table, self.dealing)
        elif event.kind == "luxury.reshuffled":
            self.said.append(tb.reshuffle(self.table, self.book, event, "luxury"))
        else:
            assert chance.record(self.book, event)
        chance.settle(self.book, event)
        self.said += tb.advance(self.table, self.book, event)


class Driver:
    """The shell: a private store of sealed contents, beacons from a tag, one second an event."""

    def __init__(self, tag: str, cities: int = 4, seats: list[str] | None = None) -> None:
        civs = [new_civ(RULES, s) for s in seats or SEATS]
        if cities:
            civs[0].cubes["city"] = cities
            civs[1].cubes["harbour"] = 2
        self.bot, self.export = Fold(civs), Fold(copy.deepcopy(civs))
        self.tag = tag
        self.events: list[Event] = []
        self.store: dict[int, dict[str, Any]] = {}

    def append(self, kind: str, data: dict[str, Any], secret: dict[str, Any] | None = None, actor: str = "legatus") -> Event:
        seq = len(self.events) + 1
        event = Event(seq, kind, actor, data, at=f"2026-11-01T12:{seq // 60:02d}:{seq % 60:02d}+00:00",
                      draws=(f"drand:{1000 + seq}",), secret=secret)
        self.bot.apply(event)
        self.export.apply(Event(seq, kind, actor, data, at=event.at, draws=event.draws))
        self.events.append(event)
        if secret is not None:
            self.store[seq] = secret
        return event

    def serve(self) -> None:
        while needs := tb.needs(self.bot.table) + chance.needs(self.bot.book):
            need = needs[0]
            if need.source == "seal":
                spec = json.loads(str(need.content))
                salt = canonical.sha256_hex(f"{self.tag} salt {need.key}")[:32]
                self.append(secrets.SEALED, {"key": need.key, **spec["public"],
                                             "sealed": secrets.digest(spec["content"], salt)},
                            {"content": spec["content"], "salt": salt})
            elif need.source == "secret":
                self.append(secrets.REVEALED, {"seq": int(need.key), **self.store[int(need.key)]})
            else:
                self.append("beacon.recorded", {"round": int(need.key),
                                                "randomness": canonical.sha256_hex(f"{self.tag} beacon {need.key}")})

    def produce(self, order: list[str] | None = None) -> None:
        self.serve()  # the deck key is sealed before any hidden shuffle is bound, hence before any deal
        self.append("production.started", {"order": order} if order else {})
        self.serve()
