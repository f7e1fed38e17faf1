"""When a fetched draw becomes a draw campaigns use: two sources agree, or a GM types it where no source holds it.

A disagreement resolves nothing and produces an alert that quotes what each source said. A stored draw
is never replaced: a source that contradicts it raises an alert and the stored numbers are kept, since
campaign turns may already have been resolved with them.
"""
from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlmodel import Session, select

from bot.lottery.asking import SourcesAsked, held_by_sources, holders
from bot.store.draws import DrawRow, get_draw, import_archive
from bot.lottery.formats import iso, wheel_code
from bot.lottery.sources import SOURCE_NAMES
from bot.store.fetched_draws import FetchedDraw, FetchedDrawRow, latest_fetches, record_fetch
from engine.lotto import NUMBERS_PER_WHEEL, ROME, Draw, format_numbers, held_at, missing_wheels, numbers_problem, wheels_on

GM_URL = "by hand"
# A GM may type a draw only once it is held (20:00 Europe/Rome) and published: before that, typed numbers would be a
# choice, not a result.
PUBLICATION_MARGIN = dt.timedelta(minutes=30)


class Status(enum.StrEnum):
    STORED = "stored"
    ALREADY_STORED = "already stored"
    WAITING = "waiting"  # not enough sources yet; trying again later can help
    DISAGREEMENT = "disagreement"
    CONTRADICTS_STORED = "contradicts stored"
    REFUSED = "refused"  # a GM's confirmation that could not be read
    GAVE_UP = "gave up"


@dataclass(frozen=True)
class Outcome:
    day: dt.date
    status: Status
    message: str  # one line, for the GM
    faults: tuple[str, ...] = ()  # one line per source that failed, naming it and its URL

    @property
    def stored(self) -> bool:
        return self.status in (Status.STORED, Status.ALREADY_STORED)

    @property
    def alert(self) -> bool:
        """True when only a GM can settle it."""
        return self.status in (Status.DISAGREEMENT, Status.CONTRADICTS_STORED, Status.GAVE_UP)

    def lines(self) -> list[str]:
        return [*self.faults, self.message]


def reconcile(session: Session, day: dt.date) -> Outcome:
    """Store the draw of ``day`` if the latest answers of at least two sources agree on every wheel."""
    rows = _ordered(latest_fetches(session, day))
    latest = {name: row.draw for name, row in rows.items()}
    urls = {name: row.url for name, row in rows.items()}
    stored = get_draw(session, day)
    if stored is not None:
        against = {name: draw for name, draw in latest.items() if _differences(stored, draw)}
        if against:
            return Outcome(day, Status.CONTRADICTS_STORED, _contradiction(day, stored, _stored_from(session, day),
                                                                         against, urls))
        if not missing_wheels(stored):
            agreeing = f"; {_join(list(latest))} agree" if latest else ""
            return Outcome(day, Status.ALREADY_STORED,
                           f"the draw of {iso(day)} is already stored (from {_stored_from(session, day)}){agreeing}")
    if len(latest) < 2:
        # A GM types only a draw no source holds (confirm_by_gm): one source's draw waits for a second, or an import.
        way_out = (f"only {_join(list(latest))} has given it so far; it needs a second source that agrees, or the "
                   "operator's import of the official archive" if latest else
                   "no source has given it yet; it needs two sources that agree, or a GM's confirmation")
        return Outcome(day, Status.WAITING, f"the draw of {iso(day)} is not stored: {way_out}")
    distinct = {tuple(draw.numbers.items()) for draw in latest.values()}
    if len(distinct) > 1:
        return Outcome(day, Status.DISAGREEMENT, _disagreement(day, latest, urls))
    names = list(latest)
    draw = latest[names[0]]
    report = import_archive(session, "\n".join(draw.archive_lines()), f"agreed: {', '.join(names)}")
    if report.conflicts:
        # A partly stored day (an older import) that the sources contradict: import_archive kept it.
        return Outcome(day, Status.CONTRADICTS_STORED, f"the draw of {iso(day)}: {report.conflicts[0]}")
    return Outcome(day, Status.STORED,
                   f"the draw of {iso(day)} is stored: {_join(names)} agree on all {len(draw.numbers)} wheels")


def confirm_by_gm(
    session: Session, day: dt.date, numbers_text: str, gm: str,
    now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.timezone.utc), *, commit: bool = True,
    asked: SourcesAsked | None = None,
) -> Outcome:
    """A GM types the draw of ``day`` by hand (one ``WHEEL n1 n2 n3 n4 n5`` per line or ``;``-separated), only
    where no source holds it (none could be reached, or none has it yet): typed numbers never replace a result a
    source published, agreeing or not (bot/lottery/asking.py). It is stored with the GM's name in its source, and
    ``asked`` (the sources asked just before) is reported beside it. With ``commit=False`` (inside a post) it is only
    flushed: stored with the post, or not at all."""
    gm = gm.strip()
    if not gm:
        return Outcome(day, Status.REFUSED, "a confirmation by hand must name the GM who gives it")
    parsed = parse_gm_numbers(numbers_text, day)
    if isinstance(parsed, str):
        return Outcome(day, Status.REFUSED, f"GM {gm}'s numbers for {iso(day)} are not stored: {parsed}")
    held = held_at(day)
    opens = held + PUBLICATION_MARGIN
    if now() < opens:
        return Outcome(day, Status.REFUSED, (
            f"the draw of {iso(day)} is held at 20:00 Europe/Rome and can be typed by a GM only from "
            f"{opens.strftime('%H:%M')} Europe/Rome of that day, once published (it is now "
            f"{now().astimezone(ROME).strftime('%Y-%m-%d %H:%M')} Europe/Rome): nothing stored"))
    stored = get_draw(session, day)
    if stored is None:
        holding = holders(session, day)
        if holding:
            settled = _agreeing_sources(session, day)
            agree = f" ({_join(settled)} agree)" if settled else ""
            return Outcome(day, Status.REFUSED, (
                f"{held_by_sources(day, holding, parsed)}{agree}: a draw a source holds is stored from the sources, by "
                "the fetcher once two agree (legatus lotto fetch) or by the operator from the official archive "
                "(legatus lotto import), not typed by a GM; nothing stored"))
    if stored is not None:
        if _differences(stored, parsed):
            return Outcome(day, Status.CONTRADICTS_STORED, _contradiction(
                day, stored, _stored_from(session, day), {f"GM {gm}": parsed}, {}))
        if not missing_wheels(stored):
            return Outcome(day, Status.ALREADY_STORED,
                           f"the draw of {iso(day)} is already stored with these numbers "
                           f"(from {_stored_from(session, day)})")
    record_fetch(session, FetchedDraw(f"gm:{gm}", GM_URL, parsed, numbers_text.encode("utf-8"), now()), commit=commit)
    latest = {name: row.draw for name, row in _ordered(latest_fetches(session, day)).items()}
    agreeing = [name for name, draw in latest.items() if not _differences(draw, parsed)]
    differing = {name: draw for name, draw in latest.items() if name not in agreeing}
    # "gm:<name>" first: verify lists every draw whose source starts with "gm" as typed by a GM.
    label = f"gm:{gm}" + (f"; {', '.join(agreeing)} agreed" if agreeing else "")
    report = import_archive(session, "\n".join(parsed.archive_lines()), label, commit=commit)
    if report.conflicts:
        return Outcome(day, Status.CONTRADICTS_STORED, f"the draw of {iso(day)}: {report.conflicts[0]}")
    notes = [f"{_join(agreeing)} agreed"] if agreeing else []
    for name, draw in differing.items():
        wheels = ", ".join(f"{w} {format_numbers(draw.numbers[w])}" for w in _differences(parsed, draw))
        notes.append(f"{name} said otherwise ({wheels})")
    if asked is not None:
        notes.append(f"no source holds it, {asked.summary()}")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return Outcome(day, Status.STORED, f"the draw of {iso(day)} is stored as confirmed by GM {gm}{extra}")


_DATED = re.compile(r"^\s*(\d{4})[/-](\d{2})[/-](\d{2})\s+(.*)$")
_SEPARATORS = re.compile(r"[\s,.\-]+")


def parse_gm_numbers(text: str, day: dt.date) -> Draw | str:
    """The GM's draw, or what is wrong with it. Archive lines (with their date) are accepted too."""
    numbers: dict[str, tuple[int, ...]] = {}
    for entry in re.split(r"[\n;]+", text):
        entry = entry.strip()
        if not entry or entry.startswith("#"):
            continue
        body = entry
        dated = _DATED.match(entry)
        if dated:
            year, month, mday, body = dated.groups()
            if (year, month, mday) != (f"{day.year:04d}", f"{day.month:02d}", f"{day.day:02d}"):
                return f"'{entry}' is dated {year}-{month}-{mday}, not {day.isoformat()}"
        tokens = [t for t in _SEPARATORS.split(body) if t]
        wheel = wheel_code(tokens[0]) if tokens else None
        if wheel is None:
            return f"'{entry}' does not start with a wheel (BA, CA, ... or Bari, Cagliari, ...)"
        if wheel in numbers:
            return f"{wheel} is given twice"
        if len(tokens) != NUMBERS_PER_WHEEL + 1 or not all(t.isdigit() for t in tokens[1:]):
            return f"'{entry}' needs the wheel and {NUMBERS_PER_WHEEL} numbers"
        nums = tuple(int(t) for t in tokens[1:])
        problem = numbers_problem(wheel, nums, day)
        if problem:
            return problem
        numbers[wheel] = nums
    missing = [w for w in wheels_on(day) if w not in numbers]
    if missing:
        return f"wheels {' '.join(missing)} are missing; a draw of {day.isoformat()} has {len(wheels_on(day))}"
    return Draw(day, numbers)  # type: ignore[arg-type]  # each wheel five numbers: numbers_problem() said so


def _agreeing_sources(session: Session, day: dt.date) -> list[str]:
    """Two or more fetched sources whose latest answers agree on a whole draw: the fetcher settles that day."""
    latest = {name: row.draw for name, row in _ordered(latest_fetches(session, day)).items()}
    for name, draw in latest.items():
        same = [other for other, theirs in latest.items() if theirs.numbers == draw.numbers]
        if len(same) >= 2 and not missing_wheels(draw):
            return same
    return []


def _ordered(rows: Mapping[str, FetchedDrawRow]) -> dict[str, FetchedDrawRow]:
    """Known sources first, in their fixed order, so messages read the same every time."""
    rank = {name: i for i, name in enumerate(SOURCE_NAMES)}
    return {name: rows[name] for name in sorted(rows, key=lambda n: (rank.get(n, len(rank)), n))}


def _differences(a: Draw, b: Draw) -> list[str]:
    """The wheels both draws have, with other numbers."""
    return [w for w in a.numbers if w in b.numbers and a.numbers[w] != b.numbers[w]]


def _disagreement(day: dt.date, latest: Mapping[str, Draw], urls: Mapping[str, str]) -> str:
    names = list(latest)
    wheels = sorted({w for a in names for b in names for w in _differences(latest[a], latest[b])},
                    key=list(wheels_on(day)).index)
    quoted = "; ".join(
        f"{w}: " + ", ".join(f"{n} {format_numbers(latest[n].numbers[w])}" for n in names) for w in wheels
    )
    who = " and ".join(f"{n} ({urls[n]})" for n in names)
    return (f"the draw of {iso(day)} is not stored: {who} disagree on {len(wheels)} "
            f"wheel{'s' if len(wheels) != 1 else ''}: {quoted}; the operator settles it by importing the official "
            "archive (legatus lotto import)")


def _contradiction(day: dt.date, stored: Draw, stored_from: str, against: Mapping[str, Draw],
                   urls: Mapping[str, str]) -> str:
    parts = []
    for name, draw in against.items():
        where = f" ({urls[name]})" if name in urls else ""
        wheels = ", ".join(
            f"{w} stored {format_numbers(stored.numbers[w])} vs {format_numbers(draw.numbers[w])}"
            for w in _differences(stored, draw)
        )
        parts.append(f"{name}{where} says {wheels}")
    return (f"the draw of {iso(day)} contradicts the stored draw (from {stored_from}): {'; '.join(parts)}; "
            f"the stored draw is kept")


def _stored_from(session: Session, day: dt.date) -> str:
    sources = session.exec(select(DrawRow.source).where(DrawRow.date == day).distinct()).all()
    return ", ".join(sorted(sources)) or "nowhere"


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
