"""The bot's beacon source asks relays from inside a post's transaction, which holds the database's write lock: one
pass over the relays, no backoff sleep, and after they failed none asked again for a pause (the flake of
tests/bot/inputs/test_concurrency.py: with the relays down, every post asked for every round its rolls waited for,
two passes and a 0.5 s sleep each, inside the lock, and the other processes' posts gave up as "too busy")."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.drand import beacons
from bot.drand.beacons import RELAYS_DOWN_PAUSE, BeaconSource
from bot.drand.client import DrandClient
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, serving

FAR = 4_000_000_000.0  # a clock long after every round asked below


@pytest.fixture
def relay() -> Iterator[FakeRelay]:
    with serving(FakeRelay()) as served:
        yield served


def test_relays_that_failed_are_asked_once_per_pause_in_one_pass_without_sleeping(relay: FakeRelay) -> None:
    slept: list[float] = []
    now = [100.0]
    client = DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=2, clock=lambda: FAR, sleep=slept.append)
    source = BeaconSource(client, clock=lambda: FAR, test_chain=True, pause_after_failure=RELAYS_DOWN_PAUSE,
                          monotonic=lambda: now[0])
    relay.raw["public"] = (500, b'{"error":"down"}')  # a server error: retryable, as a relay restarting says
    assert source(9) is None
    assert relay.hits == [f"/{TEST_CHAIN.hash}/info", f"/{TEST_CHAIN.hash}/public/9"] and slept == []
    # Within the pause: no relay asked, whatever the round; each is named unreachable for the players.
    now[0] += RELAYS_DOWN_PAUSE - 0.01
    assert source(9) is None and source(10) is None and len(relay.hits) == 2
    assert source.unreachable == {9: (relay.url,), 10: (relay.url,)}
    # The relay is back and the pause over: asked again, and the beacon kept.
    del relay.raw["public"]
    now[0] += 0.02
    beacon = source(10)
    assert beacon is not None and beacon.round == 10 and relay.hits[-1] == f"/{TEST_CHAIN.hash}/public/10"
    assert source.unreachable == {9: (relay.url,)}


def test_a_source_without_a_pause_asks_every_time_with_the_clients_backoff(relay: FakeRelay) -> None:
    slept: list[float] = []
    client = DrandClient(TEST_CHAIN, [relay.url], timeout=2, attempts=2, backoff=0.5, clock=lambda: FAR,
                         sleep=slept.append)
    source = BeaconSource(client, clock=lambda: FAR, test_chain=True)
    relay.raw["public"] = (500, b'{"error":"down"}')
    assert source(9) is None and source(9) is None
    assert relay.hits.count(f"/{TEST_CHAIN.hash}/public/9") == 4 and slept == [0.5, 0.5]


def test_the_bots_source_pauses() -> None:
    source = beacons.from_env({"LEGATUS_DRAND_RELAYS": "http://127.0.0.1:9"})
    assert source.pause_after_failure == RELAYS_DOWN_PAUSE == 3.0
