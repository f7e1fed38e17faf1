"""Issue 23, idempotent creation: real `legatus run` processes against the fake Discord, SIGKILLed while Discord has
made what the bot asked for (a turn's thread, the status board, a timeout's message) and before the bot saved it.

The fake carries the call out and holds its answer (``FakeDiscord.hold_next``): the thing exists on Discord, the
killed process never learnt its id. The restarted process makes each exactly once: a thread or board after
Discord's nonce window (its creation claim still open, found by its marker, bot/discord/made_once.py), a message
within it (sent again with the same nonce, which Discord enforces) and after it (found among the bot's messages
since its claim, by its first line: Discord keeps no nonce to find it by).
"""
from __future__ import annotations

import asyncio
import re
import signal
from datetime import timedelta
from pathlib import Path

from sqlmodel import Session, select

from bot.devdiscord import FakeDiscord
from bot.devdiscord.protocol import RecordedRequest
from bot.devdiscord.rest_messages import NONCE_SECONDS
from bot.discord.made_once import BOARD_HEADING
from bot.store.campaigns import find_campaign
from bot.store.discord_places import status_board, turn_thread
from bot.store.posted import PostedRow
from tests.bot.discord.sharded_world import bot_messages, build_world, start_bot
from tests.bot.discord.test_graceful_stop import ORDER, SEAT_OF, TIMEOUT, _poll, _restart_and_watch, _run, _seed

LABEL = "Turn 1 (290 BC)"


def _is_board(request: RecordedRequest) -> bool:
    return isinstance(request.json, dict) and str(request.json.get("content") or "").startswith(BOARD_HEADING)


def _is_timeout(request: RecordedRequest) -> bool:
    return isinstance(request.json, dict) and TIMEOUT in str(request.json.get("content") or "")


def _claims(db: Path) -> list[tuple[str, str | None]]:
    from bot.store.db import open_engine

    with Session(open_engine(str(db))) as session:
        return sorted((r.key, r.message_id) for r in session.exec(select(PostedRow)).all())


def test_a_thread_and_a_board_made_but_not_saved_when_the_bot_was_killed_exist_once_after_a_late_restart(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0, channel_message_limit=None) as fake:
            place = build_world(fake)[0]
            channel = place.channels[0]
            db = tmp_path / "camp.db"
            service = _seed(db, fake, [channel], place.guild, place.gm_role, tick=None, due_in=timedelta(hours=47))
            name = f"camp-{channel.name}"
            thread_made = fake.hold_next("POST", f"/channels/{channel.id}/threads")
            board_made = fake.hold_next("POST", f"/channels/{channel.id}/messages", when=_is_board)
            first = await start_bot(fake, f"sqlite:///{db}", tmp_path, "killed", None, None)
            try:
                await _poll(lambda: "logged in as" in first.text(), "the bot to log in")
                await fake.user_says(channel.id, SEAT_OF[ORDER[0]], "pass")
                await _poll(lambda: thread_made.reached.is_set() and board_made.reached.is_set(),
                            "the thread and the board made on Discord, their answers held")
                await first.stop(signal.SIGKILL)
            finally:
                await first.stop(signal.SIGKILL)
            thread_id = str(thread_made.held[0].response["id"])
            board_id = str(board_made.held[0].response["id"])
            # The bot stays away past Discord's nonce window, and the idle thread is archived meanwhile (its
            # announcement never came): neither Discord's nonce nor the gateway's cache of active threads finds them.
            await fake.archive_thread(thread_id)
            await fake.advance_clock(NONCE_SECONDS + 60)
            fake.server.release_holds()
            with Session(service.engine) as session:
                row = find_campaign(session, name)
                assert row is not None and row.id is not None
                campaign_id = row.id
                assert turn_thread(session, campaign_id, 1) is None and status_board(session, campaign_id) is None
            creations = [m for k, m in _claims(db) if k.startswith(("status-board:", "turn-thread:"))]
            assert creations == [None, None]  # both claimed before the call, neither recorded done
            second = await start_bot(fake, f"sqlite:///{db}", tmp_path, "restarted", None, None)
            try:
                await _poll(lambda: "logged in as" in second.text(), "the restarted bot to log in")
                await fake.user_says(channel.id, SEAT_OF[ORDER[1]], "pass")

                def saved() -> bool:
                    with Session(service.engine) as session:
                        return turn_thread(session, campaign_id, 1) is not None and \
                            status_board(session, campaign_id) is not None

                await _poll(saved, "the thread and the board saved by the restarted bot")
                await _poll(lambda: _boards_say(fake, channel.id, f"• {ORDER[2]} "),
                            "the board brought up to date (the third seat to play)")
                second.process.send_signal(signal.SIGTERM)
                code = await asyncio.wait_for(second.process.wait(), 60)
            finally:
                await second.stop(signal.SIGKILL)
                for bot in (first, second):
                    print(f"--- {bot.label} ---\n{bot.text()[-4000:]}")  # shown by pytest when the test fails
            threads = [str(c.id) for c in fake.world.channels.values() if c.name == LABEL and c.parent_id == channel.id]
            assert threads == [thread_id]
            boards = [m.id for m in fake.world.channel_messages(channel.id) if m.content.startswith(BOARD_HEADING)]
            assert boards == [board_id] and _boards_say(fake, channel.id, f"• {ORDER[2]} ")
            with Session(service.engine) as session:
                assert turn_thread(session, campaign_id, 1) == thread_id
                stored = status_board(session, campaign_id)
                assert stored is not None and stored.message_id == board_id
            announced = [m for m in fake.world.channel_messages(thread_id) if f"**{LABEL}**" in m.content]
            assert len(announced) == 1 and not fake.world.channels[thread_id].archived
            assert fake.world.messages[board_id].pinned
            assert [c for c in _claims(db) if c[0].startswith(("status-board:", "turn-thread:"))] == [
                (f"status-board:{campaign_id}:{channel.id}:first", board_id),
                (f"turn-thread:{campaign_id}:turn-1:first", thread_id)]
            log = second.text()
            assert code == 0 and "Traceback" not in log, log[-3000:]

    _run(scenario())


def _boards_say(fake: FakeDiscord, channel_id: str, text: str) -> bool:
    return any(m.content.startswith(BOARD_HEADING) and text in m.content
               for m in fake.world.channel_messages(channel_id))


def test_a_message_sent_but_not_recorded_when_the_bot_was_killed_is_sent_once_at_a_prompt_restart(
        tmp_path: Path) -> None:
    """Within Discord's nonce window the claimed message goes again with the same nonce and Discord returns the first
    one: this fails on a fake that ignores ``enforce_nonce`` (two timeouts)."""
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            place = build_world(fake)[0]
            channel = place.channels[0]
            db = tmp_path / "camp.db"
            # The first seat's deadline passed an hour ago: the first job posts its timeout at start.
            _seed(db, fake, [channel], place.guild, place.gm_role, tick=None, due_in=timedelta(hours=-1))
            sent = fake.hold_next("POST", re.compile(r"/channels/\d+/messages"), when=_is_timeout)
            first = await start_bot(fake, f"sqlite:///{db}", tmp_path, "killed", None, None)
            try:
                await _poll(lambda: sent.reached.is_set(), "the timeout made on Discord, its answer held")
                await first.stop(signal.SIGKILL)
            finally:
                await first.stop(signal.SIGKILL)
            fake.server.release_holds()
            assert len(bot_messages(fake, place.guild.id, TIMEOUT)) == 1
            assert [k for k, m in _claims(db) if m is None and ":timeout:" in k]  # claimed, never recorded sent
            found, code, second = await _restart_and_watch(
                fake, db, tmp_path, lambda: not [k for k, m in _claims(db) if m is None and ":timeout:" in k],
                "the timeout's claim recorded sent", lambda: bot_messages(fake, place.guild.id, TIMEOUT), (first,))
        assert len(found) == 1, found
        sent_id = str(sent.held[0].response["id"])
        assert [k for k, m in _claims(db) if ":timeout:" in k and m == sent_id], _claims(db)
        assert code == 0 and "Traceback" not in second.text(), second.text()[-3000:]

    _run(scenario())


def test_a_message_sent_but_not_recorded_when_the_bot_was_killed_is_sent_once_after_a_late_restart(
        tmp_path: Path) -> None:
    """Past Discord's nonce window the same nonce makes a second message: the restarted bot finds the first in the
    turn's history since the claim (fails on a bot that only sends again: two timeouts). The fake's ids follow its
    clock, as Discord's do, so "since the claim" means what it says."""
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0, ids_follow_clock=True) as fake:
            place = build_world(fake)[0]
            channel = place.channels[0]
            db = tmp_path / "camp.db"
            service = _seed(db, fake, [channel], place.guild, place.gm_role, tick=None, due_in=timedelta(hours=-1))
            sent = fake.hold_next("POST", re.compile(r"/channels/\d+/messages"), when=_is_timeout)
            first = await start_bot(fake, f"sqlite:///{db}", tmp_path, "killed", None, None)
            try:
                await _poll(lambda: sent.reached.is_set(), "the timeout made on Discord, its answer held")
                await first.stop(signal.SIGKILL)
            finally:
                await first.stop(signal.SIGKILL)
            await fake.advance_clock(NONCE_SECONDS + 60)
            fake.server.release_holds()
            sent_id = str(sent.held[0].response["id"])
            assert [k for k, m in _claims(db) if m is None and ":timeout:" in k]  # claimed, never recorded sent
            # Players went on talking in the turn's place meanwhile: the look-up reads past their posts.
            where = fake.world.messages[sent_id].channel_id
            for i in range(3):
                await fake.user_says(where, SEAT_OF[ORDER[2]], f"table talk {i}")
            found, code, second = await _restart_and_watch(
                fake, db, tmp_path, lambda: not [k for k, m in _claims(db) if m is None and ":timeout:" in k],
                "the timeout's claim recorded sent", lambda: bot_messages(fake, place.guild.id, TIMEOUT), (first,))
            with Session(service.engine) as session:
                campaign = find_campaign(session, f"camp-{channel.name}")
                assert campaign is not None
        assert len(found) == 1, found
        assert [m for k, m in _claims(db) if ":timeout:" in k] == [sent_id], _claims(db)
        assert f"was sent by an earlier attempt (message {sent_id})" in second.text()
        assert code == 0 and "Traceback" not in second.text(), second.text()[-3000:]

    _run(scenario())
