"""A drand client that trusts no relay: every beacon is checked against the pinned chain before it is returned.

For a round it: waits until the round's time (genesis + (round - 1) * period) when that is near, and says
``NotYet`` when it is further off than the caller will wait; then asks the relays in turn, with a timeout on
every request, bounded retries with exponential backoff and failover to the next relay. From each relay it
first checks ``/{chain hash}/info`` against the pinned chain (once per relay), then takes
``/{chain hash}/public/{round}`` and checks the round number, the BLS signature and the randomness field.

Every fault becomes a ``RelayFault``, one line naming the relay and what was wrong. Faults that waiting can
cure (down, slow, HTTP 5xx, the round not published yet) are retried; a relay that lies or talks nonsense
(another chain, another round, a bad signature, not JSON) is not asked again in the same fetch. When no relay
gives a verified beacon, ``DrandUnavailable`` lists each relay's last fault on one line.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import requests

from bot.drand.relays import DEFAULT_RELAYS
from engine.chance.drand import QUICKNET, BadBeacon, Beacon, Chain, check_beacon

USER_AGENT = "Legatus/0.1 (play-by-forum campaign bot; reads drand beacons)"
MAX_BODY = 64 * 1024  # an /info or /public answer is a few hundred bytes: more is not a drand relay
# Statuses that say "try later": drand relays answer 425 Too Early (some 404) for a round they do not have yet.
NOT_PUBLISHED = (404, 425)
TRANSIENT = (408, 429, 500, 502, 503, 504)


class RelayFault(Exception):
    """Why one relay gave no verified beacon, as one line; ``retryable`` when trying later can help."""

    def __init__(self, relay: str, problem: str, *, retryable: bool) -> None:
        super().__init__(f"drand relay {relay}: {problem}")
        self.relay = relay
        self.problem = problem
        self.retryable = retryable


class DrandUnavailable(Exception):
    """No relay gave a verified beacon for the round; the message lists each relay's last fault."""

    def __init__(self, round_number: int, faults: Sequence[RelayFault]) -> None:
        detail = "; ".join(f"{fault.relay}: {fault.problem}" for fault in faults)
        super().__init__(f"no drand relay gave a verified beacon for round {round_number}: {detail}")
        self.round = round_number
        self.faults = tuple(faults)


class NotYet(Exception):
    """The round is not produced yet and is further off than the caller would wait: not a fault, ask again at ``due``."""

    def __init__(self, round_number: int, due: int, now: float) -> None:
        when = dt.datetime.fromtimestamp(due, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        super().__init__(f"drand round {round_number} is not produced yet: it is due at {when} UTC, "
                         f"in {due - now:.0f} s")
        self.round = round_number
        self.due = due


class DrandClient:
    """Fetches verified beacons of ``chain`` (quicknet unless told) from ``relays``, in that order of preference.

    ``clock`` and ``sleep`` are the wall clock and the pause used for waiting on a round and for backoff; tests
    pass fake ones. ``timeout`` bounds every request (seconds, connecting and each read, and the whole answer
    within twice that). ``attempts`` passes over the relays, the n-th after a pause of ``backoff * 2**(n-2)``.
    """

    def __init__(
        self,
        chain: Chain = QUICKNET,
        relays: Sequence[str] = DEFAULT_RELAYS,
        *,
        timeout: float = 5.0,
        attempts: int = 4,
        backoff: float = 0.5,
        session: requests.Session | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not relays:
            raise ValueError("a drand client needs at least one relay")
        if timeout <= 0 or attempts < 1 or backoff < 0:
            raise ValueError(f"need timeout > 0, attempts >= 1 and backoff >= 0, "
                             f"not {timeout}, {attempts} and {backoff}")
        self.chain = chain
        self.relays = tuple(r.rstrip("/") for r in relays)
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        self.session = session or requests.Session()
        self.clock = clock
        self.sleep = sleep
        self._chain_checked: set[str] = set()  # relays whose /info matched: asked once per client

    def fetch(self, round_number: int, wait_up_to: float = 60.0, attempts: int | None = None) -> Beacon:
        """The verified beacon of that round, waiting up to ``wait_up_to`` seconds for it to be produced.
        ``attempts``: passes over the relays for this call (default the client's).

        Raises ``NotYet`` when the round is due later than that, ``DrandUnavailable`` when no relay gave it.
        """
        delay = self.delay_until(round_number, wait_up_to)
        if delay > 0:
            self.sleep(delay)
        return self._fetch_due(round_number, attempts)

    async def fetch_async(self, round_number: int, wait_up_to: float = 60.0) -> Beacon:
        """``fetch`` for the bot's event loop: the wait is an asyncio sleep and the requests run in a thread."""
        delay = self.delay_until(round_number, wait_up_to)
        if delay > 0:
            await asyncio.sleep(delay)
        return await asyncio.to_thread(self._fetch_due, round_number)

    def delay_until(self, round_number: int, wait_up_to: float) -> float:
        """Seconds until the round is produced (0 when it is), or ``NotYet`` when that is over ``wait_up_to``."""
        if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
            raise ValueError(f"{round_number!r} is not a drand round: rounds are whole numbers from 1")
        due = self.chain.time_of(round_number)
        now = self.clock()
        if due - now > wait_up_to:
            raise NotYet(round_number, due, now)
        return max(0.0, due - now)

    def _fetch_due(self, round_number: int, attempts: int | None = None) -> Beacon:
        last: dict[str, RelayFault] = {}
        given_up: set[str] = set()
        for attempt in range(attempts or self.attempts):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1))
            for relay in self.relays:
                if relay in given_up:
                    continue
                try:
                    self._check_chain(relay)
                    return self._beacon(relay, round_number)
                except RelayFault as fault:
                    last[relay] = fault
                    if not fault.retryable:
                        given_up.add(relay)
            if len(given_up) == len(self.relays):
                break
        raise DrandUnavailable(round_number, [last[r] for r in self.relays if r in last])

    def _check_chain(self, relay: str) -> None:
        if relay in self._chain_checked:
            return
        status, info = self._get(relay, "info")
        if status in NOT_PUBLISHED:
            raise RelayFault(relay, f"does not serve chain {self.chain.name!r} ({self.chain.hash[:8]}…): "
                                    f"HTTP {status} on /info", retryable=False)
        problems = self.chain.info_problems(info)
        if problems:
            raise RelayFault(relay, f"its chain info does not match the pinned chain {self.chain.name!r}: "
                                    + ", ".join(problems), retryable=False)
        self._chain_checked.add(relay)

    def _beacon(self, relay: str, round_number: int) -> Beacon:
        status, answer = self._get(relay, f"public/{round_number}")
        if status in NOT_PUBLISHED:
            raise RelayFault(relay, f"round {round_number} is not published yet (HTTP {status})", retryable=True)
        if not isinstance(answer, dict):
            raise RelayFault(relay, f"answered round {round_number} with {_snippet(answer)}, not a beacon object",
                             retryable=False)
        got = answer.get("round")
        if got is None:
            raise RelayFault(relay, f"answered round {round_number} without a round number", retryable=False)
        if got != round_number or isinstance(got, bool):
            raise RelayFault(relay, f"answered round {_snippet(got)} when round {round_number} was asked",
                             retryable=False)
        try:
            beacon = check_beacon(round_number, answer.get("signature"), self.chain)  # type: ignore[arg-type]  # BadBeacon if not text
        except BadBeacon as bad:
            raise RelayFault(relay, f"round {round_number}: {bad}", retryable=False) from None
        claimed = answer.get("randomness")
        if claimed is not None and (not isinstance(claimed, str) or claimed.lower() != beacon.randomness):
            raise RelayFault(relay, f"round {round_number}: its randomness {_snippet(claimed)} is not SHA-256 of "
                                    f"its signature ({beacon.randomness[:12]}…)", retryable=False)
        return beacon

    def _get(self, relay: str, path: str) -> tuple[int, Any]:
        """The status and, for a 200, the parsed JSON of ``{relay}/{chain hash}/{path}``; faults otherwise."""
        url = f"{relay}/{self.chain.hash}/{path}"
        started = time.monotonic()
        try:
            with self.session.get(url, timeout=self.timeout, stream=True,
                                  headers={"User-Agent": USER_AGENT, "Accept": "application/json"}) as response:
                status = response.status_code
                body = b""
                for chunk in response.iter_content(4096):
                    body += chunk
                    if len(body) > MAX_BODY:
                        raise RelayFault(relay, f"its answer to /{path} is over {MAX_BODY // 1024} KiB: "
                                                "not a drand relay", retryable=False)
                    if time.monotonic() - started > 2 * self.timeout:
                        raise RelayFault(relay, f"its answer to /{path} took over {2 * self.timeout:g} s",
                                         retryable=True)
        except requests.RequestException as error:
            raise RelayFault(relay, f"/{path}: {self._describe(error)}", retryable=True) from None
        if status in NOT_PUBLISHED:
            return status, None
        if status != 200:
            raise RelayFault(relay, f"/{path} answered HTTP {status}", retryable=status in TRANSIENT)
        try:
            return status, json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise RelayFault(relay, f"/{path} answered something that is not JSON: "
                                    f"{_snippet(body.decode('utf-8', 'replace'))}", retryable=False) from None

    def _describe(self, error: requests.RequestException) -> str:
        text = str(error)
        # requests reports a body that stalls mid-read as a ConnectionError wrapping a read timeout.
        if isinstance(error, requests.Timeout) or "timed out" in text.lower():
            return f"no answer within {self.timeout:g} s"
        if "refused" in text.lower():
            return "connection refused"
        if isinstance(error, requests.ConnectionError):
            return f"cannot connect ({_snippet(text, 80)})"
        return f"request failed ({type(error).__name__}: {_snippet(text, 80)})"


def _snippet(value: object, limit: int = 40) -> str:
    """A short, single-line quotation of what a relay sent, for a fault message."""
    text = value if isinstance(value, str) else json.dumps(value) if _is_json(value) else repr(value)
    text = " ".join(text.split())
    quoted = repr(text) if isinstance(value, str) else text
    return quoted if len(quoted) <= limit else quoted[:limit - 1] + "…"


def _is_json(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
