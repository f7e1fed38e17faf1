"""Hole: "a cancelled or moved draw leaves rolls waiting with only a GM-typed draw as a way out". A draw that was
never held is ruled so in the log (``draw.cancelled``, by whom, why), only once the lottery has visibly gone on
without it; its turn and rolls are bound again to draws still to come, as any new roll would be; the ruling cannot
bring back a draw that was held, and ``verify`` refuses it when the public draws hold that date."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.schedule.clock import FixedClock, draw_moment
from bot.service import DATA_DIR
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.chance import book as chance
from engine.events import Event, Rejection
from engine.lotto import wheels_on
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import PLAYERS
from tests.log_tools import events_of

CANCELLED = dt.date(2026, 12, 1)  # a Tuesday: a draw day
HELD = dt.date(2026, 12, 3)  # the Thursday after


def typed(day: dt.date) -> str:
    return "; ".join(f"{w} {i + 1} {i + 11} {i + 21} {i + 31} {i + 41}" for i, w in enumerate(wheels_on(day)))


@pytest.fixture
def waiting(tmp_path: Path) -> Legatus:
    """A live campaign whose turn 1 waits for the draw of CANCELLED."""
    clock = FixedClock(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    assert service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live").changed
    assert service.post("gm", "/turn open").changed
    assert service.state()["draw"] == CANCELLED.isoformat()
    return service


def test_a_draw_is_ruled_not_held_only_once_the_lottery_went_on_without_it(waiting: Legatus) -> None:
    clock = waiting.clock
    early = waiting.post("gm", "/lotto cancelled 2026-12-01 strike")
    assert not early.changed and "may still be published" in early.render()
    clock.moment = draw_moment(CANCELLED) + dt.timedelta(hours=30)
    alone = waiting.post("gm", "/lotto cancelled 2026-12-01 strike")
    assert not alone.changed and "no draw after 2026-12-01 is stored" in alone.render()
    assert not waiting.post("philip", "/lotto cancelled 2026-12-01 strike").changed, "a GM's ruling only"
    clock.moment = draw_moment(HELD) + dt.timedelta(hours=1)
    assert "is stored as confirmed by GM gm" in waiting.post("gm", f"/lotto confirm {HELD.isoformat()} {typed(HELD)}").render()
    assert "does not wait for the draw of 2026-12-03" in waiting.post("gm", "/lotto cancelled 2026-12-03 x").render()
    ruled = waiting.post("gm", "/lotto cancelled 2026-12-01 national strike of the lottery offices")
    assert ruled.changed, ruled.render()
    # The turn opens on the next draw still to come when the ruling is made (not on the one already held).
    assert waiting.state()["draw"] == "2026-12-04"
    assert "Turn 1 opens on the draw of 2026-12-04 instead" in ruled.render()
    cancelled = [e for e in events_of(waiting) if e.kind == "draw.cancelled"]
    assert [(e.data["date"], e.data["by"]) for e in cancelled] == [("2026-12-01", "gm:gm")]
    # Ruled once: not twice, and the draw can no longer be recorded for it.
    assert not waiting.post("gm", "/lotto cancelled 2026-12-01 again").changed
    assert Legatus(waiting.engine).state() == waiting.state()


def test_verify_names_the_ruling_and_refuses_it_when_the_draw_was_held(waiting: Legatus) -> None:
    waiting.clock.moment = draw_moment(HELD) + dt.timedelta(hours=1)
    assert "is stored as confirmed by GM gm" in waiting.post("gm", f"/lotto confirm {HELD.isoformat()} {typed(HELD)}").render()
    assert waiting.post("gm", "/lotto cancelled 2026-12-01 strike").changed
    ruleset = load_ruleset("mare-nostrum", DATA_DIR)
    events = events_of(waiting)
    held = {HELD.isoformat(): {w: [i + 1, i + 11, i + 21, i + 31, i + 41] for i, w in enumerate(wheels_on(HELD))}}
    honest = verify(ruleset, events, held)
    assert honest.ok, [str(f) for f in honest.findings]
    assert any("2026-12-01" in n and "ruled not held by gm:gm" in n for n in honest.notes), honest.notes
    # The public draws hold 2026-12-01 after all: the ruling gave its rolls a second chance.
    actually = {**held, CANCELLED.isoformat(): {w: [1, 2, 3, 4, 5] for w in wheels_on(CANCELLED)}}
    caught = verify(ruleset, events, actually)
    assert any(f.purpose == "draw of 2026-12-01" and "the public draws hold it" in f.detail for f in caught.findings)


def _book_event(kind: str, data: dict[str, object], draws: tuple[str, ...]) -> Event:
    return Event(seq=1, kind=kind, actor="legatus", data=data, draws=draws)


def test_the_chance_book_binds_the_rolls_of_a_cancelled_draw_to_fresh_slots_on_separate_wheels() -> None:
    book = chance.ChanceBook(source=chance.LOTTERY)
    asking = _book_event("order", {}, ("2026-12-01", "2026-12-03"))
    two_dice = chance.ask(book, asking, "volley", 1, 6, count=2)
    other = chance.ask(book, asking, "other", 1, 90)
    assert all(s.startswith("2026-12-01|") for s in two_dice.where + other.where)
    with pytest.raises(Rejection, match="nothing in this campaign waits for the draw of 2026-12-05"):
        chance.record(book, _book_event("draw.cancelled", {"date": "2026-12-05"}, ("2026-12-06",)))
    before = list(book.used)
    chance.record(book, _book_event("draw.cancelled", {"date": "2026-12-01"}, ("2026-12-04", "2026-12-05")))
    for binding in (two_dice, other):
        assert all(s.startswith("2026-12-04|") for s in binding.where), binding.where
        assert not set(binding.where) & set(before), "a fresh slot, never one handed out before"
    wheels = [s.split("|")[1] for s in two_dice.where]
    assert len(set(wheels)) == len(wheels), "numbers of one wheel and draw are linked: never two in one roll"
    assert {n.key for n in chance.needs(book)} == {"2026-12-04"}
    with pytest.raises(Rejection, match="ruled not held"):
        chance.record(book, _book_event("draw.recorded", {"date": "2026-12-01", "numbers": {"BA": [1, 2, 3, 4, 5]}}, ()))


def test_a_roll_waiting_for_a_cancelled_draw_is_bound_again_to_a_draw_still_to_come(waiting: Legatus) -> None:
    clock = waiting.clock
    clock.moment = draw_moment(CANCELLED) + dt.timedelta(hours=1)
    assert "is stored" in waiting.post("gm", f"/lotto confirm {CANCELLED.isoformat()} {typed(CANCELLED)}").render()
    assert waiting.post("gm", "/roll 1d6 omen").changed
    roll = waiting.state()["rolls"][-1]
    assert roll["draw"] == HELD.isoformat() and roll["number"] is None
    friday = dt.date(2026, 12, 4)
    clock.moment = draw_moment(friday) + dt.timedelta(hours=1)
    assert "is stored" in waiting.post("gm", f"/lotto confirm {friday.isoformat()} {typed(friday)}").render()
    ruled = waiting.post("gm", "/lotto cancelled 2026-12-03 moved to another day")
    assert ruled.changed, ruled.render()
    again = waiting.state()["rolls"][-1]
    assert again["id"] == roll["id"] and again["draw"] == "2026-12-05" and again["number"] is None
    assert (again["wheel"], again["position"]) == (roll["wheel"], roll["position"]), "the first free slot, as before"
    assert f"Roll #{roll['id']} (gm roll) is bound again to the draw of 2026-12-05" in ruled.render()
    from tests.log_tools import assert_trace_as_without_marks

    assert_trace_as_without_marks(load_ruleset("mare-nostrum", DATA_DIR), events_of(waiting))  # a roll bound again
