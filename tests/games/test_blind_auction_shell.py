"""The tests' second game played through the shell with no change to it: the console, the store, drand beacons
from a relay on 127.0.0.1, sealed bids kept private until the reveal, the export and verify.

Blind Auction comes in as a plugin (LEGATUS_RULESETS), like a community's own game would.
"""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.console.offline import Console
from bot.drand.beacons import BeaconSource, chain_to_dict
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.service.plugins import PluginError, load_plugins
from bot.store.db import open_engine
from engine.chance import derive
from engine.events import Event
from engine.verify import verify
from engine.rulesets import load_ruleset
from tests.bot.drand.drand_fakes import (
    TEST_CHAIN, FakeRelay, assert_verified_but_for_the_test_chain, serving, signed_beacon,
)

PLUGIN = {"LEGATUS_RULESETS": "blind-auction=tests.games.blind_auction:load"}
START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture()
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LEGATUS_RULESETS", PLUGIN["LEGATUS_RULESETS"])
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "auction.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True,  # the tests hold its key: an explicit opt-in
                                       clock=lambda: clock.now().timestamp())
        console = Console(service)
        yield service, console, clock


def say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def play_a_tie(console: Console, clock: FixedClock) -> None:
    """Both seats hand in their cards and bid 5: the tie waits for its drand round, which comes 30 s on and is
    recorded with the next post."""
    for line in ("ann> hand 9 5 2", "bob> hand 3 5 8", "ann> bid 5", "bob> bid 5"):
        say(console, line)
    clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")


def test_a_whole_game_through_the_console_with_sealed_bids_and_a_drand_tie(table) -> None:  # type: ignore[no-untyped-def]
    service, console, clock = table
    created = service.create_campaign("auction", "blind-auction", "gm", {"North": "ann", "South": "bob"})
    assert created.changed, created.render()
    first = json.loads(service.export().splitlines()[0])
    assert first["data"]["randomness"] == "drand" and first["data"]["drand_chain"] == chain_to_dict(TEST_CHAIN)

    assert "✓" in say(console, "ann> hand 9 5 2")
    assert "✓" in say(console, "bob> hand 3 5 8")
    # Sealed: nobody else, not /state, not the export, sees a hand; its owner does with /private.
    public = say(console, "bob> /state") + service.export()
    assert "[9, 5, 2]" not in public and '"cards"' not in public
    assert "9" in say(console, "ann> /private") and "2" in say(console, "ann> /private")
    assert "[2, 5, 9]" not in say(console, "bob> /private").replace(" ", "").replace("\n", "")

    refused = say(console, "ann> bid 7")
    assert "✗" in refused, "a card not in the hand is refused while the bot holds the sealed hand"
    assert "✓" in say(console, "ann> bid 5")
    answer = say(console, "bob> bid 5")
    assert "✓" in answer
    # Both bids in: revealed at once; a tie, so a die each bound to a drand round still to come.
    state = service.state()
    assert "round-1-tie" in say(console, "bob> /ledger")
    assert state is not None
    waiting = [line for line in say(console, "ann> /ledger").splitlines() if "pending" in line]
    assert waiting, "the tie die waits for its round"
    # Time passes; the round is produced; the next post records the verified beacon and settles the tie.
    clock.advance(timedelta(seconds=30))
    said = say(console, "ann> /status")
    log = [json.loads(line) for line in service.export().splitlines()]
    beacons = [e for e in log if e["kind"] == "beacon.recorded"]
    assert len(beacons) == 1, said
    expected = signed_beacon(int(beacons[0]["data"]["round"]))
    assert beacons[0]["data"]["randomness"] == expected["randomness"]
    values = derive.values(bytes.fromhex(expected["randomness"]), "round-1-tie", 2, 1, 6)
    assert any(str(values[0]) in line for line in say(console, "ann> /ledger").splitlines() if "tie" in line)

    # Rounds 2 and 3, then the hands are revealed and checked.
    for ann, bob in (("9", "3"), ("2", "8")):
        say(console, f"ann> bid {ann}")
        say(console, f"bob> bid {bob}")
        clock.advance(timedelta(seconds=30))
        say(console, "gm> /status")
    summary = service.summary()
    assert summary.over, service.status()
    log = [json.loads(line) for line in service.export().splitlines()]
    assert sum(1 for e in log if e["kind"] == "secret.revealed") == 8  # 6 bids and 2 hands
    assert all("secret" not in e for e in log), "the export never carries the private store"

    # Anyone can re-check the game from the export alone: the chain, the reveals, the beacon, the state.
    events = [Event.from_dict(e) for e in log]
    result = verify(load_ruleset("blind-auction", service.data_dir), events, {})
    assert_verified_but_for_the_test_chain(result)  # the tests' chain: verify never passes it


def test_a_bad_plugin_entry_is_one_clear_line() -> None:
    with pytest.raises(PluginError, match="'nonsense' is not id=module:function"):
        load_plugins({"LEGATUS_RULESETS": "nonsense"})
    with pytest.raises(PluginError, match="cannot load 'no.such.module:load'"):
        load_plugins({"LEGATUS_RULESETS": "x=no.such.module:load"})
