"""Hole: "a GM can type a draw before it is held". A GM's confirmation is refused before the draw's time plus the
publication margin, refused for a draw two sources already settled, and what it stores is marked ``gm:<name>``,
carried into the log's ``draw.recorded`` so ``verify`` lists it; an imported file is marked ``import:<file>``."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from sqlmodel import Session, select

from bot.lottery.reconcile import PUBLICATION_MARGIN, Status, confirm_by_gm
from bot.schedule.clock import FixedClock, draw_moment
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.draws import DrawRow, get_draw
from bot.store.fetched_draws import FetchedDraw, record_fetch
from engine.lotto import Draw, wheels_on
from tests.conftest import PLAYERS

DAY = dt.date(2026, 12, 1)  # a Tuesday: a draw day
FULL = "; ".join(f"{w} {i + 1} {i + 11} {i + 21} {i + 31} {i + 41}" for i, w in enumerate(wheels_on(DAY)))


def _draw() -> Draw:
    return Draw(DAY, {w: (i + 1, i + 11, i + 21, i + 31, i + 41) for i, w in enumerate(wheels_on(DAY))})


def test_a_draw_cannot_be_typed_before_it_is_held_and_published(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    held = draw_moment(DAY)
    with Session(engine) as session:
        for moment in (held - dt.timedelta(days=1), held, held + PUBLICATION_MARGIN - dt.timedelta(seconds=1)):
            early = confirm_by_gm(session, DAY, FULL, "alice", now=lambda m=moment: m)
            assert early.status is Status.REFUSED
            assert "20:00 Europe/Rome" in early.message and "20:30" in early.message
            assert get_draw(session, DAY) is None
        late = confirm_by_gm(session, DAY, FULL, "alice", now=lambda: held + PUBLICATION_MARGIN)
        assert late.status is Status.STORED
        rows = session.exec(select(DrawRow).where(DrawRow.date == DAY)).all()
        assert {r.source for r in rows} == {"gm:alice"}


def test_a_draw_two_sources_settled_is_not_for_a_gm_to_type(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    after = draw_moment(DAY) + dt.timedelta(hours=2)
    with Session(engine) as session:
        for name in ("lotto-italia", "archive"):
            record_fetch(session, FetchedDraw(name, f"https://{name}", _draw(), b"x", after))
        other = FULL.replace("BA 1 11", "BA 2 11")
        outcome = confirm_by_gm(session, DAY, other, "alice", now=lambda: after)
        assert outcome.status is Status.REFUSED
        assert "archive and lotto-italia agree" in outcome.message and "not typed by a GM" in outcome.message, outcome.message
        assert get_draw(session, DAY) is None


def test_a_gm_typed_draw_is_named_by_verify(tmp_path: Path) -> None:
    clock = FixedClock(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    assert service.post("gm", "/turn open").changed
    early = service.post("gm", f"/lotto confirm {DAY.isoformat()} {FULL}")
    assert not early.changed and "20:00 Europe/Rome" in early.render()
    clock.moment = draw_moment(DAY) + dt.timedelta(hours=1)
    typed = service.post("gm", f"/lotto confirm {DAY.isoformat()} {FULL}")
    assert typed.changed, typed.render()
    text = service.export("c")
    assert '"source":"gm:gm"' in text.replace(" ", "")
    ruleset, _ = service.folded("c")
    result, _ = service.verify("c")
    assert any("typed by a GM" in n and DAY.isoformat() in n for n in result.notes), result.notes


def test_imported_draws_are_marked_and_named_by_verify(service: Legatus, lotto_dir: Path, tmp_path: Path) -> None:
    from tests.conftest import PLAYERS

    from bot.cli.main import main

    db = tmp_path / "imp.db"
    assert main(["lotto", "import", str(lotto_dir / "draws-2023-01.txt"), "--db", str(db)]) == 0
    service = Legatus(open_engine(db), clock=service.clock)
    with Session(service.engine) as session:
        assert {r.source for r in session.exec(select(DrawRow)).all()} == {"import:draws-2023-01.txt"}
    service.create_campaign("c", "mare-nostrum", "gm", PLAYERS)
    service.post("gm", "/turn open 2023-01-03")
    service.post("hanno", "peace treaty with Gauls")
    result, _ = service.verify("c")
    assert any("imported, not fetched from two sources" in n for n in result.notes), result.notes


def test_a_draw_of_mixed_sources_names_each_doubtful_one() -> None:
    """A draw whose wheels came from an import and a GM (sources joined by '; ') is named for both."""
    from engine.verify import _draw_provenance

    assert _draw_provenance("agreed: archive, lotto-italia") == ""
    mixed = _draw_provenance("agreed: archive, lotto-italia; gm:bob; import:draws.txt")
    assert "typed by a GM" in mixed and "imported, not fetched from two sources" in mixed
