"""The shared store of Italian Lotto draws: one table that every campaign in the database reads.

Draws are facts published by the operator, so the store only ever adds them: a stored result is never
overwritten, and a source that disagrees with it is refused and reported, because a campaign's past turns
were resolved with the stored numbers.

Everything here is synchronous and works on a session the caller owns.
"""
import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import UniqueConstraint, func
from sqlmodel import Field, Session, SQLModel, col, select

from engine.lotto import ArchiveEntry, Draw, Numbers, format_archive_line, format_numbers, parse_archive, wheels_on


class DrawRow(SQLModel, table=True):
    """One wheel's result on one draw day."""

    __tablename__ = "draw"
    __table_args__ = (UniqueConstraint("date", "wheel", name="uq_draw_date_wheel"),)

    id: int | None = Field(default=None, primary_key=True)
    date: dt.date = Field(index=True)
    wheel: str = Field(max_length=2)
    n1: int
    n2: int
    n3: int
    n4: int
    n5: int
    source: str  # where the result came from (file name or URL), to trace a wrong number back
    line: str  # the canonical archive line

    @property
    def numbers(self) -> Numbers:
        return (self.n1, self.n2, self.n3, self.n4, self.n5)


@dataclass
class ImportReport:
    added: int = 0  # wheel results written
    unchanged: int = 0  # wheel results already stored with the same numbers
    conflicts: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # lines that could not be read
    dates: list[dt.date] = field(default_factory=list)  # draw days that gained at least one result
    # Draw days of the file still lacking wheels once stored: no campaign can use them (a turn waits).
    incomplete: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{_count(len(self.dates), 'draw')} ({_count(self.added, 'wheel result')}) added, "
            f"{self.unchanged} unchanged; {_count(len(self.conflicts), 'conflict')}, "
            f"{_count(len(self.errors), 'bad line')}"
            + (f", {_count(len(self.incomplete), 'incomplete draw')}" if self.incomplete else "")
        )


def import_archive(session: Session, text: str, source: str, *, commit: bool = True) -> ImportReport:
    """Store every new wheel result of an archive text, in one transaction.

    Commits on success. On any unexpected failure rolls the session back and re-raises, so nothing is
    half-applied; hence the session should not hold unrelated pending changes when this is called. With
    ``commit=False`` (a post's transaction, which its owner commits or rolls back) it only flushes.
    """
    parsed = parse_archive(text, source)
    report = ImportReport(errors=[str(e) for e in parsed.errors])
    if not parsed.entries:
        return report
    try:
        stored = _stored_results(session, parsed.entries[0].date, parsed.entries[-1].date)
        added_dates: set[dt.date] = set()
        for entry in parsed.entries:
            known = stored.get((entry.date, entry.wheel))
            if known is None:
                session.add(_row_for(entry, source))
                report.added += 1
                added_dates.add(entry.date)
            elif known[0] == entry.numbers:
                report.unchanged += 1
            else:
                report.conflicts.append(_conflict_message(entry, source, *known))
        session.commit() if commit else session.flush()
    except BaseException:
        if commit:
            session.rollback()
        raise
    report.dates = sorted(added_dates)
    report.incomplete = incomplete_draws(session, sorted({entry.date for entry in parsed.entries}))
    return report


def incomplete_draws(session: Session, days: list[dt.date]) -> list[str]:
    """For each of ``days`` whose stored draw lacks wheels: which, and what to do (one query for all days)."""
    if not days:
        return []
    stored: dict[dt.date, set[str]] = {}
    rows = session.exec(select(col(DrawRow.date), col(DrawRow.wheel))
                        .where(DrawRow.date >= days[0], DrawRow.date <= days[-1])).all()
    for day, wheel in rows:
        stored.setdefault(day, set()).add(wheel)
    problems = []
    for day in days:
        expected = wheels_on(day)
        missing = [w for w in expected if w not in stored.get(day, set())]
        if missing:
            problems.append(f"the draw of {day.isoformat()} lacks {len(missing)} of {len(expected)} wheels: "
                            f"{', '.join(missing)}; import the whole draw (every wheel's line) before a turn can use it")
    return problems


def get_draw(session: Session, day: dt.date) -> Draw | None:
    """All the stored wheels of ``day``; possibly fewer than a full draw (see ``engine.lotto.missing_wheels``)."""
    # Columns, not ORM objects: a post that opens a turn or records its draw reads one (10 or 11 wheels).
    # sqlmodel's select() is typed for at most four columns; it takes any number.
    rows = session.exec(select(DrawRow.wheel, DrawRow.n1, DrawRow.n2, DrawRow.n3,  # type: ignore[call-overload]  # see above
                               DrawRow.n4, DrawRow.n5).where(DrawRow.date == day)).all()
    if not rows:
        return None
    return Draw(day, {wheel: (n1, n2, n3, n4, n5) for wheel, n1, n2, n3, n4, n5 in rows})


def source_of(session: Session, day: dt.date) -> str:
    """Where the stored draw of ``day`` came from ("agreed: a, b", "gm:<name>", "import:<file>"), for the log."""
    sources = session.exec(select(DrawRow.source).where(DrawRow.date == day).distinct()).all()
    return "; ".join(sorted(sources))


def first_draw_on_or_after(session: Session, day: dt.date) -> Draw | None:
    first = first_draw_day_on_or_after(session, day)
    return get_draw(session, first) if first is not None else None


def first_draw_day_on_or_after(session: Session, day: dt.date) -> dt.date | None:
    return session.exec(select(func.min(DrawRow.date)).where(DrawRow.date >= day)).one()


def draw_dates_after(session: Session, day: dt.date, limit: int) -> list[dt.date]:
    """The next ``limit`` stored draw days strictly after ``day``, oldest first."""
    if limit <= 0:
        return []
    query = select(col(DrawRow.date)).where(DrawRow.date > day).distinct().order_by(col(DrawRow.date)).limit(limit)
    return list(session.exec(query).all())


def latest_draw_date(session: Session) -> dt.date | None:
    return session.exec(select(func.max(DrawRow.date))).one()


_Stored = tuple[Numbers, str]  # numbers, source


def _stored_results(session: Session, first: dt.date, last: dt.date) -> dict[tuple[dt.date, str], _Stored]:
    # Columns, not ORM objects: a full-history import compares against ~100k rows.
    query = select(  # type: ignore[call-overload]  # typed for at most four columns; takes any number
        DrawRow.date, DrawRow.wheel, DrawRow.n1, DrawRow.n2, DrawRow.n3, DrawRow.n4, DrawRow.n5,
        DrawRow.source,
    ).where(DrawRow.date >= first, DrawRow.date <= last)
    return {
        (day, wheel): ((n1, n2, n3, n4, n5), src)
        for day, wheel, n1, n2, n3, n4, n5, src in session.exec(query)
    }


def _row_for(entry: ArchiveEntry, source: str) -> DrawRow:
    n1, n2, n3, n4, n5 = entry.numbers
    return DrawRow(
        date=entry.date, wheel=entry.wheel, n1=n1, n2=n2, n3=n3, n4=n4, n5=n5,
        source=source, line=format_archive_line(entry.date, entry.wheel, entry.numbers),
    )


def _conflict_message(entry: ArchiveEntry, source: str, numbers: Numbers, stored_source: str) -> str:
    where = f"{entry.date.strftime('%Y/%m/%d')} {entry.wheel}"
    return (
        f"{source}:{entry.line}: '{' '.join(entry.text.split())}' contradicts the stored draw of {where}: "
        f"stored {format_numbers(numbers)} (from {stored_source}), new {format_numbers(entry.numbers)}; "
        f"the stored draw is kept"
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
