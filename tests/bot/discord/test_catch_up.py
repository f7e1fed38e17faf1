"""Issue 23, catch-up: a post made while the bot is down is read, applied and answered after the restart, once.

Real `legatus run` processes against the fake Discord, stopped (SIGTERM) and started again as a deploy does. Each
restart reads the campaign channel's history after its read mark (bot/discord/catch_up.py): the post made while
the bot was away is applied in its order and answered, the answer saying it was read late; a second restart takes
nothing again, and takes what was posted during its own downtime.
"""
from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path
from typing import Any

from sqlmodel import Session

from bot.devdiscord import FakeDiscord
from bot.discord.catch_up import READ_LATE
from bot.service.legatus import Legatus
from bot.store.campaigns import find_campaign, load_events
from bot.store.db import open_engine
from bot.store.draws import import_archive
from tests.bot.discord.sharded_world import DRAWS, NATIONS, PLAYERS, BotProcess, build_world, start_bot

WAIT = 120.0  # a machine shared with other work: generous, and a passing run never sits it out
SEAT_OF = dict(zip(NATIONS, PLAYERS))
# The order of play the draw of 2023-01-03 gives (README).
FIRST, SECOND, THIRD, FOURTH = "Seleucids", "Ptolemaics", "Macedonians", "Romans"
JUMP_URL = re.compile(r"/channels/\d+/\d+/(\d+)")
CAMPAIGN = "camp-away"


async def _poll(predicate: Any, what: str) -> None:
    end = time.monotonic() + WAIT
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"waited {WAIT:g} s for {what}")
        await asyncio.sleep(0.05)


def _events(service: Legatus) -> int:
    return len(_actors(service))


def _actors(service: Legatus) -> list[str]:
    """Who made each event of the campaign's stored log, in order."""
    with Session(service.engine) as session:
        row = find_campaign(session, CAMPAIGN)
        assert row is not None and row.id is not None
        return [e.actor for e in load_events(session, row.id)]


def _answers(fake: FakeDiscord, channel_id: str, post_id: str) -> list[str]:
    """The bot's messages in the channel that answer the post: a reply to it, or a shared answer linking it."""
    found = []
    for message in fake.world.channel_messages(channel_id):
        if message.author_id != fake.bot_user.id:
            continue
        if (message.message_reference or {}).get("message_id") == post_id or post_id in JUMP_URL.findall(
                message.content or ""):
            found.append(message.content or "")
    return found


async def _start(fake: FakeDiscord, db: Path, tmp: Path, label: str) -> BotProcess:
    bot = await start_bot(fake, f"sqlite:///{db}", tmp, label, None, None)
    try:
        await _poll(lambda: "caught up after start-up" in bot.text(), f"{label} to catch up")
    except BaseException:
        await bot.stop(signal.SIGKILL)  # not yet the caller's to stop: never left running after the test
        print(f"--- {label} ---\n{bot.text()[-4000:]}")
        raise
    return bot


async def _stop(bot: BotProcess) -> None:
    bot.process.send_signal(signal.SIGTERM)
    code = await asyncio.wait_for(bot.process.wait(), 60)
    assert code == 0, bot.text()[-3000:]


def _campaign(fake: FakeDiscord, db: Path) -> tuple[Legatus, str, dict[str, str]]:
    """A historical Mare Nostrum campaign in the first guild's first channel, turn 1 open (no bot ran yet)."""
    place = build_world(fake)[0]
    channel = place.channels[0]
    service = Legatus(open_engine(str(db)))
    with Session(service.engine) as session:
        import_archive(session, DRAWS.read_text(encoding="utf-8"), "test")
        session.commit()
    gm = f"<@&{place.gm_role}>"
    players = {nation: f"<@{fake.user(name).id}>" for nation, name in SEAT_OF.items()}
    assert service.create_campaign(CAMPAIGN, "mare-nostrum", gm, players, "historical", str(place.guild.id),
                                   channel.id, place.gm_role).ok
    assert service.post(gm, "/turn open 2023-01-03", CAMPAIGN, is_gm=True).ok
    return service, channel.id, players


def test_a_post_made_while_the_bot_is_down_is_applied_and_answered_once_after_each_restart(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            db = tmp_path / "camp.db"
            service, channel, players = _campaign(fake, db)
            bots: list[BotProcess] = []
            try:
                bots.append(await _start(fake, db, tmp_path, "first"))
                opened = _events(service)
                live = await fake.user_says(channel, SEAT_OF[FIRST], "pass")
                await _poll(lambda: _answers(fake, channel, live["id"]), "the live post's answer")
                await _stop(bots[-1])
                after_live = _events(service)
                assert after_live > opened

                # Down: the next seat passes, and the table talks (read, and left alone, as when the bot is there).
                away = await fake.user_says(channel, SEAT_OF[SECOND], "pass")
                talk = await fake.user_says(channel, SEAT_OF[FOURTH], "good luck, everyone")
                bots.append(await _start(fake, db, tmp_path, "second"))
                await _poll(lambda: _answers(fake, channel, away["id"]), "the post made while away to be answered")
                after_away = _events(service)
                assert after_away > after_live
                await _stop(bots[-1])

                # Down again: the third seat passes; the next start takes it, and nothing taken before.
                again = await fake.user_says(channel, SEAT_OF[THIRD], "pass")
                bots.append(await _start(fake, db, tmp_path, "third"))
                await _poll(lambda: _answers(fake, channel, again["id"]), "the second downtime's post")
                await asyncio.sleep(2.0)  # time for a duplicate to show, were there one
                await _stop(bots[-1])
            finally:
                for bot in bots:
                    await bot.stop(signal.SIGKILL)
                    print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")  # shown by pytest when the test fails
            answers = {post["id"]: _answers(fake, channel, post["id"]) for post in (live, away, talk, again)}
        # Each pass answered exactly once; the late ones say so, the live one does not; table talk gets no answer.
        assert [len(answers[p["id"]]) for p in (live, away, talk, again)] == [1, 1, 0, 1], answers
        assert READ_LATE not in answers[live["id"]][0]
        assert answers[away["id"]][0].startswith(READ_LATE) and answers[again["id"]][0].startswith(READ_LATE)
        # Applied once each, in the order posted: the players' events after the turn opened are the three passes.
        assert _events(service) - after_away == after_away - after_live == after_live - opened
        made = [a for a in _actors(service)[opened:] if a in players.values()]
        assert list(dict.fromkeys(made)) == [players[FIRST], players[SECOND], players[THIRD]], made
        logs = [bot.text() for bot in bots]
        assert ["posts read late" in log for log in logs] == [True] * 3
        assert [re.findall(r"(\d+) posts read late", log)[0] for log in logs] == ["0", "2", "1"], logs  # the table talk too: read, no answer
        assert all("Traceback" not in log for log in logs), logs

    asyncio.run(asyncio.wait_for(scenario(), 300))


def test_posts_the_gateway_never_delivered_are_caught_up_after_a_new_session_and_a_resume(tmp_path: Path) -> None:
    """Discord drops the bot's session (op 9, not resumable): a post made before the bot identifies again reaches
    it by no event, only by the catch-up of the new session. Then a resume (op 7) with a post at the same moment:
    it is taken once, by the replay or by the resume's catch-up."""
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            db = tmp_path / "camp.db"
            service, channel, players = _campaign(fake, db)
            bot = await _start(fake, db, tmp_path, "bot")
            try:
                opened = _events(service)
                await fake.invalidate_sessions(resumable=False)
                lost = await fake.user_says(channel, SEAT_OF[FIRST], "pass")
                await _poll(lambda: _answers(fake, channel, lost["id"]), "the undelivered post's answer")
                assert not any(e == "MESSAGE_CREATE" and d.get("id") == lost["id"] for s in fake.sessions
                               for e, d in [(p["t"], p["d"]) for p in s.sent]), "the gateway did deliver it"
                await fake.force_reconnect()
                both = await fake.user_says(channel, SEAT_OF[SECOND], "pass")
                await _poll(lambda: "caught up after a gateway resume" in bot.text(), "the resume's catch-up")
                await _poll(lambda: _answers(fake, channel, both["id"]), "the post made as the bot resumed")
                await asyncio.sleep(2.0)  # time for a duplicate to show, were there one
                await _stop(bot)
            finally:
                await bot.stop(signal.SIGKILL)
                print(f"--- bot ---\n{bot.text()[-6000:]}")  # shown by pytest when the test fails
            lost_answers, both_answers = _answers(fake, channel, lost["id"]), _answers(fake, channel, both["id"])
        assert len(lost_answers) == 1 and lost_answers[0].startswith(READ_LATE), lost_answers
        assert len(both_answers) == 1, both_answers
        made = [a for a in _actors(service)[opened:] if a in players.values()]
        assert list(dict.fromkeys(made)) == [players[FIRST], players[SECOND]], made
        assert "Traceback" not in bot.text()

    asyncio.run(asyncio.wait_for(scenario(), 300))
