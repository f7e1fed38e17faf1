"""Campaigns for the site's tests: a Mediterranean Empires game on quicknet with real recorded beacons (rounds
657413 and 9367912, tests/engine/chance/data/quicknet_recorded.json) and sealed content (the bot's stratagem pick
keys and the markers drawn), played through the service as the bot plays it."""
from __future__ import annotations

import hashlib
import itertools
from datetime import datetime, timedelta, timezone
from pathlib import Path
from unittest import mock

from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule.clock import FixedClock
from bot.service import legatus as legatus_module
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.chance import drand
from tests.bot.drand.drand_fakes import recorded_quicknet_relay, serving

ROUNDS = (657413, 9367912)
NAME = "Mediterranean drand"


def _before(round_number: int) -> datetime:
    # 11 s before the round: the first round 10 s ahead (the shell's margin) is that round.
    return datetime.fromtimestamp(drand.QUICKNET.time_of(round_number) - 11, timezone.utc)


def _salt(number: int, size: int) -> str:
    """A salt of the test's own, as unlikely as a random one to appear anywhere by chance."""
    return hashlib.sha256(f"site test salt {number}".encode()).hexdigest()[:2 * size]


def mediterranean_empires_on_quicknet(db: Path) -> Legatus:
    """Both players draw a stratagem marker, each roll bound to one of the recorded rounds and settled by its beacon.
    The seals' salts are the test's own: the pick key's salt decides the markers, and a random one may draw the
    Plague, whose roll the game then waits for."""
    clock = FixedClock(_before(ROUNDS[0]))
    salts = itertools.count(1)
    with serving(recorded_quicknet_relay()) as relay, mock.patch.object(
            legatus_module.secrets_module, "token_hex", lambda n=16: _salt(next(salts), n)):
        service = Legatus(open_engine(db), clock=clock)
        service.beacons = BeaconSource(DrandClient(drand.QUICKNET, [relay.url], timeout=2, attempts=1),
                                       clock=lambda: clock.now().timestamp())
        created = service.create_campaign(NAME, "mediterranean-empires", "gm", {"Player A": "ann", "Player B": "bob"},
                                          randomness="drand")
        assert created.changed, created
        for author in ("ann", "bob"):  # the documented set-up first (3.1-3.2): it binds no roll
            assert service.post(author, "standard set-up", NAME).changed
        for round_number, author in zip(ROUNDS, ("ann", "bob")):
            clock.moment = _before(round_number)
            reply = service.post(author, "draw", NAME)
            assert reply.ok and f"round {round_number}" in service.post("gm", "/ledger", NAME).render(), reply.render()
            clock.advance(timedelta(seconds=30))
            assert service.post("gm", "/ledger", NAME).ok  # the round has come: its beacon is recorded
        assert service.export(NAME).count('"beacon.recorded"') == 2
    return service
