"""Legatus against the fake Discord where it is as strict as Discord (tests/bot/devdiscord/test_strictness.py):
missing channel permissions, interaction deadlines."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.devdiscord import model
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def test_without_create_public_threads_the_turn_still_reaches_the_players(tmp_path: Path) -> None:
    """The fake refuses the turn's thread (403/50013); the bot logs it and still answers and pings in the channel."""
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        for target in ("@everyone", "Legatus"):
            await t.fake.set_overwrite("mare-nostrum", target, deny=model.CREATE_PUBLIC_THREADS)
        opened = await t.slash("gm", "turn", "open", date="2023-01-03")
        assert "Order of play" in opened
        # The thread opens beside the answer (the service's observer), so it may come just after it.
        refused = await t.fake.wait_until(lambda: t.fake.requests_to("POST", "/channels/{channel_id}/threads"), 5, "the thread")
        assert refused[-1].status == 403  # the fake refused as Discord does
        first = t.uid("sam")  # the Seleucids play first on 2023-01-03
        told = await t.fake.wait_until(
            lambda: [m for m in t.fake.messages_in("mare-nostrum")
                     if first in t.fake.notified(m["id"]) or "Create Public Threads" in m["content"]],
            3, "the first player pinged, or the GM told the thread could not be opened")
        assert told

    run(lambda: table(tmp_path, scenario))


def test_a_slash_command_waiting_for_the_campaign_lock_still_answers_in_time(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        lock = t.bot._locks["mare"]
        await lock.acquire()  # a post of another player (or a scheduled job) is being worked on
        try:
            invocation = await t.fake.invoke_slash(None, "mare-nostrum", "gm", "turn", subcommand="status")

            def answered() -> list[Any]:
                return [r for r in t.fake.requests_to("POST", "/interactions/{interaction_id}/{token}/callback")
                        if f"/interactions/{invocation.id}/" in r.path]

            # The first answer comes while the lock is still held (within Discord's 3 s, on the wall clock)...
            (callback,) = await t.fake.wait_until(answered, 2.5, "the bot's deferral")
            assert callback.ok, callback.response
            await t.fake.advance_clock(3.5)  # ...and the lock is held for longer than Discord waits for it
        finally:
            lock.release()
        board = await t.answer(invocation)  # the follow-up, once the lock is free
        assert board["embeds"][0]["title"] == "Status board" and not t.ephemeral

    run(lambda: table(tmp_path, scenario))

