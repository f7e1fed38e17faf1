"""After a restart, the scheduler tells a seat an earlier run passed for its timeout from one that played in time by
asking the game (``MarksTimeouts.timed_out``), not by reading one game's events: Mare Nostrum's ``gm.pass`` with
the reason "timeout", or any other game's own event for it."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from bot.schedule.scheduler.deadline_jobs import passed_for_timeout
from engine.events import Event
from engine.ruleset import MarksTimeouts, Ruleset
from engine.rulesets import load_ruleset

DATA = Path(__file__).resolve().parents[3] / "data"
DUE = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
BEFORE, AT, AFTER = "2026-11-22T17:59:59+00:00", "2026-11-22T18:00:00+00:00", "2026-11-22T18:00:05+00:00"


def _event(seq: int, kind: str, data: dict[str, Any], at: str) -> Event:
    return Event(seq=seq, kind=kind, actor="gm", data=data, at=at)


class _Skipping:
    """A game whose timeout posts its own event, ``seat.skipped`` {"seat": ..., "why": "late"}."""

    def timed_out(self, event: Event) -> str | None:
        return str(event.data["seat"]) if event.kind == "seat.skipped" and event.data.get("why") == "late" else None


def test_mare_nostrum_says_its_timeout_pass_and_no_other_pass() -> None:
    game = cast(Ruleset, load_ruleset("mare-nostrum", DATA))
    assert isinstance(game, MarksTimeouts)
    passed = _event(9, "gm.pass", {"nation": "Romans", "reason": "timeout"}, AT)
    assert game.timed_out(passed) == "Romans"
    assert game.timed_out(_event(9, "gm.pass", {"nation": "Romans", "reason": "away this week"}, AT)) is None
    assert game.timed_out(_event(9, "order", {"nation": "Romans", "reason": "timeout"}, AT)) is None
    assert passed_for_timeout(game, [passed], "Romans", DUE)
    assert not passed_for_timeout(game, [passed], "Carthaginians", DUE)
    assert not passed_for_timeout(game, [_event(9, "gm.pass", {"nation": "Romans", "reason": "timeout"}, BEFORE)],
                                  "Romans", DUE), "a pass before the deadline is not this deadline's"


def test_a_game_with_another_pass_event_is_asked_in_its_own_words() -> None:
    game = cast(Ruleset, _Skipping())
    skipped = _event(4, "seat.skipped", {"seat": "North", "why": "late"}, AFTER)
    assert passed_for_timeout(game, [skipped], "North", DUE)
    assert not passed_for_timeout(game, [skipped], "South", DUE)
    assert not passed_for_timeout(game, [_event(4, "seat.skipped", {"seat": "North", "why": "asked"}, AFTER)],
                                  "North", DUE)
    # Mare Nostrum's event means nothing to this game: the shell no longer reads gm.pass itself.
    assert not passed_for_timeout(game, [_event(5, "gm.pass", {"nation": "North", "reason": "timeout"}, AFTER)],
                                  "North", DUE)


def test_a_game_that_does_not_say_has_no_timeout_pass() -> None:
    class Silent:
        pass

    events = [_event(5, "gm.pass", {"nation": "North", "reason": "timeout"}, AFTER)]
    assert not passed_for_timeout(cast(Ruleset, Silent()), events, "North", DUE)
