"""Mare Nostrum: Empires through the shell with no change to it: the console, the store, sealed commerce offers
revealed together, the row's shuffle bound to a drand beacon from a relay on 127.0.0.1, a whole 3-player game to
the three titles, then the export replayed and verified."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.console.offline import Console
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, assert_verified_but_for_the_test_chain, serving

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
PLAYERS = {"Romans": "ann", "Greeks": "bob", "Carthaginians": "cat"}


@pytest.fixture()
def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "mne.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True, clock=lambda: clock.now().timestamp())
        yield service, Console(service), clock


def say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def ok(console: Console, line: str) -> str:
    out = say(console, line)
    assert "✓" in out and "✗" not in out, (line, out)
    return out


def private(console: Console, who: str) -> dict[str, object]:
    view = say(console, f"{who}> /private")
    body: dict[str, object] = json.loads(view[view.index("{"):view.rindex("}") + 1])
    return body


def everyone(console: Console, leader: str, plays: dict[str, str]) -> None:
    for empire, user in PLAYERS.items():
        ok(console, f"{leader}> next {empire}")
        for line in [*plays.get(empire, "").splitlines(), "done"]:
            ok(console, f"{user}> {line}")


def test_a_whole_game_through_the_console_then_verified(table) -> None:  # type: ignore[no-untyped-def]
    service, console, clock = table
    assert service.create_campaign("mne", "mare-nostrum-empires", "gm", PLAYERS).changed
    assert "Carthaginians" in service.status()
    ok(console, "cat> token II 2")  # the first event binds the row's shuffle to the next beacon
    clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")  # the beacon is out: recorded, the row dealt
    assert "Row: " in service.status()
    ok(console, "ann> offer wine, tax")
    ok(console, "bob> offer oil, tax")
    # Sealed until all are in: nobody else reads an offer, in the state or in their private view.
    assert service.state()["commerce"]["offers"]["Romans"]["tokens"] is None
    assert "wine" not in json.dumps(service.state()["commerce"])
    assert private(console, "cat")["offer"] is None and private(console, "ann")["offer"] == ["wine", "tax"]
    ok(console, "cat> offer wheat, tax")
    assert service.state()["commerce"]["offers"]["Romans"]["tokens"] == ["wine", "tax"]
    refused = say(console, "ann> take oil from Greeks")
    assert "Carthaginians picks now, not Romans" in refused
    for user, line in (("cat", "take wine from Romans"), ("ann", "take oil from Greeks"),
                       ("bob", "take wheat from Carthaginians"), ("cat", "take tax from Greeks"),
                       ("bob", "take tax from Romans"), ("ann", "take tax from Carthaginians")):
        ok(console, f"{user}> {line}")
    screen = private(console, "ann")
    assert (screen["goods"], screen["taxes"]) == ({"gladiators": 1, "marble": 2, "wine": 1, "oil": 1}, 4)
    refused = say(console, "ann> buy legion in Rome with taxes")
    assert "nobody plays yet: Greeks names who plays next" in refused
    everyone(console, "bob", {"Romans": "buy legion in Rome with taxes\n"
                                        "buy influence in Gallia Cisalpina with gladiators, marble, wine"})
    everyone(console, "ann", {})
    ok(console, "cat> name Carthaginians commerce")
    assert service.summary().turn == 2
    ok(console, "cat> token I 1")
    for user in PLAYERS.values():
        ok(console, f"{user}> offer tax")
    for user, line in (("cat", "take tax from Romans"), ("ann", "take tax from Greeks"),
                       ("bob", "take tax from Carthaginians")):
        ok(console, f"{user}> {line}")
    everyone(console, "ann", {"Romans": "buy caravan in Gallia Cisalpina with taxes"})
    everyone(console, "ann", {})
    summary = service.summary()
    assert summary.over and summary.winner == "Romans", service.status()

    log = [json.loads(line) for line in service.export().splitlines()]
    assert all("secret" not in e for e in log), "the export never carries the private store"
    assert sum(1 for e in log if e["kind"] == "secret.revealed") == 6  # every commerce offer
    result = verify(load_ruleset("mare-nostrum-empires", service.data_dir), [Event.from_dict(e) for e in log], {})
    assert_verified_but_for_the_test_chain(result)
