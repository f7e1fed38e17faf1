"""The "you are next" heads-up sent exactly once across a SIGKILL after its claim: real `legatus run` processes
against the fake Discord, the bot killed with the heads-up claimed and either not yet made on Discord (its call kept
waiting by a long 429) or made and its answer never received (``hold_next``); restarted past Discord's nonce window.
On a bot that does not finish open claims the first is never sent and the second never recorded.
"""
from __future__ import annotations

import re
import signal
from datetime import timedelta
from pathlib import Path

import pytest

from bot.devdiscord import FakeDiscord
from bot.devdiscord.protocol import RecordedRequest
from bot.devdiscord.rest_messages import NONCE_SECONDS
from bot.service.heads_up import marker
from tests.bot.discord.sharded_world import build_world, start_bot
from tests.bot.discord.test_created_once import _claims
from tests.bot.discord.test_graceful_stop import ORDER, SEAT_OF, _poll, _restart_and_watch, _run, _seed

MESSAGES = re.compile(r"/channels/\d+/messages")
TOLD = marker(ORDER[2])  # the first seat passes: the second plays, the third's player is told


def _is_heads_up(request: RecordedRequest) -> bool:
    return isinstance(request.json, dict) and TOLD in str(request.json.get("content") or "")


@pytest.mark.parametrize("cut", ["before Discord made it", "after Discord made it"])
def test_a_heads_up_cut_by_a_kill_is_sent_once_after_a_late_restart(tmp_path: Path, cut: str) -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0, ids_follow_clock=True,
                                     channel_message_limit=None) as fake:
            place = build_world(fake)[0]
            channel = place.channels[0]
            db = tmp_path / "camp.db"
            _seed(db, fake, [channel], place.guild, place.gm_role, tick=None, due_in=timedelta(hours=47))
            made = None
            if cut == "before Discord made it":
                fake.rate_limit_next("POST", MESSAGES, retry_after=600, when=_is_heads_up)
            else:
                made = fake.hold_next("POST", MESSAGES, when=_is_heads_up)
            first = await start_bot(fake, f"sqlite:///{db}", tmp_path, "killed", None, None)
            try:
                await _poll(lambda: "logged in as" in first.text(), "the bot to log in")
                await fake.user_says(channel.id, SEAT_OF[ORDER[0]], "pass")
                await _poll(lambda: any(_is_heads_up(r) for r in fake.server.requests),
                            "the heads-up asked of Discord")
                await first.stop(signal.SIGKILL)
            finally:
                await first.stop(signal.SIGKILL)
            await fake.advance_clock(NONCE_SECONDS + 60)
            fake.server.release_holds()
            assert len(_told(fake)) == (0 if made is None else 1)
            open_claims = [k for k, m in _claims(db) if m is None and ":heads-up-" in k]
            assert open_claims == [f"campaign-1:turn-1:heads-up-{ORDER[2]}"]
            told, code, second = await _restart_and_watch(
                fake, db, tmp_path, lambda: not [k for k, m in _claims(db) if m is None and ":heads-up-" in k],
                "the heads-up's claim recorded", lambda: _told(fake), (first,))
        assert len(told) == 1, told
        if made is not None:
            assert told == [str(made.held[0].response["id"])]
            assert "was sent by an earlier process" in second.text()
        else:
            assert "left unsent by an earlier process: sent now" in second.text()
        assert [m for k, m in _claims(db) if ":heads-up-" in k] == told
        assert code == 0 and "Traceback" not in second.text(), second.text()[-3000:]

    _run(scenario())


def _told(fake: FakeDiscord) -> list[str]:
    assert fake.world.bot_user is not None
    return [m.id for m in fake.world.messages.values()
            if m.author_id == fake.world.bot_user.id and TOLD in (m.content or "") and not m.deleted]
