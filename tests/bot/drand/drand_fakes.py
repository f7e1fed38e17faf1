"""A fake drand HTTP relay on 127.0.0.1, a tests-only chain whose key the tests hold, and a fake clock.

The test chain uses quicknet's scheme exactly (G1 signatures over RFC 9380 hash-to-curve with quicknet's DST,
the public key on G2), so a beacon it signs goes through the same checks as a real one; only its secret is
known here. The relay also serves the real recorded quicknet answers, byte for byte as recorded.
"""
from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pyblst

from engine.chance import drand
from engine.chance.pinned_chain import NOT_VERIFIABLE

RECORDED = json.loads(
    (Path(__file__).resolve().parents[2] / "engine" / "chance" / "data" / "quicknet_recorded.json").read_text()
)
RECORDED_BEACONS: dict[int, dict[str, Any]] = {b["round"]: b for b in RECORDED["beacons"]}

# The test chain: secret = SHA-256("legatus drand test chain") mod r; the key and hash are pinned here and
# test_drand_client.py checks the key is that secret times the G2 generator.
TEST_SECRET = 0x548EA69BEC4B4432AC78D2124EE9A634B5BD77BC289FBCF69D3EC74A06360E6E
TEST_CHAIN = drand.Chain(
    name="legatus test chain",
    hash="b89b9540188739b7ee0b60f2e72570d9e2734275ea5623ac507f59c1f78b6bf3",
    public_key=(
        "b5e9f43f1d8ef6c77ad0b73f8c3750850bc09841986b0ab45f877ee35739ae9a7bd803dae37019eaac147ef75b6e46b0"
        "00c44166c09b28672052c298a58b55e505f79dcdeb4e27eacc3f6d5891f2c26ccd11370d00c588fdbb6341e12ed196f6"
    ),
    genesis=1_700_000_000,
    period=3,
)


def sign(round_number: int, secret: int = TEST_SECRET) -> str:
    """The test chain's signature of a round: secret * H(SHA-256(round as 8 big-endian bytes))."""
    point = pyblst.BlstP1Element.hash_to_group(drand.message(round_number), drand.DST)
    return point.scalar_mul(secret).compress().hex()


def public_key(secret: int) -> str:
    return pyblst.BlstP2Element.uncompress(bytes.fromhex(drand.G2_GENERATOR)).scalar_mul(secret).compress().hex()


def chain_info(chain: drand.Chain) -> dict[str, Any]:
    """/info as a relay serves it."""
    return {"public_key": chain.public_key, "period": chain.period, "genesis_time": chain.genesis,
            "hash": chain.hash, "groupHash": "00" * 32, "schemeID": chain.scheme,
            "metadata": {"beaconID": chain.name}}


def signed_beacon(round_number: int, secret: int = TEST_SECRET) -> dict[str, Any]:
    signature = sign(round_number, secret)
    return {"round": round_number, "randomness": drand.randomness(signature), "signature": signature}


@dataclass
class FakeRelay:
    """What one relay answers; tests change the fields to make it misbehave. ``hits`` logs the paths asked."""

    chain: drand.Chain = TEST_CHAIN
    info: Any = None  # the /info body (JSON); None: the chain's own
    beacon: Callable[[int], Any] = signed_beacon  # the /public/{round} body (JSON) for a round
    produced_up_to: int | None = None  # rounds above answer 425 Too Early
    live: bool = False  # rounds whose time (by the real clock) has not come answer 425 Too Early
    delay: float = 0.0  # seconds before any answer
    raw: dict[str, tuple[int, bytes]] = field(default_factory=dict)  # "info" / "public": fixed status and body
    hits: list[str] = field(default_factory=list)
    url: str = ""

    def answer(self, path: str) -> tuple[int, bytes]:
        prefix = f"/{self.chain.hash}/"
        if not path.startswith(prefix):
            return 404, b"404 page not found"
        rest = path[len(prefix):]
        if rest == "info":
            if "info" in self.raw:
                return self.raw["info"]
            return 200, json.dumps(self.info if self.info is not None else chain_info(self.chain)).encode()
        if rest.startswith("public/") and rest[7:].isdigit():
            if "public" in self.raw:
                return self.raw["public"]
            round_number = int(rest[7:])
            if self.produced_up_to is not None and round_number > self.produced_up_to:
                return 425, b'{"error":"requested future beacon"}'
            if self.live and round_number > self.chain.round_at(time.time()):
                return 425, b'{"error":"requested future beacon"}'
            return 200, json.dumps(self.beacon(round_number)).encode()
        return 404, b"404 page not found"


def recorded_quicknet_relay() -> FakeRelay:
    """A relay serving the real recorded quicknet info and beacons, as recorded."""
    def beacon(round_number: int) -> Any:
        return RECORDED_BEACONS.get(round_number, {"error": "not recorded"})
    return FakeRelay(chain=drand.QUICKNET, info=RECORDED["info"], beacon=beacon)


@contextmanager
def serving(relay: FakeRelay) -> Iterator[FakeRelay]:
    """Runs the relay on 127.0.0.1 (a free port) until the block ends; sets ``relay.url``."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the http.server name)
            relay.hits.append(self.path)
            if relay.delay:
                time.sleep(relay.delay)
            status, body = relay.answer(self.path)
            try:
                self.send_response(status)
                kind = "text/html" if body.lstrip().startswith(b"<") else "application/json"
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to tell it

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    relay.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield relay
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _Answer:
    """What ``requests`` hands back for a streamed GET, as far as bot/drand/client.py reads it."""

    def __init__(self, status: int, body: bytes) -> None:
        self.status_code, self._body = status, body

    def __enter__(self) -> _Answer:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def iter_content(self, size: int) -> Iterator[bytes]:
        for start in range(0, len(self._body), size):
            yield self._body[start:start + size]


class InProcessSession:
    """A ``requests.Session`` stand-in that asks ``relay`` directly, in the caller's thread: no socket, no server
    thread, so no request can outlast a client timeout however loaded the machine is (the HTTP relay of
    ``serving`` is for the tests of the client's own transport). ``relay.url`` names no host that exists."""

    URL = "http://relay.in-process.invalid"

    def __init__(self, relay: FakeRelay) -> None:
        self.relay = relay
        relay.url = self.URL

    def get(self, url: str, **_: Any) -> _Answer:
        path = url.removeprefix(self.URL)
        self.relay.hits.append(path)
        return _Answer(*self.relay.answer(path))


def refused_url() -> str:
    """The address of a port on 127.0.0.1 where nothing listens: connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class FakeTime:
    """A wall clock the tests move: ``sleep`` advances it and records the pause, then runs ``on_sleep``."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.sleeps: list[float] = []
        self.on_sleep: Callable[[float], None] = lambda now: None

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        self.on_sleep(self.now)


def beacon_source(relay: FakeRelay, clock: Any) -> Any:
    """The bot's beacon source, fetching from ``relay`` over HTTP, on a test clock (``clock.now()``), in test mode:
    the test chain serves campaigns, marked "test chain: not verifiable"."""
    from bot.drand.beacons import BeaconSource
    from bot.drand.client import DrandClient

    return BeaconSource(DrandClient(relay.chain, [relay.url], timeout=2, attempts=1),
                        test_chain=True,  # the tests hold its key: an explicit opt-in
                        clock=lambda: clock.now().timestamp())


def beyond_the_test_chain(result: Any) -> list[str]:
    """A verification's findings but the one every campaign on the test chain gets: what a test means to check."""
    return [str(f) for f in result.findings if not (f.purpose == "drand chain" and NOT_VERIFIABLE in f.detail)]


def assert_verified_but_for_the_test_chain(result: Any) -> None:
    """Everything checks out, and verify still refuses the campaign because its chain is the tests' own."""
    assert not result.ok and any(NOT_VERIFIABLE in f.detail for f in result.findings), [str(f) for f in result.findings]
    assert beyond_the_test_chain(result) == [], beyond_the_test_chain(result)
