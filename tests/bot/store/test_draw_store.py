"""The shared draw store on a real SQLite file: imports, refusals, and the questions campaigns ask it."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, create_engine, select

import bot.store.draws as draw_store
from bot.store.draws import (
    DrawRow,
    ImportReport,
    draw_dates_after,
    first_draw_on_or_after,
    get_draw,
    import_archive,
    latest_draw_date,
)
from engine.lotto import WHEELS, missing_wheels

from tests.fixture_paths import LOTTO  # noqa: E402  (after the project imports)

FIXTURES = LOTTO
JAN = "draws-2023-01.txt"
SEP = "draws-2026-09.txt"
D = dt.date


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _open_engine(path: Path) -> Engine:
    try:
        from bot.store.db import open_engine

        return open_engine(path)
    except ImportError as exc:
        # bot.store.campaigns (imported by open_engine) is being written in parallel; until it lands, build the
        # same SQLite file by hand. Remove this fallback once bot.store.campaigns exists.
        if "store" not in str(exc):
            raise
    engine = create_engine(f"sqlite:///{path}")
    SQLModel.metadata.create_all(engine)
    return engine


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = _open_engine(tmp_path / "t.db")
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


def row_count(engine: Engine) -> int:
    # A fresh session, so we count what is committed, not what one session has pending.
    with Session(engine) as fresh:
        return fresh.exec(select(func.count()).select_from(DrawRow)).one()


def test_import_a_real_month(engine: Engine, session: Session) -> None:
    report = import_archive(session, fixture_text(JAN), JAN)
    assert (report.added, report.unchanged, report.conflicts, report.errors) == (143, 0, [], [])
    assert len(report.dates) == 13
    assert report.dates[0] == D(2023, 1, 3) and report.dates[-1] == D(2023, 1, 31)
    assert report.summary() == "13 draws (143 wheel results) added, 0 unchanged; 0 conflicts, 0 bad lines"
    assert row_count(engine) == 143


def test_rows_keep_source_and_canonical_line(session: Session) -> None:
    import_archive(session, fixture_text(JAN), JAN)
    row = session.exec(select(DrawRow).where(DrawRow.date == D(2023, 1, 3), DrawRow.wheel == "BA")).one()
    assert (row.n1, row.n2, row.n3, row.n4, row.n5) == (18, 60, 66, 51, 19)
    assert row.source == JAN
    assert row.line == "2023/01/03\tBA\t18\t60\t66\t51\t19"


def test_importing_twice_changes_nothing(engine: Engine, session: Session) -> None:
    import_archive(session, fixture_text(JAN), JAN)
    again = import_archive(session, fixture_text(JAN), "copy-of-" + JAN)
    assert (again.added, again.unchanged, again.conflicts, again.errors, again.dates) == (0, 143, [], [], [])
    assert again.summary() == "0 draws (0 wheel results) added, 143 unchanged; 0 conflicts, 0 bad lines"
    assert row_count(engine) == 143
    # The first source stays the recorded one.
    assert {r.source for r in session.exec(select(DrawRow)).all()} == {JAN}


def test_a_contradicting_line_is_refused_and_the_stored_draw_kept(
    engine: Engine, session: Session, tmp_path: Path
) -> None:
    import_archive(session, fixture_text(JAN), JAN)
    # A modified copy of the real file: 2023/01/03 BA ends in 20 instead of 19, plus one new day.
    lines = fixture_text(JAN).splitlines()
    index = lines.index("2023/01/03\tBA\t18\t60\t66\t51\t19")
    lines[index] = "2023/01/03\tBA\t18\t60\t66\t51\t20"
    lines.append("2023/02/02\tBA\t1\t2\t3\t4\t5")
    copy = tmp_path / "tampered.txt"
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")

    report = import_archive(session, copy.read_text(encoding="utf-8"), copy.name)

    assert report.conflicts == [
        f"tampered.txt:{index + 1}: '2023/01/03 BA 18 60 66 51 20' contradicts the stored draw of 2023/01/03 BA: "
        f"stored 18 60 66 51 19 (from {JAN}), new 18 60 66 51 20; the stored draw is kept"
    ]
    assert (report.added, report.unchanged, report.dates) == (1, 142, [D(2023, 2, 2)])
    assert report.summary() == "1 draw (1 wheel result) added, 142 unchanged; 1 conflict, 0 bad lines, 1 incomplete draw"
    assert row_count(engine) == 144
    with Session(engine) as fresh:
        assert get_draw(fresh, D(2023, 1, 3)).numbers["BA"] == (18, 60, 66, 51, 19)  # type: ignore[union-attr]


def test_parse_errors_are_reported_with_their_line_and_good_lines_stored(engine: Engine, session: Session) -> None:
    text = (
        "# pasted by a player\n"
        "2023/01/03\tBA\t18\t60\t66\t51\t19\n"
        "2023/01/03\tCA\t6\t1\t55\t27\n"
        "2023/01/03\tFI\t40\t83\t85\t82\t65\n"
    )
    report = import_archive(session, text, "paste")
    assert report.errors == [
        "paste:3: '2023/01/03 CA 6 1 55 27' has 4 numbers; a line needs the date, the wheel and 5 numbers"
    ]
    assert report.added == 2
    assert report.summary() == "1 draw (2 wheel results) added, 0 unchanged; 0 conflicts, 1 bad line, 1 incomplete draw"
    assert row_count(engine) == 2
    draw = get_draw(session, D(2023, 1, 3))
    assert draw is not None and missing_wheels(draw) == ["CA", "GE", "MI", "NA", "PA", "RM", "RN", "TO", "VE"]


def test_nothing_to_import(engine: Engine, session: Session) -> None:
    report = import_archive(session, "# only a comment\n\nnot a draw\n", "empty.txt")
    assert report.summary() == "0 draws (0 wheel results) added, 0 unchanged; 0 conflicts, 1 bad line"
    assert row_count(engine) == 0


def test_an_unexpected_failure_applies_nothing(
    engine: Engine, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_row_for = draw_store._row_for
    calls = 0

    def failing_row_for(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 100:
            raise RuntimeError("disk on fire")
        return real_row_for(*args, **kwargs)

    monkeypatch.setattr(draw_store, "_row_for", failing_row_for)
    with pytest.raises(RuntimeError, match="disk on fire"):
        import_archive(session, fixture_text(JAN), JAN)
    assert row_count(engine) == 0

    # The session is usable afterwards, and a clean retry stores everything.
    monkeypatch.setattr(draw_store, "_row_for", real_row_for)
    assert import_archive(session, fixture_text(JAN), JAN).added == 143
    assert row_count(engine) == 143


def test_date_and_wheel_are_unique_in_the_table(session: Session) -> None:
    import_archive(session, fixture_text(JAN), JAN)
    session.add(
        DrawRow(date=D(2023, 1, 3), wheel="BA", n1=1, n2=2, n3=3, n4=4, n5=5, source="x", line="x")
    )
    with pytest.raises(IntegrityError):
        session.commit()
    session.rollback()


# --- queries --------------------------------------------------------------------------------------


@pytest.fixture
def both_months(session: Session) -> Session:
    # Imported newest first, to show that the queries do not depend on import order.
    assert import_archive(session, fixture_text(SEP), SEP).added == 14 * 11
    assert import_archive(session, fixture_text(JAN), JAN).added == 13 * 11
    return session


def test_get_draw(both_months: Session) -> None:
    draw = get_draw(both_months, D(2023, 1, 3))
    assert draw is not None
    assert draw.wheels == WHEELS
    assert draw.numbers["BA"] == (18, 60, 66, 51, 19)
    assert draw.number("BA", 1) == 18
    assert get_draw(both_months, D(2026, 9, 24)).numbers["RN"] == (2, 66, 15, 11, 22)  # type: ignore[union-attr]
    assert get_draw(both_months, D(2023, 1, 4)) is None


def test_first_draw_on_or_after(both_months: Session) -> None:
    # 2023/01/04 is a Wednesday, between the Tuesday and Thursday draws.
    between = first_draw_on_or_after(both_months, D(2023, 1, 4))
    assert between is not None and between.date == D(2023, 1, 5)
    assert between.numbers["CA"] == (19, 80, 83, 53, 2)
    assert first_draw_on_or_after(both_months, D(2023, 1, 5)).date == D(2023, 1, 5)  # type: ignore[union-attr]
    assert first_draw_on_or_after(both_months, D(2000, 1, 1)).date == D(2023, 1, 3)  # type: ignore[union-attr]
    # The gap between the two files: the next stored draw is in 2026.
    assert first_draw_on_or_after(both_months, D(2023, 2, 1)).date == D(2026, 9, 1)  # type: ignore[union-attr]
    assert first_draw_on_or_after(both_months, D(2026, 9, 25)) is None


def test_draw_dates_after(both_months: Session) -> None:
    assert draw_dates_after(both_months, D(2023, 1, 28), 3) == [D(2023, 1, 31), D(2026, 9, 1), D(2026, 9, 3)]
    assert draw_dates_after(both_months, D(2023, 1, 29), 2) == [D(2023, 1, 31), D(2026, 9, 1)]
    # Strictly after: a draw day itself is not included.
    assert draw_dates_after(both_months, D(2026, 9, 22), 5) == [D(2026, 9, 24)]
    assert draw_dates_after(both_months, D(2026, 9, 24), 5) == []
    assert draw_dates_after(both_months, D(2023, 1, 3), 0) == []
    assert len(draw_dates_after(both_months, D(2000, 1, 1), 100)) == 27


def test_latest_draw_date(session: Session) -> None:
    assert latest_draw_date(session) is None
    import_archive(session, fixture_text(JAN), JAN)
    assert latest_draw_date(session) == D(2023, 1, 31)
    import_archive(session, fixture_text(SEP), SEP)
    assert latest_draw_date(session) == D(2026, 9, 24)


def test_empty_store(session: Session) -> None:
    assert get_draw(session, D(2023, 1, 3)) is None
    assert first_draw_on_or_after(session, D(2023, 1, 3)) is None
    assert draw_dates_after(session, D(2023, 1, 3), 5) == []


def test_report_pluralization() -> None:
    report = ImportReport(added=11, unchanged=1, conflicts=["c"], errors=["e", "f"], dates=[D(2023, 1, 3)])
    assert report.summary() == "1 draw (11 wheel results) added, 1 unchanged; 1 conflict, 2 bad lines"
