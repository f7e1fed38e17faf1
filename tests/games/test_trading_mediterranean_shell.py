"""Trading in the Mediterranean through the shell with no change to it: a whole six-round game of four scripted
players posting orders in words through the service and its store, the bot's own seals (the deck key, each card
dealt), beacons from a relay on 127.0.0.1; the bot's salts are fixed, so every run is the same game; the export
replays and verifies, and no public face (the state, the status, the export, a refusal) shows a card's bottom before
it is played."""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, assert_verified_but_for_the_test_chain, serving
from tests.counted_salts import counted_salts
from tests.engine.trading_mediterranean.tm_players import play

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
PLAYERS = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan"}


class ServiceTable:
    """What the scripted players need of a table, through the service: the bot's fold and posts in words."""

    def __init__(self, service: Legatus, clock: FixedClock) -> None:
        self.service, self.clock = service, clock
        self.public: list[str] = []

    @property
    def state(self) -> Any:
        return self.service.folded("trading")[1]

    def wait(self) -> None:
        self.clock.advance(timedelta(seconds=30))
        self.service.pump("trading")

    def order(self, user: str, text: str) -> list[str]:
        reply = self.service.post(user, text, "trading")
        self.clock.advance(timedelta(seconds=5))
        self.service.pump("trading")
        self.public.append(reply.render())
        return [a.message for a in reply.answers if not a.ok]


@pytest.fixture()
def shell(tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "trading.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True, clock=lambda: clock.now().timestamp())
        yield service, clock


def test_a_whole_game_through_the_service_then_verified_from_its_export(shell) -> None:  # type: ignore[no-untyped-def]
    service, clock = shell
    service.salt = counted_salts("four through the service")  # the deck key is a seal's salt: fixed, so is the game
    assert service.create_campaign("trading", "trading-mediterranean", "gm", PLAYERS, options=["forum-12h"]).changed
    t = ServiceTable(service, clock)
    for _ in range(10):  # the deck key sealed, the shuffles bound; their rounds come out
        service.post("ann", "/status", "trading")
        clock.advance(timedelta(seconds=30))
        service.pump("trading")
        if service.summary("trading").phase == "civic":
            break
    assert service.summary("trading").phase == "civic", service.status("trading")
    # Before anything is played no public face names a card's bottom: the state, the status, the export, a view.
    public = json.dumps(service.state("trading")) + service.status("trading") + service.export("trading")
    held = [h.card for hold in t.state.table.holdings.values() for h in hold.cards]
    assert len(held) == 20 and all(card is not None and card not in public for card in held)
    assert {s: [h.card for h in hold.cards] for s, hold in t.state.table.holdings.items() if s in PLAYERS} == {
        "Ann": ["salt mars", "timber mars", "wool mars", "grain dictatorship", "ore democracy"],
        "Bob": ["salt poverty", "timber mars", "wool venus", "grain poverty", "ore prosperity"],
        "Cat": ["salt mars", "timber prosperity", "wool prosperity", "grain venus", "ore democracy"],
        "Dan": ["salt democracy", "timber democracy", "wool democracy", "grain depression", "ore dictatorship"]}
    refusals: Counter[str] = play(t, PLAYERS)
    summary = service.summary("trading")
    assert summary.over and summary.turn == 6
    assert t.state.outcome == "Bob wins with 17 VP (Bob 17, Ann 15, Cat 15, Dan 10)"
    assert {s: (c.vp, c.money) for s, c in t.state.civs.items()} == {
        "Ann": (15, 0), "Bob": (17, 0), "Cat": (15, 1), "Dan": (10, 1)}
    log = [json.loads(line) for line in service.export("trading").splitlines()]
    assert all("secret" not in e for e in log)
    events = [Event.from_dict(e) for e in log]
    result = verify(load_ruleset("trading-mediterranean", service.data_dir), events, {})
    assert_verified_but_for_the_test_chain(result)
    sealed = sum(1 for e in log if e["kind"] == "secret.sealed")
    assert any(f"of the {sealed} the bot sealed itself" in n for n in result.notes), result.notes
    # The scripted players click choices that turn out too dear: each refused with a reason.
    assert (len(t.public), sum(refusals.values())) == (271, 100)
