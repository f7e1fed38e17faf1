"""An open window's countdown on the fake Discord (bot/discord/window_countdown.py): one message while Market Day's
market is open, a live Discord timestamp of its deadline, edited in place as seats say done, and closed when the
window ends; no other message is posted for it."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from bot.discord.window_countdown import CLOSED, countdown_text
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.games import market_day

SEATS = {"North": "alice", "South": "bob", "East": "carla"}


def test_the_countdown_says_who_trades_and_when_the_window_closes() -> None:
    due = datetime(2026, 11, 22, 13, 0, tzinfo=timezone.utc)
    assert countdown_text(("North", "East"), due) == (
        "⏳ **Open window**: North, East still trading. It closes <t:1795352400:R> (<t:1795352400:F>), or when "
        "everyone says done.")
    assert countdown_text(("North",), None) == (
        "⏳ **Open window**: North still trading. It has no deadline set, or when everyone says done.")


def test_a_market_window_counts_down_in_one_message_edited_in_place(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, market_day.RULESET_ID, market_day.load)

    async def scenario(t: Table) -> None:
        await t.slash("gm", "campaign", "create", name="market", gm_role=str(t.dev.roles["GM"].id),
                      ruleset="market-day", randomness="lottery", clock="historical")
        for seat, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))
        assert t.service.summary("market").phase == "market"

        def countdowns() -> list[Any]:
            return [m for m in t.fake.world.messages.values() if m.author_id == t.fake.bot_user.id
                    and (m.content.startswith("⏳") or m.content == CLOSED)]

        def showing(text: str) -> Any:
            return lambda: next((m for m in countdowns() if text in m.content), None)

        shown = await t.fake.wait_until(showing("North, South, East still trading. It closes <t:"), 10, "the countdown")
        assert ":R> (<t:" in shown.content
        await t.say("alice", "done")
        await t.fake.wait_until(showing("South, East still trading"), 10, "the countdown without North")
        await t.say("bob", "done")
        await t.say("carla", "done")
        assert t.service.summary("market").phase == "auction"
        closed = await t.fake.wait_until(showing(CLOSED), 10, "the countdown closed")
        assert closed.id == shown.id and [m.id for m in countdowns()] == [shown.id]  # one message, edited

    run(lambda: table(tmp_path, scenario))
