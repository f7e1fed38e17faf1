"""Rules version 2 through the service and its scheduler: a calamity victim who does not name its losses by the
deadline loses what version 1's fixed order takes, posted for it by the scheduler's timeout."""
from __future__ import annotations

import asyncio
import itertools
import json
from datetime import timedelta

from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.store.schedule_tables import DeadlineRow
from engine.trading_mediterranean import game as gm
from tests.bot.schedule.scheduler_drive import fake_fetch
from tests.engine.trading_mediterranean.tm_players import play
from tests.games.test_trading_mediterranean_shell import PLAYERS, ServiceTable, shell  # noqa: F401  (the fixture)


def test_a_victim_silent_at_the_deadline_loses_the_fixed_order(shell) -> None:  # type: ignore[no-untyped-def]
    service, clock = shell
    count = itertools.count()
    service.salt = lambda: f"{next(count):032x}"  # the bot's seals, and so the whole game, the same every run
    assert service.create_campaign("trading", "trading-mediterranean", "gm", PLAYERS, options=["forum-12h"]).changed
    t = ServiceTable(service, clock)
    for _ in range(10):
        t.wait()
        if t.state.phase == gm.CIVIC:
            break
    assert t.state.rules_version == 2  # the service writes the newest reading into a new campaign
    play(t, PLAYERS, until=lambda g: g.loss_due is not None)
    seat, name = t.state.loss_due
    ruleset = service.folded("trading")[0]
    (prompt,) = ruleset.prompts(t.state)
    assert (prompt.seat, prompt.hours) == (seat, 12.0) and prompt.on_timeout.startswith("lose ")
    civ = t.state.civs[seat]
    lost = prompt.on_timeout[len("lose "):].split(", ")
    expected = dict(civ.cubes)
    for place in lost:
        expected[place] -= 1
    expected = {p: n for p, n in expected.items() if n}

    poster = S.RecordingPoster()

    async def main() -> None:
        scheduler = await S.start_scheduler(service, poster, clock, fetch=fake_fetch, run=False)
        try:
            with Session(service.engine) as session:
                (deadline,) = [d for d in session.exec(select(DeadlineRow)).all() if d.seat == seat and d.state != "done"]
            assert deadline.due_at > clock.now()  # the campaign's own hours for a player (its settings)
            clock.advance(deadline.due_at - clock.now() + timedelta(minutes=1))
            # Every job due, the turn results of the round that ended by play among them (they once failed: this
            # game's turns are not closed by a GM's event).
            await S.run_due(scheduler, clock.now(), clock)
        finally:
            scheduler.shutdown(wait=False)

    asyncio.run(main())
    (results,) = [s for s in poster.sent if s.key.endswith(":turn-1:results")]
    assert results.text.endswith(": the map and the provinces so far.")
    assert results.files and all(data.startswith(b"\x89PNG") for _name, data in results.files)
    after = service.folded("trading")[1]
    assert after.loss_due != (seat, name)
    assert after.civs[seat].cubes == expected
    (losses,) = [json.loads(line) for line in service.export("trading").splitlines() if '"calamity.losses"' in line]
    assert (losses["actor"], losses["data"]) == ("gm", {"seat": seat, "cubes": lost, "buildings": []})
