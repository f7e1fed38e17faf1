"""The Bank's choice in real play: a whole six-player game through the offline console where the scripted players
buy a Bank (and harbours) and nothing else; each turn a Bank's owner spends a prosperity and a poverty card, it is
asked which use it takes. Its owner answers the first time against the deadline's default; after that the deadline
answers for it. The export replays to the same chain head and passes ``verify``."""
from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

from sqlmodel import Session, select

from bot.schedule import scheduler as S
from bot.store.schedule_tables import DeadlineRow
from engine.events import Event
from engine.rulesets import load_ruleset
from engine.ruleset import Prompt
from engine.trading_mediterranean import game as gm, resolution
from engine.verify import verify
from tests.bot.schedule.scheduler_drive import fake_fetch
from tests.bot.drand.drand_fakes import assert_verified_but_for_the_test_chain
from tests.engine.trading_mediterranean.tm_players import play
from tests.engine.trading_mediterranean.tm_table import replay
from tests.games.test_trading_mediterranean_console import ConsoleTable
from tests.games.test_trading_mediterranean_shell import shell  # noqa: F401  (the fixture)
from tests.counted_salts import counted_salts

SIX = {"Ann": "ann", "Bob": "bob", "Cat": "cat", "Dan": "dan", "Eve": "eve", "Fay": "fay"}
HARBOURS_AND_BANKS = ("buy Fishing Port", "buy Harbour", "buy Lighthouse", "buy Bank")


def harbours_and_banks(offered: list[str]) -> list[str]:
    """Build what may be built; of the developments only those that make a harbour or a Bank."""
    return [c for c in offered if not c.startswith("buy ") or c.startswith(HARBOURS_AND_BANKS)]


def deadline_passes(service: Any, clock: Any, seat: str) -> None:
    """The clock past the seat's deadline, and every job then due run by the service's own scheduler."""

    async def main() -> None:
        scheduler = await S.start_scheduler(service, S.RecordingPoster(), clock, fetch=fake_fetch, run=False)
        try:
            with Session(service.engine) as session:
                (deadline,) = [d for d in session.exec(select(DeadlineRow)).all() if d.seat == seat and d.state != "done"]
            clock.advance(deadline.due_at - clock.now() + timedelta(minutes=1))
            await S.run_due(scheduler, clock.now(), clock)
        finally:
            scheduler.shutdown(wait=False)

    asyncio.run(main())


def test_a_banks_owner_chooses_and_then_the_deadline_chooses(shell) -> None:  # type: ignore[no-untyped-def]
    service, clock = shell
    service.salt = counted_salts("bank game")  # the deck key is a seal's salt: fixed here, so that the game is this one
    assert service.create_campaign("trading", "trading-mediterranean", "gm", SIX, options=["forum-6h"]).changed
    t = ConsoleTable(service, clock)
    for _ in range(10):
        t.wait()
        if t.state.phase == gm.CIVIC:
            break
    asked: list[tuple[int, str, list[str]]] = []

    def answer(prompt: Prompt) -> str | None:
        g = t.state
        if prompt.choices != ("bank prosperity", "bank poverty"):
            return str(prompt.on_timeout)  # a victim's losses: what the deadline would post
        spent = [str(h.card) for h in g.table.holdings[prompt.seat].cards if h.id in g.spending[prompt.seat]]
        asked.append((g.turn, prompt.seat, spent))
        if len(asked) == 1:
            return "bank poverty"
        deadline_passes(service, clock, prompt.seat)  # nobody answers: the scheduler posts the default
        return None

    play(t, SIX, pick=harbours_and_banks, answer=answer)
    assert t.state.phase == gm.OVER
    assert asked == [(3, "Cat", ["wool poverty", "grain prosperity", "ore democracy", "timber poverty", "salt mars"]),
                     (4, "Cat", ["wool poverty", "grain dictatorship", "ore poverty", "timber prosperity",
                                 "salt dictatorship"])]
    log = [json.loads(line) for line in service.export("trading").splitlines()]
    chosen = [(e["actor"], e["data"]) for e in log if e["kind"] == "bank.chosen"]
    # Cat's own click, then the deadline's default posted by the scheduler under the GM's name.
    assert chosen == [("cat", {"seat": "Cat", "use": "poverty"}), ("gm", {"seat": "Cat", "use": "prosperity"})]
    rules = load_ruleset("trading-mediterranean", service.data_dir).rules
    # What each choice was worth on the cards spent: poverty's sad faces ignored, or prosperity's VP tripled.
    turn3, turn4 = asked[0][2], asked[1][2]
    assert [(s.vp, s.happiness) for s in (resolution.spend(rules, turn3, "poverty"), resolution.spend(rules, turn3, "prosperity"))] == [(1, 0), (3, -2)]
    assert [(s.vp, s.happiness) for s in (resolution.spend(rules, turn4, "poverty"), resolution.spend(rules, turn4, "prosperity"))] == [(1, 0), (3, -2)]
    events = [Event.from_dict(e) for e in log]
    again = replay(events)
    assert again.head == events[-1].hash
    assert_verified_but_for_the_test_chain(verify(load_ruleset("trading-mediterranean", service.data_dir), events, {}))
