"""Where draws come from: the operator's archive and the official site, each fetched, checked and kept.

Every draw a source gives is recorded in ``FetchedDrawRow`` with the raw bytes it came in and their
SHA-256, before anything uses it: a GM can always show what a source said and when. No number from a
source reaches the shared draw table here; ``bot.lottery.reconcile`` does that, only when two agree.

Sources (see docs/lotto-sources.md):

* ``archive``: the operator's whole history, a zip of ``storico01-oggi.txt``. Several URLs may be set;
  they are mirrors of one file, tried in order, and count as one source.
* ``lotto-italia``: the official site's single-draw JSON, whose date is checked against its calendar.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol


from bot.lottery.formats import Unusable, days_from_calendar_json, draw_from_archive_zip, draw_from_json
from bot.lottery.source_names import ARCHIVE, OFFICIAL, SOURCE_NAMES
from bot.lottery.http import HttpClient, RetryPolicy, Sleeper, SourceFault
from bot.store.fetched_draws import FetchedDraw

_log = logging.getLogger("legatus.lotto")


DEFAULT_ARCHIVE_URLS: tuple[str, ...] = (
    "https://www.igt.it/STORICO_ESTRAZIONI_LOTTO/storico01-oggi.zip",
    # The operator (IGT, renamed Brightstar) now publishes the same file here too.
    "https://www.brightstarlottery.it/STORICO_ESTRAZIONI_LOTTO/storico01-oggi.zip",
)
DEFAULT_DRAW_URL = "https://www.lotto-italia.it/gdl/estrazioni-e-vincite/estrazioni-del-lotto.json"
DEFAULT_CALENDAR_URL = "https://www.lotto-italia.it/gdl/estrazioni-e-vincite/calendario-estrazioni-del-lotto.json"
# The site's own page sends these; the endpoints are an undocumented API, so behave like that page.
_SITE_HEADERS = {
    "Accept": "application/json, text/plain, */*",
    "Referer": "https://www.lotto-italia.it/lotto/estratti-ruote",
}


@dataclass(frozen=True)
class LottoSettings:
    archive_urls: tuple[str, ...] = DEFAULT_ARCHIVE_URLS
    draw_url: str = DEFAULT_DRAW_URL
    calendar_url: str = DEFAULT_CALENDAR_URL
    connect_timeout: float = 5.0
    read_timeout: float = 30.0
    retry: RetryPolicy = RetryPolicy(attempts=3, base=2.0, factor=2.0, cap=30.0)
    # Between whole fetch rounds while a draw is not yet published: 2, 4, 8, 16, 30, 30... minutes.
    availability: RetryPolicy = RetryPolicy(attempts=8, base=120.0, factor=2.0, cap=1800.0)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LottoSettings:
        env = os.environ if env is None else env
        settings = cls()
        urls = [u.strip() for u in env.get("LEGATUS_LOTTO_ARCHIVE_URLS", "").split(",") if u.strip()]
        attempts = _number(env, "LEGATUS_LOTTO_RETRIES", settings.retry.attempts)
        if attempts < 1 or attempts != int(attempts):
            raise ValueError(f"LEGATUS_LOTTO_RETRIES={env['LEGATUS_LOTTO_RETRIES']!r} must be a whole number >= 1")
        return replace(
            settings,
            archive_urls=tuple(urls) or settings.archive_urls,
            draw_url=env.get("LEGATUS_LOTTO_DRAW_URL") or settings.draw_url,
            calendar_url=env.get("LEGATUS_LOTTO_CALENDAR_URL") or settings.calendar_url,
            connect_timeout=_number(env, "LEGATUS_LOTTO_CONNECT_TIMEOUT", settings.connect_timeout),
            read_timeout=_number(env, "LEGATUS_LOTTO_READ_TIMEOUT", settings.read_timeout),
            retry=replace(
                settings.retry,
                attempts=int(attempts),
                base=_number(env, "LEGATUS_LOTTO_BACKOFF", settings.retry.base),
            ),
        )

    def http(self, sleeper: Sleeper = time.sleep) -> HttpClient:
        return HttpClient(
            connect_timeout=self.connect_timeout, read_timeout=self.read_timeout, retry=self.retry, sleeper=sleeper
        )


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    text = env.get(name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a number") from None
    if value < 0:
        raise ValueError(f"{name}={text!r} must not be negative")
    return value


# --- the sources -----------------------------------------------------------------------------------


class Source(Protocol):
    name: str

    def fetch(self, day: dt.date) -> FetchedDraw:
        """The complete, valid draw of ``day``, or a ``SourceFault`` saying why not."""
        ...


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclass
class ArchiveSource:
    http: HttpClient
    urls: Sequence[str]
    now: Callable[[], dt.datetime] = _utcnow
    name: str = ARCHIVE

    def fetch(self, day: dt.date) -> FetchedDraw:
        if not self.urls:
            raise SourceFault(self.name, "-", "no archive URL is configured", kind="config", retryable=False)
        faults: list[SourceFault] = []
        for url in self.urls:
            try:
                answer = self.http.get(self.name, url)
                draw, raw = draw_from_archive_zip(answer.body, day)
            except SourceFault as fault:
                faults.append(fault)
                _log.warning("%s", fault)
                continue
            except Unusable as unusable:
                faults.append(_fault(self.name, url, unusable))
                _log.warning("%s", faults[-1])
                if unusable.kind in ("not-published", "not-a-draw-day"):
                    # The mirrors hold one file: a day missing from one is missing from all.
                    break
                continue
            return FetchedDraw(self.name, url, draw, raw, self.now())
        last = faults[-1]
        # One mirror that may heal is enough reason to try again later.
        raise SourceFault(
            last.source, last.url, last.problem, kind=last.kind,
            retryable=any(f.retryable for f in faults), earlier=tuple(faults[:-1]),
        )


@dataclass
class OfficialSource:
    http: HttpClient
    draw_url: str
    calendar_url: str
    now: Callable[[], dt.datetime] = _utcnow
    name: str = OFFICIAL

    def calendar(self, year: int, month: int) -> list[dt.date]:
        """The month's draw days, as the site lists them: only draws already held are listed."""
        body = {"mese": month, "anno": year}
        answer = self.http.post_json(self.name, self.calendar_url, body, _SITE_HEADERS)
        try:
            return days_from_calendar_json(answer.body, year, month)
        except Unusable as unusable:
            raise _fault(self.name, self.calendar_url, unusable) from None

    def fetch(self, day: dt.date) -> FetchedDraw:
        days = self.calendar(day.year, day.month)
        if day not in days:
            listed = " ".join(str(d.day) for d in days) or "no day"
            raise SourceFault(
                self.name, self.calendar_url,
                f"the calendar of {day.year}-{day.month:02d} lists {listed}, not {day.isoformat()}: "
                f"not a draw day, or not held yet",
                kind="not-a-draw-day", retryable=True,
            )
        try:
            answer = self.http.post_json(self.name, self.draw_url, {"data": day.strftime("%Y%m%d")}, _SITE_HEADERS)
        except SourceFault as fault:
            if fault.kind != "not-found":
                raise
            # The calendar already vouched for the day, so "not found" means "not there yet".
            raise SourceFault(self.name, self.draw_url, f"{fault.problem}: the draw of {day.isoformat()} is "
                              f"not yet published", kind="not-published", retryable=True) from None
        try:
            draw = draw_from_json(answer.body, day)
        except Unusable as unusable:
            raise _fault(self.name, self.draw_url, unusable) from None
        return FetchedDraw(self.name, self.draw_url, draw, answer.body, self.now())


def build_sources(
    settings: LottoSettings,
    names: Iterable[str] = SOURCE_NAMES,
    *,
    sleeper: Sleeper = time.sleep,
    now: Callable[[], dt.datetime] = _utcnow,
) -> list[Source]:
    """Fresh sources over a fresh HTTP session (one per thread: sessions are not thread-safe)."""
    http = settings.http(sleeper)
    sources: list[Source] = []
    for name in names:
        if name == ARCHIVE:
            sources.append(ArchiveSource(http, settings.archive_urls, now))
        elif name == OFFICIAL:
            sources.append(OfficialSource(http, settings.draw_url, settings.calendar_url, now))
        else:
            raise ValueError(f"unknown lottery source {name!r}; the sources are {', '.join(SOURCE_NAMES)}")
    return sources


def _fault(source: str, url: str, unusable: Unusable) -> SourceFault:
    return SourceFault(source, url, unusable.problem, kind=unusable.kind, retryable=unusable.retryable)
