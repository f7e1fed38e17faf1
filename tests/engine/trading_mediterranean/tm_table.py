"""Trading in the Mediterranean played as the shell would, without the shell (tests/table_without_shell.py): its
salts and beacons digests of the table's tag, a refused order returned with its reason, the needs served after each
order; stamps advance a second an event. ``export()`` is the log without its secrets."""
from __future__ import annotations

import datetime as dt
from typing import Any

from engine import canonical
from engine.events import Event
from engine.log import start, step
from engine.trading_mediterranean.rules_data import default_rules
from engine.trading_mediterranean.ruleset import TradingMediterranean
from tests.table_without_shell import TableWithoutShell

RULES = TradingMediterranean(default_rules())
START = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.timezone.utc)


class Table(TableWithoutShell):
    keeps_refusals = True

    def __init__(self, players: dict[str, str], tag: str, trading: str = "live", rules_version: int | None = None) -> None:
        self.tag = tag
        super().__init__(RULES, {"ruleset": RULES.id, "gm": "gm", "players": players, "randomness": "drand",
                                 "trading": trading, **({"rules_version": rules_version} if rules_version else {})},
                         start_at=START)
        self.serve()

    def order_salt(self, seq: int) -> str:
        # The events before the order's: the salts this table always drew (its recorded games are these).
        return canonical.sha256_hex(f"{self.tag} {seq - 1}")[:32]

    def seal_salt(self, key: str) -> str:
        return canonical.sha256_hex(f"{self.tag} seal {key}")[:32]

    def beacon_of(self, round_number: str) -> str:
        return canonical.sha256_hex(f"{self.tag} beacon {round_number}")


def replay(events: list[Event]) -> Any:
    folded, _ = start(RULES, events[0])
    for e in events[1:]:
        folded, _ = step(RULES, folded, e)
    return folded
