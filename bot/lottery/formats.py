"""The published formats of the Lotto results, read strictly: pure functions over bytes, no network.

* the operator's archive: a zip holding ``storico01-oggi.txt`` in the archive line format;
* the official site's single-draw JSON: ``{"esito": "OK", "data": <ms>, "estrazione": [{"ruota": "BA",
  "numeri": [n1..n5]}, ...]}``;
* the official site's calendar JSON: the days of a month that had a draw, ``[1, 3, 4, 5, ...]``.

docs/lotto-sources.md says where these shapes come from and which parts are guesses. Anything that
does not fit raises ``Unusable`` saying what was wrong: a number is never read from a shape we do not know.
"""
from __future__ import annotations

import calendar
import datetime as dt
import io
import json
import zipfile
import zlib
from collections.abc import Mapping
from typing import Any

from bot.schedule.clock import ROME
from engine.lotto import WHEEL_NAMES, WHEELS, Draw, missing_wheels, numbers_problem, parse_archive

ARCHIVE_MEMBER = "storico01-oggi.txt"
MAX_MEMBER_BYTES = 64 * 1024 * 1024

# The JSON names its wheels by code; full names (and "NZ", used by some archives for the Nazionale) are
# accepted too, because which spelling the site uses for the Nazionale wheel is not documented.
_WHEEL_ALIASES: Mapping[str, str] = {
    **{code: code for code in WHEELS},
    **{name.upper(): code for code, name in WHEEL_NAMES.items()},
    "NZ": "RN",
}


class Unusable(Exception):
    """Why an answer gives no draw. ``kind`` sorts the causes; ``retryable`` says if waiting can help."""

    def __init__(self, problem: str, *, kind: str = "format", retryable: bool = False) -> None:
        super().__init__(problem)
        self.problem = problem
        self.kind = kind
        self.retryable = retryable


def wheel_code(name: str) -> str | None:
    """BA for "BA", "ba", "Bari"; RN for "Nazionale" and "NZ"; None for anything else."""
    return _WHEEL_ALIASES.get(name.strip().upper())


_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")  # not %a: that follows the process locale


def iso(day: dt.date) -> str:
    """2026-09-07 (Mon): the weekday shown, so a draw moved for a holiday stands out."""
    return f"{day.isoformat()} ({_WEEKDAYS[day.weekday()]})"


# --- the archive zip -------------------------------------------------------------------------------


def draw_from_archive_zip(raw: bytes, day: dt.date) -> tuple[Draw, bytes]:
    """The draw of ``day`` and the exact bytes of its lines in the archive.

    Only the day's lines are kept as evidence: the whole zip is the full history (megabytes), and the
    lines are what a GM would compare with a fresh download.
    """
    text = _archive_text(raw)
    prefix = day.strftime("%Y/%m/%d")
    # Lines keep their "\r", if any, so the evidence is the file's bytes; the parser ignores it.
    lines = text.split("\n")
    mine = [line for line in lines if line.strip().startswith(prefix)]
    if not mine:
        latest = _latest_date(lines)
        if latest is None:
            raise Unusable(f"{ARCHIVE_MEMBER} holds no line in the archive format (YYYY/MM/DD WHEEL n1..n5)")
        if day > latest:
            raise Unusable(
                f"the draw of {iso(day)} is not yet published (the archive ends on {latest.isoformat()})",
                kind="not-published", retryable=True,
            )
        raise Unusable(f"the archive has no draw on {iso(day)}: not a draw day", kind="not-a-draw-day")
    parsed = parse_archive("\n".join(mine), ARCHIVE_MEMBER)
    if parsed.errors:
        first = parsed.errors[0]
        raise Unusable(f"unreadable line for {day.isoformat()}: {first.problem}")
    draw = parsed.draws[0]
    _require_complete(draw)
    return draw, "".join(line + "\n" for line in mine).encode("utf-8")


def archive_text(raw: bytes) -> str:
    """The text of ``storico01-oggi.txt`` inside the official history zip; Unusable says why not."""
    return _archive_text(raw)


def is_zip(raw: bytes) -> bool:
    return raw[:4] == b"PK\x03\x04"


def _archive_text(raw: bytes) -> str:
    if _looks_like_html(raw):
        raise Unusable("got an HTML page, not the zip archive (the address may have moved)", kind="not-a-zip")
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            names = archive.namelist()
            if ARCHIVE_MEMBER not in names:
                shown = ", ".join(names[:5]) or "nothing"
                raise Unusable(f"the zip holds {shown}, not {ARCHIVE_MEMBER} (the format has changed)")
            info = archive.getinfo(ARCHIVE_MEMBER)
            if info.file_size > MAX_MEMBER_BYTES:
                raise Unusable(f"{ARCHIVE_MEMBER} is {info.file_size} bytes unpacked; refused as implausible")
            data = archive.read(ARCHIVE_MEMBER)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        # Truncated downloads land here: the central directory at the end of the zip is missing.
        raise Unusable(
            f"not a complete zip archive ({len(raw)} bytes; truncated or damaged: {exc})",
            kind="truncated", retryable=True,
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Unusable(f"{ARCHIVE_MEMBER} is not text in the archive format") from None


def _latest_date(lines: list[str]) -> dt.date | None:
    latest: dt.date | None = None
    for line in lines:
        token = line.strip()[:10]
        try:
            day = dt.datetime.strptime(token, "%Y/%m/%d").date()
        except ValueError:
            continue
        if latest is None or day > latest:
            latest = day
    return latest


# --- the official site's JSON ----------------------------------------------------------------------


def draw_from_json(raw: bytes, day: dt.date) -> Draw:
    data = _json(raw, "draw")
    if not isinstance(data, dict):
        raise Unusable(f"unknown answer shape: a JSON {_kind(data)}, not an object with 'esito' and 'estrazione'")
    if "esito" not in data:
        raise Unusable(f"unknown answer shape: no 'esito' field (fields: {_fields(data)})")
    esito = data["esito"]
    if esito != "OK":
        detail = f"; {data['messaggio']}" if isinstance(data.get("messaggio"), str) and data["messaggio"] else ""
        raise Unusable(
            f"the draw of {iso(day)} is not yet published (esito {esito!r}{detail})",
            kind="not-published", retryable=True,
        )
    if "estrazione" not in data:
        raise Unusable(f"unknown answer shape: esito OK but no 'estrazione' list (fields: {_fields(data)})")
    entries = data["estrazione"]
    if entries in (None, []):
        raise Unusable(f"the draw of {iso(day)} is not yet published (no numbers yet)",
                       kind="not-published", retryable=True)
    if not isinstance(entries, list):
        raise Unusable(f"unknown answer shape: 'estrazione' is a {_kind(entries)}, not a list")
    _check_answer_date(data.get("data"), day)
    numbers: dict[str, tuple[int, ...]] = {}
    for index, entry in enumerate(entries, start=1):
        wheel, nums = _wheel_entry(entry, index)
        if wheel in numbers:
            raise Unusable(f"wheel {wheel} appears twice")
        problem = numbers_problem(wheel, nums, day)
        if problem:
            raise Unusable(f"invalid numbers: {problem}")
        numbers[wheel] = nums
    draw = Draw(day, numbers)  # type: ignore[arg-type]  # each wheel five numbers: numbers_problem() said so
    _require_complete(draw)
    return draw


def _wheel_entry(entry: Any, index: int) -> tuple[str, tuple[int, ...]]:
    if not isinstance(entry, dict) or "ruota" not in entry or "numeri" not in entry:
        shown = _fields(entry) if isinstance(entry, dict) else _kind(entry)
        raise Unusable(f"unknown answer shape: entry {index} of 'estrazione' has no 'ruota' and 'numeri' ({shown})")
    name = entry["ruota"]
    wheel = wheel_code(name) if isinstance(name, str) else None
    if wheel is None:
        raise Unusable(f"unknown wheel {name!r} in entry {index}")
    nums = entry["numeri"]
    # bool is an int in Python; a true/false in place of a number is a changed format, not a 1 or 0.
    if not isinstance(nums, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in nums):
        raise Unusable(f"unknown answer shape: the numbers of {wheel} are {json.dumps(nums)[:60]}, not a list of integers")
    return wheel, tuple(nums)


def _check_answer_date(value: Any, day: dt.date) -> None:
    """The answer's own date must be the day asked for: a site that answers with the latest draw instead
    would otherwise slip the wrong day's numbers in."""
    if value is None:
        return
    answered: dt.date | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        # Milliseconds since the epoch at midnight, Rome time, of the draw day.
        answered = dt.datetime.fromtimestamp(value / 1000, tz=ROME).date()
    elif isinstance(value, str) and len(value) == 8 and value.isdigit():
        answered = dt.datetime.strptime(value, "%Y%m%d").date()
    if answered is None:
        raise Unusable(f"unknown answer shape: 'data' is {json.dumps(value)[:40]}, not a date")
    if answered != day:
        raise Unusable(f"the answer is the draw of {iso(answered)}, not of {iso(day)}")


def days_from_calendar_json(raw: bytes, year: int, month: int) -> list[dt.date]:
    data = _json(raw, "calendar")
    last = calendar.monthrange(year, month)[1]
    if not isinstance(data, list) or not all(
        isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= last for d in data
    ):
        raise Unusable(
            f"unknown calendar shape for {year}-{month:02d}: {json.dumps(data)[:80]} "
            f"(expected the list of draw days, e.g. [1, 3, 4])"
        )
    return sorted({dt.date(year, month, d) for d in data})


# --- shared ----------------------------------------------------------------------------------------


def _require_complete(draw: Draw) -> None:
    missing = missing_wheels(draw)
    if missing:
        raise Unusable(
            f"the draw of {iso(draw.date)} lacks wheels {' '.join(missing)} "
            f"({len(draw.numbers)} of {len(missing) + len(draw.numbers)}; the format may have changed)"
        )


def _json(raw: bytes, what: str) -> Any:
    if not raw.strip():
        kind, retryable = ("not-published", True) if what == "draw" else ("format", False)
        raise Unusable(f"empty answer{': the draw is not yet published' if retryable else ''}",
                       kind=kind, retryable=retryable)
    if _looks_like_html(raw):
        raise Unusable("got an HTML page, not JSON (the address may have moved)")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Unusable(f"the answer is not JSON ({exc})") from None


def _looks_like_html(raw: bytes) -> bool:
    head = raw[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head", b"<body"))


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", int: "number", float: "number",
            bool: "boolean", type(None): "null"}.get(type(value), type(value).__name__)


def _fields(data: Mapping[str, Any]) -> str:
    return ", ".join(sorted(str(k) for k in data)[:8]) or "none"
