"""Six civilizations through the offline console, the shell's own code path below the transport: a whole six-round
game of scripted players typing their orders as `name> line`, on a campaign of the newest rules (its development
and calamity decks face down, its victims naming their losses); the export replays to the same chain head and
passes ``verify``."""
from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stdout
from datetime import timedelta
from typing import Any

from bot.console.offline import Console
from bot.service.legatus import Legatus
from bot.schedule.clock import FixedClock
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from engine.trading_mediterranean import game as gm
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import replay
from tests.games.test_trading_mediterranean_shell import shell  # noqa: F401  (the fixture)

SIX = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan", "Eve": "eve", "Fay": "fay"}


class ConsoleTable:
    """What the scripted players need of a table, through the console: the bot's fold, and lines typed."""

    def __init__(self, service: Legatus, clock: FixedClock) -> None:
        self.service, self.clock = service, clock
        self.console = Console(service, "trading")
        self.typed = 0

    @property
    def state(self) -> Any:
        return self.service.folded("trading")[1]

    def say(self, line: str) -> str:
        out = io.StringIO()
        with redirect_stdout(out):
            self.console.handle(line)
        self.typed += 1
        return out.getvalue()

    def wait(self) -> None:
        self.clock.advance(timedelta(seconds=30))
        self.service.pump("trading")

    def order(self, user: str, text: str) -> list[str]:
        refused = []
        for line in text.splitlines():
            said = self.say(f"{user}> {line}")
            refused += [row.split("\u201d: ", 1)[-1] for row in said.splitlines() if row.startswith("✗")]
            self.clock.advance(timedelta(seconds=5))
            self.service.pump("trading")
        return refused


def test_six_civilizations_play_a_whole_game_through_the_console(shell) -> None:  # type: ignore[no-untyped-def]
    service, clock = shell
    assert service.create_campaign("trading", "trading-mediterranean", "gm", SIX, options=["forum-6h"]).changed
    t = ConsoleTable(service, clock)
    for _ in range(10):  # the deck key sealed, the shuffles bound; their rounds come out
        t.wait()
        if t.state.phase == gm.CIVIC:
            break
    assert t.state.phase == gm.CIVIC and t.state.rules_version == 2
    assert "Trading in the Mediterranean: turn 1 of 6, civic" in t.say("ann> /status")
    refusals: Counter[str] = play(t, SIX)
    g = t.state
    assert g.phase == gm.OVER and g.turn == 6 and sorted(g.ranking) == sorted(SIX)
    assert g.outcome.startswith(f"{g.ranking[0]} wins with {g.civs[g.ranking[0]].vp} VP")
    assert t.typed > 200 and refusals  # the scripted players click choices too dear: each refused with a reason
    log = [json.loads(line) for line in service.export("trading").splitlines()]
    kinds = Counter(e["kind"] for e in log)
    assert kinds["campaign.created"] == 1 and kinds["trade.answered"] > 0 and kinds["window.done"] > 0
    events = [Event.from_dict(e) for e in log]
    ruleset = load_ruleset("trading-mediterranean", service.data_dir)
    again = replay(events)
    assert again.head == events[-1].hash and ruleset.public_view(again.state)["outcome"] == g.outcome
    result = verify(ruleset, events, {})
    assert_verified_but_for_the_test_chain(result)
