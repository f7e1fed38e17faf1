"""HTTP for the lottery sources: timeouts on every request, bounded retries, and faults a GM can read.

Every failure becomes a ``SourceFault``: one line naming the source, the URL and what went wrong,
and whether trying again later can help. Nothing here knows the formats; ``bot.lottery.sources`` does.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import requests
import urllib3

Sleeper = Callable[[float], None]

USER_AGENT = "Legatus/0.1 (play-by-forum campaign bot; reads the published Lotto results)"


def backoff_delays(attempts: int, base: float, factor: float = 2.0, cap: float | None = None) -> tuple[float, ...]:
    """The waits between ``attempts`` tries: base, base*factor, ... each at most ``cap``.

    Deterministic on purpose (no jitter): a handful of bots polling a results page cannot stampede it,
    and a GM reading the log can predict when the next try happens.
    """
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts}")
    if base < 0 or factor < 1:
        raise ValueError("the base delay must be >= 0 and the factor >= 1")
    delays = []
    for i in range(attempts - 1):
        delay = base * factor**i
        delays.append(min(delay, cap) if cap is not None else delay)
    return tuple(delays)


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 3
    base: float = 1.0
    factor: float = 2.0
    cap: float | None = 30.0

    def __post_init__(self) -> None:
        backoff_delays(self.attempts, self.base, self.factor, self.cap)  # refuse a bad policy when it is made

    def delays(self) -> tuple[float, ...]:
        return backoff_delays(self.attempts, self.base, self.factor, self.cap)


class SourceFault(Exception):
    """Why one source gave no usable draw, as one line for the GM."""

    def __init__(
        self, source: str, url: str, problem: str, *, kind: str, retryable: bool,
        earlier: tuple[SourceFault, ...] = (),
    ) -> None:
        super().__init__(f"{source} ({url}): {problem}")
        self.source = source
        self.url = url
        self.problem = problem
        self.kind = kind  # http, timeout, connection, truncated, not-a-zip, format, not-published, not-a-draw-day
        self.retryable = retryable
        self.earlier = earlier  # the mirrors of the same source that failed before this one

    @property
    def lines(self) -> list[str]:
        return [*(line for fault in self.earlier for line in fault.lines), str(self)]


@dataclass(frozen=True)
class Answer:
    url: str
    status: int
    content_type: str
    body: bytes


class HttpClient:
    """Blocking requests with (connect, read) timeouts and retries of transient failures only.

    Not thread-safe (it holds a ``requests.Session``): build one per thread or per fetch run.
    """

    def __init__(
        self,
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 30.0,
        retry: RetryPolicy = RetryPolicy(),
        max_bytes: int = 32 * 1024 * 1024,
        sleeper: Sleeper = time.sleep,
        session: requests.Session | None = None,
    ) -> None:
        self.timeout = (connect_timeout, read_timeout)
        self.retry = retry
        self.max_bytes = max_bytes
        self.sleeper = sleeper
        self.session = session or requests.Session()
        self.session.headers["User-Agent"] = USER_AGENT

    def get(self, source: str, url: str) -> Answer:
        return self._with_retries(source, "GET", url, None, {})

    def post_json(self, source: str, url: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> Answer:
        return self._with_retries(source, "POST", url, body, headers)

    def _with_retries(
        self, source: str, method: str, url: str, body: Mapping[str, Any] | None, headers: Mapping[str, str]
    ) -> Answer:
        delays = self.retry.delays()
        for attempt in range(len(delays) + 1):
            try:
                return self._once(source, method, url, body, headers)
            except SourceFault as fault:
                # A permanent fault (a moved page, a 403) will not heal in seconds; only transient ones retry.
                if not fault.retryable or attempt == len(delays):
                    raise
                self.sleeper(delays[attempt])
        raise AssertionError("unreachable")

    def _once(
        self, source: str, method: str, url: str, body: Mapping[str, Any] | None, headers: Mapping[str, str]
    ) -> Answer:
        def fault(problem: str, kind: str, retryable: bool) -> SourceFault:
            return SourceFault(source, url, problem, kind=kind, retryable=retryable)

        connect, read = self.timeout
        try:
            response = self.session.request(
                method, url, json=body, headers=dict(headers), timeout=self.timeout, stream=True
            )
        except requests.exceptions.ConnectTimeout:
            raise fault(f"could not connect within {connect:g} s (connect timeout)", "timeout", True) from None
        except requests.exceptions.ReadTimeout:
            raise fault(f"no answer within {read:g} s (read timeout)", "timeout", True) from None
        except requests.exceptions.ConnectionError as exc:
            raise fault(f"cannot connect: {_reason(exc)}", "connection", True) from None
        except requests.exceptions.RequestException as exc:
            raise fault(f"request failed: {_reason(exc)}", "connection", False) from None
        with response:
            status = response.status_code
            if status >= 500:
                raise fault(f"HTTP {status} {_phrase(status)} (the server failed)", "http", True)
            if status == 404:
                raise fault("HTTP 404 Not Found", "not-found", False)
            if status >= 400:
                raise fault(f"HTTP {status} {_phrase(status)}", "http", False)
            content = self._read_body(response, fault, read)
        return Answer(url, status, response.headers.get("Content-Type", ""), content)

    def _read_body(
        self, response: requests.Response, fault: Callable[[str, str, bool], SourceFault], read: float
    ) -> bytes:
        chunks: list[bytes] = []
        size = 0
        try:
            for chunk in response.iter_content(chunk_size=64 * 1024):
                size += len(chunk)
                if size > self.max_bytes:
                    raise fault(f"the answer is larger than {self.max_bytes} bytes; refused", "format", False)
                chunks.append(chunk)
        except requests.exceptions.ChunkedEncodingError:
            announced = response.headers.get("Content-Length")
            details = [f"{size} bytes read"] if size else []
            details += [f"{announced} bytes announced"] if announced else []
            shown = f" ({', '.join(details)})" if details else ""
            raise fault(f"the download broke off before its end{shown}; truncated", "truncated", True) from None
        except requests.exceptions.ConnectionError as exc:
            if _is_read_timeout(exc):
                raise fault(f"no answer within {read:g} s (read timeout)", "timeout", True) from None
            raise fault(f"the connection broke: {_reason(exc)}", "connection", True) from None
        return b"".join(chunks)


def _is_read_timeout(exc: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (urllib3.exceptions.ReadTimeoutError, requests.exceptions.ReadTimeout)):
            return True
        inner = current.args[0] if current.args and isinstance(current.args[0], BaseException) else None
        current = inner or current.__cause__ or current.__context__
    return False


def _reason(exc: BaseException) -> str:
    # requests nests urllib3 errors several levels deep; the innermost reason is the readable one.
    text = str(exc)
    for marker in ("Connection refused", "Name or service not known", "timed out", "Connection reset"):
        if marker in text:
            return marker.lower()
    return " ".join(text.split())[:160] or type(exc).__name__


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
