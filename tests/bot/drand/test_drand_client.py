"""The drand client against fake relays on 127.0.0.1: the test chain, the real recorded quicknet answers, and
every fault a relay can show (down, slow, wrong round, bad signature, wrong chain, not yet, garbage)."""
from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from tests.bot.drand.drand_fakes import (
    RECORDED_BEACONS,
    TEST_CHAIN,
    TEST_SECRET,
    FakeRelay,
    FakeTime,
    chain_info,
    public_key,
    recorded_quicknet_relay,
    refused_url,
    serving,
    sign,
    signed_beacon,
)

from bot.drand.client import DrandClient, DrandUnavailable, NotYet
from engine.chance import drand

BLS_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001


@pytest.fixture
def relays() -> Iterator[list[FakeRelay]]:
    """Three running relays of the test chain, all well-behaved until a test changes one."""
    with ExitStack() as stack:
        yield [stack.enter_context(serving(FakeRelay())) for _ in range(3)]


def client(*urls: str, **options: object) -> DrandClient:
    options = {"timeout": 2.0, "attempts": 2, "backoff": 0.0, **options}
    return DrandClient(TEST_CHAIN, urls, **options)  # type: ignore[arg-type]


def publics(relay: FakeRelay) -> list[str]:
    return [hit for hit in relay.hits if "/public/" in hit]


def test_the_test_chain_is_what_its_pinned_constants_say() -> None:
    assert TEST_SECRET == int.from_bytes(hashlib.sha256(b"legatus drand test chain").digest(), "big") % BLS_ORDER
    assert public_key(TEST_SECRET) == TEST_CHAIN.public_key
    assert drand.check_beacon(7, sign(7), TEST_CHAIN).round == 7


def test_a_round_is_fetched_verified_and_its_randomness_computed(relays: list[FakeRelay]) -> None:
    beacon = client(relays[0].url).fetch(42)
    assert beacon == drand.Beacon(42, sign(42), hashlib.sha256(bytes.fromhex(sign(42))).hexdigest())
    assert relays[0].hits == [f"/{TEST_CHAIN.hash}/info", f"/{TEST_CHAIN.hash}/public/42"]


def test_the_chain_info_is_checked_once_per_relay(relays: list[FakeRelay]) -> None:
    c = client(relays[0].url)
    assert [c.fetch(r).round for r in (5, 6, 7)] == [5, 6, 7]
    assert [h.rsplit("/", 1)[-1] for h in relays[0].hits] == ["info", "5", "6", "7"]


@pytest.mark.parametrize("round_number", sorted(RECORDED_BEACONS))
def test_real_quicknet_answers_served_as_recorded(round_number: int) -> None:
    with serving(recorded_quicknet_relay()) as relay:
        beacon = DrandClient(drand.QUICKNET, [relay.url], timeout=2.0).fetch(round_number)
    recorded = RECORDED_BEACONS[round_number]
    assert beacon == drand.Beacon(round_number, recorded["signature"], recorded["randomness"])


def test_a_quicknet_client_refuses_the_test_chain_s_relay(relays: list[FakeRelay]) -> None:
    # The test relay has nothing under quicknet's hash: the production pins do not accept a stand-in.
    with pytest.raises(DrandUnavailable, match=r"does not serve chain 'quicknet' \(52db9ba7…\): HTTP 404 on /info"):
        DrandClient(drand.QUICKNET, [relays[0].url], timeout=2.0).fetch(123)


def test_a_relay_that_is_down_is_skipped(relays: list[FakeRelay]) -> None:
    down = refused_url()
    assert client(down, relays[1].url).fetch(9).round == 9
    with pytest.raises(DrandUnavailable) as raised:
        client(down, attempts=3).fetch(9)
    assert str(raised.value) == f"no drand relay gave a verified beacon for round 9: {down}: /info: connection refused"


def test_a_slow_relay_times_out_and_the_next_answers(relays: list[FakeRelay]) -> None:
    relays[0].delay = 1.5
    assert client(relays[0].url, relays[1].url, timeout=0.3).fetch(10).round == 10
    assert relays[0].hits and relays[1].hits  # the slow one was asked first, then the next
    with pytest.raises(DrandUnavailable, match=f"{relays[0].url}: /info: no answer within 0.3 s$"):
        client(relays[0].url, timeout=0.3, attempts=1).fetch(10)


def test_a_slow_relay_is_tried_again_after_a_backoff(relays: list[FakeRelay]) -> None:
    # Down or slow may pass: a relay that timed out is asked again in the next pass, after the backoff pause.
    fake = FakeTime(time.time())
    relays[0].delay = 1.0
    fake.on_sleep = lambda now: setattr(relays[0], "delay", 0.0)
    c = client(relays[0].url, timeout=0.3, attempts=3, backoff=0.5, clock=fake.clock, sleep=fake.sleep)
    assert c.fetch(11).round == 11
    assert fake.sleeps == [0.5] and len([h for h in relays[0].hits if h.endswith("/info")]) == 2


def test_a_wrong_round_is_refused_and_that_relay_not_asked_again(relays: list[FakeRelay]) -> None:
    relays[0].beacon = lambda r: signed_beacon(r + 1)  # validly signed, but another round
    assert client(relays[0].url, relays[1].url, attempts=3).fetch(12).round == 12
    with pytest.raises(DrandUnavailable, match=f"{relays[0].url}: answered round 13 when round 12 was asked$"):
        client(relays[0].url, attempts=3).fetch(12)
    assert len(publics(relays[0])) == 2  # once in each fetch: lying is not retried


def test_a_bad_signature_is_refused(relays: list[FakeRelay]) -> None:
    relays[0].beacon = lambda r: {**signed_beacon(r), "signature": sign(r + 1),
                                  "randomness": drand.randomness(sign(r + 1))}
    relays[1].beacon = lambda r: signed_beacon(r, secret=TEST_SECRET + 1)  # another key's signature
    assert client(relays[0].url, relays[1].url, relays[2].url).fetch(20).signature == sign(20)
    with pytest.raises(DrandUnavailable) as raised:
        client(relays[0].url, relays[1].url).fetch(20)
    message = str(raised.value)
    assert message.count("round 20: the signature of round 20 does not verify under legatus test chain's "
                         "public key") == 2
    assert "\n" not in message


def test_a_signature_that_is_not_a_point_is_named(relays: list[FakeRelay]) -> None:
    relays[0].beacon = lambda r: {"round": r, "signature": "ab" * 10}
    with pytest.raises(DrandUnavailable, match="round 21: the signature 'abababab.* is not a 48-byte compressed G1"):
        client(relays[0].url).fetch(21)


def test_a_randomness_field_that_does_not_match_is_refused(relays: list[FakeRelay]) -> None:
    relays[0].beacon = lambda r: {**signed_beacon(r), "randomness": "00" * 32}
    with pytest.raises(DrandUnavailable, match="round 22: its randomness '0000.* is not SHA-256 of its signature"):
        client(relays[0].url).fetch(22)
    relays[0].beacon = lambda r: {k: v for k, v in signed_beacon(r).items() if k != "randomness"}
    assert client(relays[0].url).fetch(22).randomness == drand.randomness(sign(22))  # absent is fine


@pytest.mark.parametrize("change, says", [
    ({"public_key": public_key(TEST_SECRET + 1)}, "public_key is '8dcb50c2941e8cbaf15907…, expected 'b5e9f43f"),
    ({"period": 30}, "period is 30, expected 3"),
    ({"genesis_time": 1_700_000_003}, "genesis_time is 1700000003, expected 1700000000"),
    ({"schemeID": "pedersen-bls-chained"}, "schemeID is 'pedersen-bls-chained'"),
    ({"hash": drand.QUICKNET.hash}, "hash is '52db9ba7"),
])
def test_wrong_chain_info_is_refused_before_any_beacon(relays: list[FakeRelay], change: dict, says: str) -> None:
    relays[0].info = {**chain_info(TEST_CHAIN), **change}
    assert client(relays[0].url, relays[1].url).fetch(30).round == 30
    with pytest.raises(DrandUnavailable) as raised:
        client(relays[0].url).fetch(30)
    assert f"{relays[0].url}: its chain info does not match the pinned chain 'legatus test chain': " in str(raised.value)
    assert says in str(raised.value)
    assert publics(relays[0]) == []  # its beacons were never asked for


def test_another_chain_s_relay_signing_validly_under_its_own_key_is_refused(relays: list[FakeRelay]) -> None:
    # An impostor serving a whole consistent chain of its own under the test chain's hash.
    other = drand.Chain("impostor", TEST_CHAIN.hash, public_key(TEST_SECRET + 2), TEST_CHAIN.genesis, 3)
    relays[0].info = chain_info(other)
    relays[0].beacon = lambda r: signed_beacon(r, secret=TEST_SECRET + 2)
    with pytest.raises(DrandUnavailable, match="its chain info does not match"):
        client(relays[0].url).fetch(31)


def test_a_round_not_yet_due_is_waited_for(relays: list[FakeRelay]) -> None:
    due = TEST_CHAIN.time_of(50)
    fake = FakeTime(due - 7.25)
    relays[0].produced_up_to = 49
    fake.on_sleep = lambda now: setattr(relays[0], "produced_up_to", TEST_CHAIN.round_at(now))
    beacon = client(relays[0].url, clock=fake.clock, sleep=fake.sleep).fetch(50, wait_up_to=10)
    assert beacon.round == 50 and fake.sleeps == [7.25]
    assert publics(relays[0]) == [f"/{TEST_CHAIN.hash}/public/50"]  # nothing asked before it was due


def test_a_round_due_later_than_the_caller_waits_is_not_yet_and_asks_nobody(relays: list[FakeRelay]) -> None:
    fake = FakeTime(TEST_CHAIN.time_of(50) - 100)
    c = client(relays[0].url, clock=fake.clock, sleep=fake.sleep)
    with pytest.raises(NotYet) as raised:
        c.fetch(50, wait_up_to=60)
    assert raised.value.due == TEST_CHAIN.time_of(50) and raised.value.round == 50
    assert str(raised.value) == "drand round 50 is not produced yet: it is due at 2023-11-14 22:15:47 UTC, in 100 s"
    assert relays[0].hits == [] and fake.sleeps == []


def test_a_relay_lagging_behind_the_clock_is_retried_after_a_backoff(relays: list[FakeRelay]) -> None:
    fake = FakeTime(TEST_CHAIN.time_of(60) + 0.1)
    relays[0].produced_up_to = 59
    fake.on_sleep = lambda now: setattr(relays[0], "produced_up_to", 60)
    c = client(relays[0].url, attempts=4, backoff=0.5, clock=fake.clock, sleep=fake.sleep)
    assert c.fetch(60).round == 60 and fake.sleeps == [0.5]
    relays[1].produced_up_to = 59  # never catches up: bounded, with growing pauses
    c = client(relays[1].url, attempts=4, backoff=0.5, clock=fake.clock, sleep=fake.sleep)
    with pytest.raises(DrandUnavailable, match=r"round 60 is not published yet \(HTTP 425\)$"):
        c.fetch(60)
    assert fake.sleeps[1:] == [0.5, 1.0, 2.0] and len(publics(relays[1])) == 4


@pytest.mark.parametrize("where, status, body, says", [
    ("public", 200, b"<html><body><h1>Welcome to nginx!</h1></body></html>",
     "/public/70 answered something that is not JSON: '<html><body><h1>Welcome to nginx!</h1>…"),
    ("info", 200, b"<!DOCTYPE html><title>Just a moment...</title>",
     "/info answered something that is not JSON: '<!DOCTYPE html><title>Just a moment...…"),
    ("public", 200, b'{"round": 70, "signa', "/public/70 answered something that is not JSON: '{\"round\": 70"),
    ("public", 200, b"\xff\xfe\x00garbage", "/public/70 answered something that is not JSON"),
    ("public", 200, b'["round", 70]', 'answered round 70 with ["round", 70], not a beacon object'),
    ("public", 200, b'{"signature": "ab"}', "answered round 70 without a round number"),
    ("public", 200, b'{"round": "70", "signature": "ab"}', "answered round '70' when round 70 was asked"),
    ("info", 200, b'"quicknet"', "its chain info does not match the pinned chain 'legatus test chain': chain info is "
                                 "not a JSON object but 'quicknet'"),
    ("public", 403, b"forbidden", "/public/70 answered HTTP 403"),
])
def test_garbage_answers_are_quoted(relays: list[FakeRelay], where: str, status: int, body: bytes, says: str) -> None:
    relays[0].raw[where] = (status, body)
    assert client(relays[0].url, relays[1].url).fetch(70).round == 70
    with pytest.raises(DrandUnavailable) as raised:
        client(relays[0].url, attempts=3).fetch(70)
    message = str(raised.value)
    assert says in message and "\n" not in message, message
    assert len([h for h in relays[0].hits if h.endswith("/70") or h.endswith("/info")]) <= 4  # not retried


def test_a_server_error_is_retried(relays: list[FakeRelay]) -> None:
    relays[0].raw["public"] = (503, b"Service Unavailable")
    fake = FakeTime(time.time())
    fake.on_sleep = lambda now: relays[0].raw.clear()
    assert client(relays[0].url, attempts=2, backoff=1.0, clock=fake.clock, sleep=fake.sleep).fetch(71).round == 71
    assert fake.sleeps == [1.0]


def test_an_oversized_answer_is_refused(relays: list[FakeRelay]) -> None:
    relays[0].raw["public"] = (200, b'{"round": 72, "pad": "' + b"x" * 100_000 + b'"}')
    with pytest.raises(DrandUnavailable, match="its answer to /public/72 is over 64 KiB: not a drand relay"):
        client(relays[0].url).fetch(72)


def test_every_relay_s_last_fault_is_listed_in_order(relays: list[FakeRelay]) -> None:
    down = refused_url()
    relays[1].beacon = lambda r: signed_beacon(r + 1)
    relays[2].raw["public"] = (200, b"<html>")
    with pytest.raises(DrandUnavailable) as raised:
        client(down, relays[1].url, relays[2].url).fetch(80)
    assert str(raised.value) == (
        f"no drand relay gave a verified beacon for round 80: {down}: /info: connection refused; "
        f"{relays[1].url}: answered round 81 when round 80 was asked; "
        f"{relays[2].url}: /public/80 answered something that is not JSON: '<html>'"
    )
    assert [f.retryable for f in raised.value.faults] == [True, False, False]


def test_bad_requests_and_settings_are_refused() -> None:
    c = client("http://127.0.0.1:9")
    for bad in (0, -1, True, "5", 1.5):
        with pytest.raises(ValueError, match="is not a drand round"):
            c.fetch(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one relay"):
        DrandClient(TEST_CHAIN, [])
    with pytest.raises(ValueError, match="need timeout > 0"):
        DrandClient(TEST_CHAIN, ["http://127.0.0.1:9"], timeout=0)


def test_the_async_wrapper_waits_without_blocking_the_loop(relays: list[FakeRelay]) -> None:
    # A chain whose round 3 is due within 0.2 to 1.2 s, served live (earlier asks get 425) and slowly.
    due = math.ceil(time.time() + 0.2)
    chain = drand.Chain("soon", TEST_CHAIN.hash, TEST_CHAIN.public_key, genesis=due - 2, period=1)
    relays[0].chain = chain  # the same hash and key, the soon chain's times in its info
    relays[0].live = True
    relays[0].delay = 0.2

    async def run() -> tuple[drand.Beacon, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        beacon = await DrandClient(chain, [relays[0].url], timeout=2.0, attempts=1).fetch_async(3, wait_up_to=5)
        task.cancel()
        return beacon, ticks

    beacon, ticks = asyncio.run(run())
    assert beacon.round == 3 and beacon.signature == sign(3)
    assert ticks >= 10  # the loop kept running while the client waited and fetched
    assert publics(relays[0]) == [f"/{TEST_CHAIN.hash}/public/3"]  # asked once, when it was due


def test_the_async_wrapper_says_not_yet() -> None:
    fake = FakeTime(TEST_CHAIN.time_of(100) - 1000)
    c = client("http://127.0.0.1:9", clock=fake.clock)
    with pytest.raises(NotYet):
        asyncio.run(c.fetch_async(100, wait_up_to=60))

