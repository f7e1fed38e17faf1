"""A drand campaign whose relays cannot be reached (no network, a firewall, relays down) says so as soon as its first
round is out, once: which relays were tried, that the roll waits, and how to choose another source. Before, the
roll waited in silence ("Waiting for the roll ... (1d2147483648)") and only the operator's log spoke."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.drand.drand_fakes import TEST_CHAIN, refused_url
from tests.bot.schedule.scheduler_drive import fake_fetch
from tests.games.mediterranean_empires_players import START, standard_set_up

PLAYERS = {"Player A": "ann", "Player B": "bob"}


def test_unreachable_relays_are_named_once_with_the_way_out(tmp_path: Path) -> None:
    clock = FixedClock(START)
    dead = refused_url()

    async def scenario() -> None:
        service = Legatus(open_engine(tmp_path / "me.db"), clock=clock)
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [dead], timeout=1, attempts=1), test_chain=True,
                                       clock=lambda: clock.now().timestamp())
        assert service.create_campaign("sea", "mediterranean-empires", "gm", dict(PLAYERS)).changed
        standard_set_up(service, "sea")
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=fake_fetch, run=False)
        assert "Waiting for the roll" in service.post("ann", "draw").render()
        for _ in range(3):  # the round comes; the job tries, and tries again 5 s later, twice
            await S.run_due(scheduler, clock.now() + timedelta(seconds=10), clock)
        [told] = poster.sent
        assert told.text.startswith("The drand round this campaign waits for is out, but no relay answered (tried: "
                                    f"{dead}): the roll waits, and Legatus asks again every 5 s."), told.text
        assert "LEGATUS_DRAND_RELAYS" in told.text and "--randomness lottery" in told.text
        assert told.ping == []
        S.install(None)
        scheduler.shutdown(wait=False)

    asyncio.run(scenario())
