"""Market Day played as the shell would, without the shell (tests/table_without_shell.py): its sealed contents kept
in a private store and given to the bot's fold, the bot's seals made when ``needs`` asks, beacons recorded, due
contents revealed. Stamps advance one second an event from a fixed moment, so the window and the auction read the
times the test chooses."""
from __future__ import annotations

import datetime as dt
from typing import Any

from engine.chance.drand import bind_round
from tests.games.market_day.ruleset import MarketDay
from tests.table_without_shell import TableWithoutShell

RULES = MarketDay()
PLAYERS = {"North": "ann", "South": "bob", "East": "cat"}
START = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.timezone.utc)


class Table(TableWithoutShell):
    """``key_salt``: the deck key's salt, chosen by the test (an operator's); ``clock``: "live" offers the rounds
    the bot would offer (the first 10 s ahead of the stamp), "historical" small round numbers, long past."""

    def __init__(self, randomness: str = "drand", beacons: dict[str, str] | None = None,
                 key_salt: str | None = None, clock: str = "historical", rules_version: int | None = RULES.rules_version) -> None:
        self.key_salt = key_salt
        self.clock = clock
        super().__init__(RULES, {"ruleset": RULES.id, "gm": "gm", "players": PLAYERS, "randomness": randomness,
                                 "clock": clock, **({"rules_version": rules_version} if rules_version else {})},
                         beacons, start_at=START)

    def seal_salt(self, key: str) -> str:
        return self.key_salt if key == "deck-key" and self.key_salt else super().seal_salt(key)

    def offered_round(self, seq: int) -> int:
        if self.clock == "live":
            assert self.now is not None
            return bind_round(self.now.timestamp(), margin=10)
        return super().offered_round(seq)

    def holding(self, seat: str) -> Any:
        return self.state.table.holdings[seat]
