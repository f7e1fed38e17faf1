"""Market Day through the shell with no change to it: the console, the store, the bot's own seals (the deck key,
each card dealt), a sealed promise, the private views, beacons from a relay on 127.0.0.1, the export and verify.
Nobody sees a card's bottom or the promise through /state, /ledger, /status, the export, a refusal or another
seat's /private."""
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

PLUGIN = "market-day=tests.games.market_day:load"
START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
PLAYERS = {"North": "ann", "South": "bob", "East": "cat"}


@pytest.fixture()
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LEGATUS_RULESETS", PLUGIN)
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "market.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=1),
                                       test_chain=True, clock=lambda: clock.now().timestamp())
        yield service, Console(service), clock


def say(console: Console, line: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        console.handle(line)
    return out.getvalue()


def held(console: Console, who: str) -> list[tuple[str, str]]:
    view = say(console, f"{who}> /private")
    body = json.loads(view[view.index("{"):view.rindex("}") + 1])
    return [(h["id"], h["card"]) for h in body["holding"]["held"]]


def test_a_whole_game_through_the_console_with_every_card_sealed_then_verified(table) -> None:  # type: ignore[no-untyped-def]
    service, console, clock = table
    created = service.create_campaign("market", "market-day", "gm", PLAYERS)
    assert created.changed and "The deck key is sealed (digest " in " ".join(created.notes)
    # The key is sealed with the campaign, before any post could be: event 2, its salt in the private store alone.
    first = [json.loads(line) for line in service.export().splitlines()]
    assert [(e["seq"], e["kind"], e["actor"], e["data"].get("key")) for e in first] == [
        (1, "campaign.created", "gm", None), (2, "secret.sealed", "legatus", "deck-key")]
    assert first[0]["data"]["rules_version"] == 2
    say(console, "ann> /status")
    clock.advance(timedelta(seconds=30))
    say(console, "ann> /status")  # the round is out: the beacon is recorded, the goods dealt and sealed
    hands = {who: held(console, who) for who in PLAYERS.values()}
    assert [len(h) for h in hands.values()] == [3, 3, 3]
    assert service.summary().phase == "market"
    bottoms = {card for h in hands.values() for _, card in h if card.endswith("star")}
    assert bottoms, hands  # somebody holds a star: what must stay hidden

    north_card = hands["ann"][0][0]
    south_card, south_face = hands["bob"][0][0], hands["bob"][0][1].split()[0]
    offer = say(console, f"ann> offer {north_card}, 2 money for 1 {south_face} to South secretly I will vote yes")
    assert "✓" in offer, offer
    assert "I will vote yes" in say(console, "bob> /private") and "I will vote yes" not in say(console, "cat> /private")
    # The console's form of Discord's Counter button: the choice to type, its words in place of the placeholders.
    assert '"counter 1 <what you give> for <what you ask>"' in say(console, "bob> /private")
    refused = say(console, "cat> decline 1")
    assert refused.count("✗") == 1 and "offer 1 is made to South, not to East" in refused
    accepted = say(console, f"bob> accept 1 with {south_card}")
    assert "✓" in accepted and f"cards {south_card}" in accepted, accepted
    assert (north_card, hands["ann"][0][1]) in held(console, "bob") and (south_card, hands["bob"][0][1]) in held(console, "ann")

    public = "".join(say(console, f"cat> {c}") for c in ("/state", "/ledger", "/status")) + service.export()
    public += json.dumps(service.state()) + service.status()
    for who in ("ann", "bob"):  # what cat reads of the others' answers: nothing of a bottom nor of the promise
        public += say(console, f"{who}> sell nothing.1")
    assert "star" not in public and "I will vote yes" not in public

    for who in PLAYERS.values():
        say(console, f"{who}> done")
    assert service.summary().phase == "auction"
    say(console, "cat> bid 2")
    say(console, "ann> pass")
    say(console, "bob> pass")
    say(console, "ann> vote no")
    say(console, "cat> vote no")
    assert service.summary().over, service.status()

    log = [json.loads(line) for line in service.export().splitlines()]
    assert all("secret" not in e for e in log), "the export never carries the private store"
    assert sum(1 for e in log if e["kind"] == "secret.sealed") == 10  # the deck key and nine cards
    assert sum(1 for e in log if e["kind"] == "secret.revealed") == 11  # and the promise
    events = [Event.from_dict(e) for e in log]
    result = verify(load_ruleset("market-day", service.data_dir), events, {})
    assert_verified_but_for_the_test_chain(result)
    assert any("11 sealed content(s) revealed and replayed as the bot's fold ran them; 10 of the 10" in n
               for n in result.notes), result.notes
