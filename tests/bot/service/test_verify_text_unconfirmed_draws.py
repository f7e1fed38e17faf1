"""Hole: "the Discord /verify said all was well about the typed numbers". The in-bot /verify compared the log with
the stored draws, which hold the GM's own typing: it checked the GM against the GM. Now a draw typed by a GM (or
given by one source) is checked only against two agreeing sources' word; without it the reply says the draw is
unconfirmed and how to check it, never "✓"."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlmodel import Session

from bot.schedule.clock import FixedClock, draw_moment
from bot.service.legatus import Legatus
from bot.service.verify_text import verification_text
from bot.store.db import open_engine
from bot.store.fetched_draws import FetchedDraw, record_fetch
from engine.lotto import Draw, wheels_on
from tests.conftest import PLAYERS

DAY = dt.date(2026, 12, 1)  # a Tuesday: a draw day
TYPED = {w: (i + 1, i + 11, i + 21, i + 31, i + 41) for i, w in enumerate(wheels_on(DAY))}


@pytest.fixture
def typed_draw(tmp_path: Path) -> Legatus:
    """A live campaign whose turn opened on a draw the GM typed while no source could be reached."""
    clock = FixedClock(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    assert service.post("gm", "/turn open").changed
    clock.moment = draw_moment(DAY) + dt.timedelta(hours=1)
    text = "; ".join(f"{w} {' '.join(map(str, n))}" for w, n in TYPED.items())
    typed = service.post("gm", f"/lotto confirm {DAY.isoformat()} {text}")
    assert typed.changed, typed.render()
    return service


def _sources_say(service: Legatus, numbers: dict[str, tuple[int, ...]]) -> None:
    later = draw_moment(DAY) + dt.timedelta(hours=3)
    with Session(service.engine) as session:
        for name in ("archive", "lotto-italia"):
            record_fetch(session, FetchedDraw(name, f"https://{name}", Draw(DAY, numbers), b"x", later))  # type: ignore[arg-type]


def test_the_in_bot_verify_never_vouches_for_numbers_a_gm_typed(typed_draw: Legatus) -> None:
    """Attacker: GM with Discord, typing the numbers of a draw no source could give, then pointing players to /verify."""
    result, _ = typed_draw.verify("c")
    text = verification_text(result)
    assert not text.startswith("✓"), text
    assert "not confirmed by the lottery's sources" in text and "2026-12-01" in text and "typed by a GM" in text
    assert "legatus verify campaign.log --draws storico01-oggi.zip" in text
    assert "mismatch" not in text.split("\n")[0], "an unconfirmed draw is not a mismatch"


def test_a_typed_draw_two_sources_later_confirm_is_vouched_for(typed_draw: Legatus) -> None:
    """Attacker: none; the sources came back and agree with the GM: their word, not the GM's, makes it ✓."""
    _sources_say(typed_draw, TYPED)
    text = verification_text(typed_draw.verify("c")[0])
    assert text.startswith("✓ Every number matches"), text


def test_a_typed_draw_two_sources_contradict_is_a_mismatch(typed_draw: Legatus) -> None:
    """Attacker: GM with Discord, whose typed numbers the sources, once back, contradict on one wheel."""
    _sources_say(typed_draw, {**TYPED, "PA": (90, 89, 88, 87, 86)})
    result, _ = typed_draw.verify("c")
    text = verification_text(result)
    assert text.startswith("✗"), text
    assert "wheel PA, position 1: the log has 7, the public draw has 90" in text
