"""Scripted players of Mare Nostrum: Empires through the console: a 3-player game to the three titles on a drand
relay on 127.0.0.1. Played by tests/games/test_mare_nostrum_empires_shell.py and recorded as a golden log by
tests/data/golden/regenerate_mne.py."""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.console.offline import Console
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, serving

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
PLAYERS = {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat"}


@dataclass
class MneTable:
    service: Legatus
    console: Console
    clock: FixedClock


@contextmanager
def table(db: Path) -> Iterator[MneTable]:
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(db), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True, clock=lambda: clock.now().timestamp())
        yield MneTable(service, Console(service), clock)


def say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def ok(console: Console, line: str) -> str:
    out = say(console, line)
    if "✓" not in out or "✗" in out:
        raise AssertionError(f"refused: {line}\n{out}")
    return out


def private(console: Console, who: str) -> dict[str, object]:
    view = say(console, f"{who}> /private")
    body: dict[str, object] = json.loads(view[view.index("{"):view.rindex("}") + 1])
    return body


def everyone(console: Console, leader: str, plays: dict[str, str]) -> None:
    """The leader names each empire in seating order; each plays its lines, then 'done'."""
    for empire, user in PLAYERS.items():
        ok(console, f"{leader}> next {empire}")
        for line in [*plays.get(empire, "").splitlines(), "done"]:
            ok(console, f"{user}> {line}")


def create(t: MneTable, randomness: str | None = None) -> None:
    assert t.service.create_campaign("mne", "mare-nostrum-empires", "gm", PLAYERS, randomness=randomness).changed
    ok(t.console, "cat> token II 2")  # the first event binds the row's shuffle to the next beacon
    t.clock.advance(timedelta(seconds=30))
    say(t.console, "ann> /status")  # the beacon is out: recorded, the row dealt


def round_one_offers(t: MneTable) -> None:
    ok(t.console, "ann> offer wine, tax")
    ok(t.console, "bob> offer oil, tax")
    ok(t.console, "cat> offer wheat, tax")


def rest_of_game(t: MneTable) -> None:
    c = t.console
    for user, line in (("cat", "take wine from Romans"), ("ann", "take oil from Greeks"),
                       ("bob", "take wheat from Carthaginians"), ("cat", "take tax from Greeks"),
                       ("bob", "take tax from Romans"), ("ann", "take tax from Carthaginians")):
        ok(c, f"{user}> {line}")
    everyone(c, "bob", {"Romans": "buy legion in Rome with taxes\n"
                                  "buy influence in Gallia Cisalpina with gladiators, marble, wine"})
    everyone(c, "ann", {})
    ok(c, "cat> name Carthaginians commerce")
    ok(c, "cat> token I 1")
    for user in PLAYERS.values():
        ok(c, f"{user}> offer tax")
    for user, line in (("cat", "take tax from Romans"), ("ann", "take tax from Greeks"),
                       ("bob", "take tax from Carthaginians")):
        ok(c, f"{user}> {line}")
    everyone(c, "ann", {"Romans": "buy caravan in Gallia Cisalpina with taxes"})
    everyone(c, "ann", {})


def play_game(t: MneTable, randomness: str | None = None) -> None:
    create(t, randomness)
    round_one_offers(t)
    rest_of_game(t)
