"""Hole: "the shell binds up to 5 minutes before a draw but verify requires 10": an honest roll bound 7 minutes
before 20:00 was offered that draw by the shell and then reported by ``verify`` as not bound in advance. One margin,
``engine.lotto.BINDING_MARGIN``, now decides both."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.schedule.clock import FixedClock, draw_moment, scheduled_draws_after
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine.rulesets import load_ruleset
from engine.verify import verify
from tests.conftest import PLAYERS
from tests.log_tools import events_of

DAY = dt.date(2026, 12, 1)  # a Tuesday: a draw day


def _not_bound_in_advance(service: Legatus) -> list[str]:
    events = events_of(service, "c")
    result = verify(load_ruleset("mare-nostrum", service.data_dir), events, {})
    return [str(f) for f in result.findings if "not bound in advance" in f.detail]


def test_a_binding_seven_minutes_before_the_draw_is_offered_by_the_shell_iff_verify_accepts_it(tmp_path: Path) -> None:
    """Attacker: none; an honest GM with an honest clock. A roll the shell binds must never read as a cheat."""
    seven_before = draw_moment(DAY) - dt.timedelta(minutes=7)
    clock = FixedClock(seven_before)
    service = Legatus(open_engine(tmp_path / "c.db"), clock=clock)
    service.create_campaign("c", "mare-nostrum", "gm", dict(PLAYERS), clock="live")
    opened = service.post("gm", "/turn open")
    assert opened.changed, opened.render()
    offered_today = scheduled_draws_after(seven_before, 1)[0] == DAY
    complaints = _not_bound_in_advance(service)
    assert offered_today is False and complaints == [], (offered_today, complaints)


def test_the_shell_and_verify_read_one_margin() -> None:
    """Attacker: none; the two sides of one rule must not drift apart again."""
    from bot.schedule import clock
    from engine import lotto, verify as verify_module

    assert clock.BINDING_MARGIN is lotto.BINDING_MARGIN is verify_module.LOTTERY_MARGIN
    just_outside = draw_moment(DAY) - lotto.BINDING_MARGIN - dt.timedelta(seconds=1)
    just_inside = draw_moment(DAY) - lotto.BINDING_MARGIN + dt.timedelta(seconds=1)
    assert scheduled_draws_after(just_outside, 1)[0] == DAY
    assert scheduled_draws_after(just_inside, 1)[0] > DAY
