"""Hole 3: "`legatus lotto import` accepted a draw dated the next day". A draw is imported only once held (20:00 in
Rome of its day); the lines of one not held yet are refused, saying which and why, and nothing of them is stored."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlmodel import Session

from bot.cli.main import main
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.draws import get_draw
from engine.lotto import format_archive_line, wheels_on
from tests.conftest import LOTTO

UTC = dt.timezone.utc


def _draw_lines(day: dt.date) -> str:
    return "".join(format_archive_line(day, w, (i + 1, i + 11, i + 21, i + 31, i + 41)) + "\n"
                   for i, w in enumerate(wheels_on(day)))


def test_a_draw_of_a_coming_day_is_refused_by_lotto_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Attacker: the operator, who imports tomorrow's numbers before they are drawn (to bind rolls to them)."""
    today = dt.datetime.now(UTC).date()
    coming = next(today + dt.timedelta(days=n) for n in range(2, 9) if (today + dt.timedelta(days=n)).weekday() == 1)
    path = tmp_path / "draws.txt"
    path.write_text((LOTTO / "draws-2023-01.txt").read_text() + _draw_lines(coming))
    code = main(["lotto", "import", "--db", str(tmp_path / "c.db"), str(path)])
    out = capsys.readouterr().out
    assert code == 1, out
    first = len((LOTTO / "draws-2023-01.txt").read_text().splitlines()) + 1
    last = first + len(wheels_on(coming)) - 1
    assert (f"draws.txt: lines {first}-{last} (the draw of {coming.isoformat()}): not held yet: it is held at 20:00 "
            f"in Rome") in out, out
    assert "none of these lines was imported; import them once the draw is held" in out, out
    assert "13 draws (143 wheel results) added" in out, out  # the draws already held are imported
    with Session(open_engine(tmp_path / "c.db")) as session:
        assert get_draw(session, coming) is None and get_draw(session, dt.date(2023, 1, 3)) is not None


def test_todays_draw_is_refused_until_eight_in_rome(tmp_path: Path) -> None:
    """Attacker: the operator, importing the evening's draw in the afternoon."""
    day = dt.date(2026, 12, 1)  # a Tuesday; 20:00 in Rome is 19:00 UTC
    clock = FixedClock(dt.datetime(2026, 12, 1, 18, 59, 59, tzinfo=UTC))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    report, _ = service.import_draws(_draw_lines(day), "import:today.txt")
    assert report.added == 0
    assert report.errors == [f"import:today.txt: lines 1-{len(wheels_on(day))} (the draw of 2026-12-01): not held yet: "
                             "it is held at 20:00 in Rome (2026-12-01T19:00:00Z) and it is now 2026-12-01T18:59:59Z; "
                             "none of these lines was imported; import them once the draw is held"]
    clock.moment = dt.datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
    report, _ = service.import_draws(_draw_lines(day), "import:today.txt")
    assert report.errors == [] and report.added == len(wheels_on(day))
