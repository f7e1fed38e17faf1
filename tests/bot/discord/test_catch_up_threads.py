"""Issue 23, catch-up of every open turn thread: a post made while the bot was away in an older turn's thread that is
still open (a post there is taken like any other) is read after the restart, in order with the newest thread's, and
answered as read late. A real `legatus run` process against the fake Discord."""
from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from sqlmodel import Session

from bot.devdiscord import FakeDiscord
from bot.discord.catch_up import READ_LATE
from bot.service.legatus import Legatus
from bot.store.campaigns import find_campaign, load_events
from bot.store.db import open_engine
from bot.store.discord_places import save_turn_thread
from bot.store.draws import import_archive
from tests.bot.discord.sharded_world import DRAWS, NATIONS, PLAYERS, BotProcess, build_world
from tests.bot.discord.test_catch_up import _answers, _poll, _start, _stop

SEAT_OF = dict(zip(NATIONS, PLAYERS))
CAMPAIGN = "camp-threads"


def _at_turn_two(fake: FakeDiscord, db: Path) -> tuple[Legatus, str, dict[str, str], int]:
    """Turn 1 played and closed, turn 2 open (the draw of 2023-01-05: the Carthaginians, then the Romans, play)."""
    place = build_world(fake)[0]
    channel = place.channels[0]
    service = Legatus(open_engine(str(db)))
    with Session(service.engine) as session:
        import_archive(session, DRAWS.read_text(encoding="utf-8"), "test")
        session.commit()
    gm = f"<@&{place.gm_role}>"
    players = {nation: f"<@{fake.user(name).id}>" for nation, name in SEAT_OF.items()}
    assert service.create_campaign(CAMPAIGN, "mare-nostrum", gm, dict(players), "historical", str(place.guild.id),
                                   channel.id, place.gm_role).ok
    assert service.post(gm, "/turn open 2023-01-03", CAMPAIGN, is_gm=True).ok
    while service.state(CAMPAIGN)["phase"] == "orders":
        assert service.post(players[service.state(CAMPAIGN)["to_play"]], "pass", CAMPAIGN).ok
    assert service.post(gm, "/battle Bruttium winner Romans", CAMPAIGN, is_gm=True).ok
    assert service.post(gm, "/turn close", CAMPAIGN, is_gm=True).ok
    assert service.post(gm, "/turn open 2023-01-05", CAMPAIGN, is_gm=True).ok
    assert service.state(CAMPAIGN)["to_play"] == "Carthaginians"
    with Session(service.engine) as session:
        row = find_campaign(session, CAMPAIGN)
        assert row is not None and row.id is not None
        campaign_id = row.id
    return service, channel.id, players, campaign_id


def test_a_post_in_an_older_turns_open_thread_made_while_away_is_read_late_in_order(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            db = tmp_path / "camp.db"
            service, channel, players, campaign_id = _at_turn_two(fake, db)
            # Both turns' threads, opened by the bot in an earlier run (stored, marked from their start), both open.
            threads = [fake.world.add_thread(channel, label, owner_id=fake.bot_user.id).id
                       for label in ("Turn 1 (290 BC)", "Turn 2 (280 BC)")]
            for turn, thread in enumerate(threads, 1):
                save_turn_thread(service.engine, campaign_id, turn, thread)
            before = len(_events(service, campaign_id))
            # While the bot is away: the seat to play passes in turn 1's thread, the next one in turn 2's.
            older = await fake.user_says(threads[0], SEAT_OF["Carthaginians"], "pass")
            newer = await fake.user_says(threads[1], SEAT_OF["Romans"], "pass")
            bots: list[BotProcess] = []
            try:
                bots.append(await _start(fake, db, tmp_path, "restarted"))
                await _poll(lambda: _answers(fake, threads[0], older["id"]) and _answers(fake, threads[1], newer["id"]),
                            "both posts made while away to be answered")
                await asyncio.sleep(2.0)  # time for a duplicate to show, were there one
                await _stop(bots[-1])
            finally:
                for bot in bots:
                    await bot.stop(signal.SIGKILL)
                    print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")  # shown by pytest when the test fails
            answers = [_answers(fake, threads[0], older["id"]), _answers(fake, threads[1], newer["id"])]
        assert [len(a) for a in answers] == [1, 1], answers
        assert all(a[0].startswith(READ_LATE) and "✓ line 1 “pass”" in a[0] for a in answers), answers
        # Applied in the order posted: the Carthaginians' pass, then the Romans' (refused were it the other way).
        made = [e.actor for e in _events(service, campaign_id)[before:] if e.actor in players.values()]
        assert list(dict.fromkeys(made)) == [players["Carthaginians"], players["Romans"]], made
        log = bots[0].text()
        assert "3 places read, 2 posts read late" in log and "Traceback" not in log, log[-3000:]

    asyncio.run(asyncio.wait_for(scenario(), 300))


def _events(service: Legatus, campaign_id: int) -> list[Any]:
    with Session(service.engine) as session:
        return list(load_events(session, campaign_id))
