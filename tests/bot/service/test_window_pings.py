"""Pings in an open window: each seat once when the window opens, again only when something new is asked of it (an
offer made to it) and by its deadline reminder, never for every post of the others; the phase after the window
pings as before."""
from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.service.window_pings import pinged_again, window_asked
from bot.store.db import open_engine
from bot.store.schedule_tables import save_settings
from engine.ruleset import BID, WINDOW, Prompt
from tests.bot.schedule.scheduler_drive import fake_fetch
from tests.conftest import LOTTO
from tests.games.test_market_day_shell import PLAYERS, PLUGIN, held, table  # noqa: F401  (the fixture)


def test_a_seat_asked_in_a_window_is_pinged_again_only_for_a_new_choice() -> None:
    asked = window_asked([Prompt("North", WINDOW, choices=("done",)), Prompt("South", BID, choices=("pass",))])
    assert asked == {"North": frozenset({"done"})}
    assert not pinged_again(Prompt("North", WINDOW, choices=("done",)), asked)
    assert pinged_again(Prompt("North", WINDOW, choices=("done", "accept 1")), asked)  # an offer made to it
    assert not pinged_again(Prompt("North", WINDOW, choices=()), asked)  # a choice gone is nothing new
    assert pinged_again(Prompt("South", WINDOW, choices=("done",)), asked)  # not asked in the window before
    assert pinged_again(Prompt("North", BID, choices=("pass",)), asked)  # another kind of prompt: a new question


def test_a_busy_market_pings_each_seat_once_and_the_recipient_of_an_offer(table) -> None:  # type: ignore[no-untyped-def]
    service, console, clock = table
    assert service.create_campaign("market", "market-day", "gm", PLAYERS).changed
    clock.advance(timedelta(seconds=30))
    opened = service.post("ann", "/status")  # the round is out: the goods are dealt, the market opens
    assert service.summary().phase == "market" and opened.ping == ["bob", "cat"]
    card = held(console, "ann")[0][0]
    assert service.post("ann", f"offer {card} for 1 money to South").ping == ["bob"]  # accept 1 / decline 1: new
    assert service.post("cat", "offer 1 money for 1 grain to everyone").ping == []  # nothing asked of one seat
    assert service.post("bob", "decline 1").ping == []
    assert service.post("cat", "withdraw 2").ping == []
    assert service.post("cat", "done").ping == []
    assert service.post("ann", "done").ping == []
    auction = service.post("bob", "done")  # the market closes: the auction asks every seat, a new question
    assert service.summary().phase == "auction" and sorted(auction.ping) == ["ann", "cat"]


def test_a_window_seats_deadline_reminder_pings_it_once_more(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("LEGATUS_RULESETS", PLUGIN)
    start = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
    clock = FixedClock(start)
    service = Legatus(open_engine(tmp_path / "m.db"), clock=clock)
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    assert service.create_campaign("market", "market-day", "gm", PLAYERS, randomness="lottery").changed
    save_settings(service.engine, 1, player_hours=24)  # a forum's window: a day, reminded 12 hours before its end

    async def main() -> list[list[str]]:
        poster = S.RecordingPoster()
        scheduler = await S.start_scheduler(service, poster, clock, fetch=fake_fetch, run=False)
        try:
            opened = service.post("gm", "/status")
            assert service.summary().phase == "market" and sorted(opened.ping) == ["ann", "bob", "cat"]
            assert service.post("ann", "offer 1 money for 1 grain to everyone").ping == []
            await S.run_due(scheduler, start + timedelta(hours=12, minutes=1), clock)
        finally:
            scheduler.shutdown(wait=False)
        return [s.ping for s in poster.sent if ":remind:" in s.key]

    assert sorted(asyncio.run(main())) == [["ann"], ["bob"], ["cat"]]  # each seat once, by its own reminder
