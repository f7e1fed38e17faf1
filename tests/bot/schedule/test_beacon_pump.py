"""A campaign on drand moves on when its round comes, not when somebody next posts: the bot records the beacon,
posts what it caused (with the question or turn that follows, mentioning its player), tries again while the relay is
late, and after a restart picks up a round that came while it was down.

The relay is asked in process (``InProcessSession``): with an HTTP relay and the client's 2 s timeout, a loaded
machine made the answer late and the test failed (issue 32); what is tested here is the pump, not the transport."""
from __future__ import annotations

import asyncio
import itertools
import json
from datetime import timedelta
from pathlib import Path

from sqlmodel import Session

from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule import scheduler as S
from bot.schedule.beacon_pump import job_id
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store import sealed as sealed_store
from bot.store.db import open_engine
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, InProcessSession
from tests.bot.schedule.scheduler_drive import fake_fetch
from tests.games.mediterranean_empires_players import START, standard_set_up

PLAYERS = {"Player A": "ann", "Player B": "bob"}


def _service(db: Path, clock: FixedClock, relay: FakeRelay) -> Legatus:
    service = Legatus(open_engine(db), clock=clock)
    # Seal salts of the test's own: the pick key's salt decides which marker Player A draws, and a random one drew
    # the Plague about once in a dozen runs, whose own roll then held Player B's turn back (the test failed so).
    salts = itertools.count(1)
    service.salt = lambda: f"{next(salts):032x}"
    # The timeout only bounds reading an answer already in memory here; a minute cannot be missed.
    session = InProcessSession(relay)
    # The client waits on the test's clock too: no step depends on the machine's.
    client = DrandClient(TEST_CHAIN, [relay.url], timeout=60, attempts=1, session=session,  # type: ignore[arg-type]
                         clock=lambda: clock.now().timestamp())
    service.beacons = BeaconSource(client,
                                   test_chain=True,  # the tests hold its key: an explicit opt-in
                                   clock=lambda: clock.now().timestamp())
    return service


def test_a_roll_is_recorded_when_its_round_comes_and_after_a_restart(tmp_path: Path) -> None:
    clock = FixedClock(START)
    relay = FakeRelay()

    async def scenario() -> None:
        service = _service(tmp_path / "me.db", clock, relay)
        assert service.create_campaign("sea", "mediterranean-empires", "gm", dict(PLAYERS)).changed
        standard_set_up(service, "sea")
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=fake_fetch, run=False)
        assert "Waiting for the roll" in service.post("ann", "draw").render()
        assert scheduler.get_job(job_id(1)) is not None, "the round's time has its job"
        # The relay is late: the job tries again a few seconds on, and the game waits.
        relay.produced_up_to = 0
        await S.run_due(scheduler, clock.now() + timedelta(seconds=10), clock)
        assert poster.sent == [] and scheduler.get_job(job_id(1)) is not None
        relay.produced_up_to = None
        await S.run_due(scheduler, clock.now() + timedelta(seconds=10), clock)
        [sent] = poster.sent
        assert "Player A draws a stratagem marker (sealed: " in sent.text
        # The marker the job sealed is kept in the private store, or its claim could never be revealed.
        sealed = [e for e in map(json.loads, service.export("sea").splitlines()) if e["kind"] == "secret.sealed"]
        with Session(service.engine) as session:
            kept = sealed_store.all_for(session, 1)
        assert sealed and all(e["seq"] in kept for e in sealed), (sealed, kept)
        assert "bob: it is your turn (Player B: draw a stratagem marker" in sent.text and sent.ping == ["bob"]
        S.install(None)
        scheduler.shutdown(wait=False)

        # Bob draws while no bot runs (a console post); the bot starts after the round came and records it.
        offline = _service(tmp_path / "me.db", clock, relay)
        assert "Waiting for the roll" in offline.post("bob", "draw").render()
        clock.advance(timedelta(minutes=5))
        again = _service(tmp_path / "me.db", clock, relay)
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(again, poster, clock, fetch=fake_fetch, run=False)
        await S.run_due(scheduler, clock.now(), clock)
        assert any("Player B draws a stratagem marker (sealed: " in s.text for s in poster.sent), [s.text for s in poster.sent]
        assert again.summary("sea").phase == "stratagems" and not again.ruleset_of("sea").needs(again.folded("sea")[1])
        S.install(None)
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())
    # Each service's client asked the relay once for the chain and once for its round, all in process.
    assert [h.removeprefix(f"/{TEST_CHAIN.hash}/") for h in relay.hits] == [
        "info", "public/31178138", "info", "public/31178145"]
