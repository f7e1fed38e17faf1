"""Italian Lotto draws: the public randomness every campaign turn is tied to.

The operator publishes the whole history as ``storico01-oggi.txt``, one line per wheel and draw::

    2023/01/03<TAB>BA<TAB>18<TAB>60<TAB>66<TAB>51<TAB>19

This module reads and writes that format and nothing else: no file, network, clock or database.
A bad line never raises; it becomes a ``LineError`` that names the line, because archives are pasted
and uploaded by people and the bot must be able to say exactly what is wrong where.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo

WHEELS: tuple[str, ...] = ("BA", "CA", "FI", "GE", "MI", "NA", "PA", "RM", "RN", "TO", "VE")

WHEEL_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "BA": "Bari",
        "CA": "Cagliari",
        "FI": "Firenze",
        "GE": "Genova",
        "MI": "Milano",
        "NA": "Napoli",
        "PA": "Palermo",
        "RM": "Roma",
        "RN": "Nazionale",
        "TO": "Torino",
        "VE": "Venezia",
    }
)

NATIONAL_WHEEL = "RN"
# The Nazionale wheel was added on this date; older draws have the other 10 wheels only.
NATIONAL_WHEEL_SINCE = dt.date(2005, 5, 4)

NUMBERS_PER_WHEEL = 5
# A roll is bound to a draw (20:00 Europe/Rome) only this long before it: the draw must not be under way, and the
# binding must be posted and stored, its anchor public, before anyone could know the numbers. The shell offers a
# draw to bind to only up to this margin (bot/schedule/clock.py) and verify refuses a binding closer than it
# (engine/verify.py): one constant, so that an honest roll the shell bound is never "not bound in advance".
BINDING_MARGIN = dt.timedelta(minutes=10)
# Every draw is held at 20:00 in Rome: from then on its numbers may be known (verify, undo, the shell's calendar).
ROME = ZoneInfo("Europe/Rome")
DRAW_TIME = dt.time(20, 0)


def held_at(day: dt.date) -> dt.datetime:
    """The moment the draw of ``day`` is held, in Rome's time."""
    return dt.datetime.combine(day, DRAW_TIME, tzinfo=ROME)
LOWEST, HIGHEST = 1, 90

Numbers = tuple[int, int, int, int, int]

_DATE_FORMAT = "%Y/%m/%d"
_DATE_SHAPE = re.compile(r"\d{4}/\d{2}/\d{2}", re.ASCII)
_INTEGER = re.compile(r"\d+", re.ASCII)
_BOM = "\ufeff"


def wheels_on(day: dt.date) -> tuple[str, ...]:
    """The wheels drawn on ``day``, in archive order."""
    if day < NATIONAL_WHEEL_SINCE:
        return tuple(w for w in WHEELS if w != NATIONAL_WHEEL)
    return WHEELS


def format_numbers(numbers: Iterable[int]) -> str:
    return " ".join(str(n) for n in numbers)


def format_archive_line(date: dt.date, wheel: str, numbers: Iterable[int]) -> str:
    """The canonical archive line, byte for byte as the operator's file writes it."""
    return "\t".join([date.strftime(_DATE_FORMAT), wheel, *(str(n) for n in numbers)])


def numbers_problem(wheel: str, numbers: tuple[int, ...], day: dt.date | None = None) -> str | None:
    """What is wrong with one wheel's result, or None. Shared by the parser and ``Draw``."""
    if wheel not in WHEEL_NAMES:
        return f"{wheel!r} is not a wheel ({' '.join(WHEELS)})"
    if day is not None and wheel not in wheels_on(day):
        return (
            f"the Nazionale wheel ({NATIONAL_WHEEL}) was only drawn from "
            f"{NATIONAL_WHEEL_SINCE.strftime(_DATE_FORMAT)}, not on {day.strftime(_DATE_FORMAT)}"
        )
    if len(numbers) != NUMBERS_PER_WHEEL:
        return f"{wheel} has {len(numbers)} numbers, not {NUMBERS_PER_WHEEL}"
    for n in numbers:
        if not LOWEST <= n <= HIGHEST:
            return f"{n} is out of range {LOWEST}..{HIGHEST}"
    seen: set[int] = set()
    for n in numbers:
        if n in seen:
            # Numbers are drawn without replacement, so a repeat means a typo, not a draw.
            return f"{n} appears twice; the {NUMBERS_PER_WHEEL} numbers of a wheel are distinct"
        seen.add(n)
    return None


@dataclass(frozen=True)
class Draw:
    """One draw day: each wheel's 5 numbers in extraction order (the first is the "primo estratto")."""

    date: dt.date
    numbers: Mapping[str, Numbers]

    def __post_init__(self) -> None:
        normalized: dict[str, Numbers] = {}
        for wheel in sorted(self.numbers, key=_wheel_rank):
            nums = tuple(self.numbers[wheel])
            problem = numbers_problem(wheel, nums, self.date)
            if problem:
                raise ValueError(f"draw of {self.date.isoformat()}: {problem}")
            normalized[wheel] = nums  # type: ignore[assignment]  # five numbers: numbers_problem() said so
        # A read-only view keeps a frozen Draw really frozen, and fixes the order to archive order.
        object.__setattr__(self, "numbers", MappingProxyType(normalized))

    def __hash__(self) -> int:
        return hash((self.date, tuple(self.numbers.items())))

    @property
    def wheels(self) -> tuple[str, ...]:
        return tuple(self.numbers)

    def number(self, wheel: str, position: int) -> int:
        """The number drawn ``position``-th (1..5) on ``wheel``."""
        if not 1 <= position <= NUMBERS_PER_WHEEL:
            raise ValueError(f"position must be 1..{NUMBERS_PER_WHEEL}, not {position}")
        try:
            return self.numbers[wheel][position - 1]
        except KeyError:
            raise KeyError(f"no {wheel} result in the draw of {self.date.isoformat()}") from None

    def archive_lines(self) -> list[str]:
        return [format_archive_line(self.date, w, nums) for w, nums in self.numbers.items()]

    def to_dict(self) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "numbers": {w: list(nums) for w, nums in self.numbers.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Draw:
        return cls(
            date=dt.date.fromisoformat(data["date"]),
            numbers={w: tuple(nums) for w, nums in data["numbers"].items()},
        )


def missing_wheels(draw: Draw) -> list[str]:
    """The wheels a complete draw of that day would have but this one lacks."""
    return [w for w in wheels_on(draw.date) if w not in draw.numbers]


@dataclass(frozen=True)
class LineError:
    source: str
    line: int  # 1-based, counting every line of the text, comments and blanks included
    text: str  # the line as it was, without its line ending
    problem: str  # quotes the line, so the message stands on its own

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.problem}"


@dataclass(frozen=True)
class ArchiveEntry:
    """One accepted wheel result, with where it came from (the store quotes it in conflict reports)."""

    date: dt.date
    wheel: str
    numbers: Numbers
    line: int
    text: str


@dataclass
class ArchiveParse:
    entries: list[ArchiveEntry] = field(default_factory=list)  # one per (date, wheel), sorted
    errors: list[LineError] = field(default_factory=list)  # in line order

    @property
    def draws(self) -> list[Draw]:
        by_date: dict[dt.date, dict[str, Numbers]] = {}
        for entry in self.entries:
            by_date.setdefault(entry.date, {})[entry.wheel] = entry.numbers
        return [Draw(day, numbers) for day, numbers in sorted(by_date.items())]


def parse_archive(text: str, source: str = "<input>") -> ArchiveParse:
    """Read archive text; bad content is returned as errors, never raised.

    A (date, wheel) given twice with the same numbers is harmless (archives get concatenated). Given twice
    with different numbers, neither line can be trusted, so both are left out and the later one is reported.
    """
    if text.startswith(_BOM):
        text = text[len(_BOM):]
    accepted: dict[tuple[dt.date, str], ArchiveEntry] = {}
    contradicted: set[tuple[dt.date, str]] = set()
    errors: list[LineError] = []
    # Split on "\n" only: str.splitlines also breaks on form feeds and Unicode separators,
    # which would make our line numbers disagree with the user's editor.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        entry_or_problem = _parse_line(stripped, number, line)
        if isinstance(entry_or_problem, str):
            errors.append(LineError(source, number, line, entry_or_problem))
            continue
        entry = entry_or_problem
        key = (entry.date, entry.wheel)
        earlier = accepted.get(key)
        if earlier is None:
            accepted[key] = entry
        elif earlier.numbers != entry.numbers:
            contradicted.add(key)
            problem = (
                f"{_quote(line)} contradicts line {earlier.line} {_quote(earlier.text)}: "
                f"same date and wheel, other numbers; neither line is used"
            )
            errors.append(LineError(source, number, line, problem))
    entries = sorted(
        (e for key, e in accepted.items() if key not in contradicted),
        key=lambda e: (e.date, _wheel_rank(e.wheel)),
    )
    return ArchiveParse(entries=entries, errors=errors)


def _parse_line(stripped: str, number: int, line: str) -> ArchiveEntry | str:
    """An entry, or the problem (quoting the line) that stops the line from being one."""
    fields_ = stripped.split()
    quoted = _quote(line)
    day = _parse_date(fields_[0])
    if isinstance(day, str):
        return f"{quoted}: {day}"
    if len(fields_) < 2:
        return f"{quoted} has no wheel; a line needs the date, the wheel and {NUMBERS_PER_WHEEL} numbers"
    # Wheels are upper case in the official file; lower case is an obvious intent, so accept it.
    wheel = fields_[1].upper()
    if wheel not in WHEEL_NAMES:
        return f"{quoted}: {fields_[1]!r} is not a wheel ({' '.join(WHEELS)})"
    tokens = fields_[2:]
    if len(tokens) != NUMBERS_PER_WHEEL:
        return (
            f"{quoted} has {len(tokens)} numbers; "
            f"a line needs the date, the wheel and {NUMBERS_PER_WHEEL} numbers"
        )
    for token in tokens:
        if not _INTEGER.fullmatch(token):
            return f"{quoted}: {token!r} is not a whole number"
    numbers = tuple(int(t) for t in tokens)
    problem = numbers_problem(wheel, numbers, day)
    if problem:
        return f"{quoted}: {problem}"
    return ArchiveEntry(day, wheel, numbers, number, line)  # type: ignore[arg-type]  # five: numbers_problem() said so


def _parse_date(token: str) -> dt.date | str:
    """The date, or what is wrong with the token."""
    if not _DATE_SHAPE.fullmatch(token):
        return f"{token!r} is not a date (YYYY/MM/DD)"
    try:
        return dt.datetime.strptime(token, _DATE_FORMAT).date()
    except ValueError:
        return f"{token} is not a real date"


def _quote(line: str) -> str:
    # Tabs shown as single spaces read better in a Discord message than "\t" escapes.
    return "'" + " ".join(line.split()) + "'"


def _wheel_rank(wheel: str) -> int:
    return WHEELS.index(wheel) if wheel in WHEELS else len(WHEELS)
