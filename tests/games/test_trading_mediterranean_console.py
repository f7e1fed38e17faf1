"""Six civilizations through the offline console, the shell's own code path below the transport: a whole six-round
game of scripted players typing their orders as `name> line`, on a campaign of the newest rules (its development
and calamity decks face down, its victims naming their losses); the bot's salts are fixed, so every run is the same
game, its hands, money and VP asserted; the export replays to the same chain head and passes ``verify``."""
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
from tests.counted_salts import counted_salts
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
    service.salt = counted_salts("six on the console")  # the deck key is a seal's salt: fixed, so the game is this one
    assert service.create_campaign("trading", "trading-mediterranean", "gm", SIX, options=["forum-6h"]).changed
    t = ConsoleTable(service, clock)
    for _ in range(10):  # the deck key sealed, the shuffles bound; their rounds come out
        t.wait()
        if t.state.phase == gm.CIVIC:
            break
    assert t.state.phase == gm.CIVIC and t.state.rules_version == 2
    assert "Trading in the Mediterranean: turn 1 of 6, civic" in t.say("ann> /status")
    assert {s: [h.card for h in hold.cards] for s, hold in t.state.table.holdings.items() if s in SIX} == {
        "Ann": ["salt venus", "timber prosperity", "wool poverty", "grain mars", "ore poverty"],
        "Bob": ["salt poverty", "timber mars", "wool democracy", "grain poverty", "ore mars"],
        "Cat": ["salt dictatorship", "timber venus", "wool democracy", "grain prosperity", "ore venus"],
        "Dan": ["salt democracy", "timber prosperity", "wool prosperity", "grain poverty", "ore mars"],
        "Eve": ["salt dictatorship", "timber poverty", "wool venus", "grain democracy", "ore mars"],
        "Fay": ["salt prosperity", "timber democracy", "wool dictatorship", "grain mars", "ore democracy"]}
    refusals: Counter[str] = play(t, SIX)
    g = t.state
    assert (g.phase, g.turn) == (gm.OVER, 6)
    assert g.outcome == "Cat wins with 21 VP (Cat 21, Ann 15, Fay 14, Dan 13, Eve 13, Bob 10)"
    assert {s: (c.vp, c.money) for s, c in g.civs.items()} == {
        "Ann": (15, 1), "Bob": (10, 1), "Cat": (21, 0), "Dan": (13, 1), "Eve": (13, 1), "Fay": (14, 1)}
    # The scripted players click choices too dear: each refused with a reason.
    assert (t.typed, sum(refusals.values())) == (502, 165)
    assert refusals["Cat buys Fishing Port: refused: Fishing Port costs $6; Cat has $0"] == 1
    log = [json.loads(line) for line in service.export("trading").splitlines()]
    assert Counter(e["kind"] for e in log) == {
        "campaign.created": 1, "secret.sealed": 219, "beacon.recorded": 2, "secret.revealed": 219, "window.done": 108,
        "trade.offered": 35, "trade.answered": 35, "warehouse.chosen": 36, "development.bought": 48,
        "building.built": 19, "civic.give": 38, "calamity.losses": 7, "vote.cast": 10}
    events = [Event.from_dict(e) for e in log]
    ruleset = load_ruleset("trading-mediterranean", service.data_dir)
    again = replay(events)
    assert again.head == events[-1].hash and ruleset.public_view(again.state)["outcome"] == g.outcome
    result = verify(ruleset, events, {})
    assert_verified_but_for_the_test_chain(result)
