"""A turn's thread opened but never saved (the process killed between the two) is found again, not opened twice."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table

LABEL = "Turn 1 (290 BC)"


def test_a_thread_opened_but_never_saved_is_reused_with_one_announcement(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.discord import turn_threads

    saved = turn_threads.save_turn_thread
    lost: list[str] = []

    def dies_first(engine: Any, campaign_id: int, turn: int, thread_id: str, claimed: str | None = None) -> None:
        if not lost:
            lost.append(thread_id)
            raise RuntimeError("killed between the thread's creation and its save")
        saved(engine, campaign_id, turn, thread_id, claimed)

    monkeypatch.setattr(turn_threads, "save_turn_thread", dies_first)

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        await t.fake.wait_until(lambda: lost, 10, "the thread opened, its save lost")
        row = t.service.campaign_for_channel_name("mare")
        assert row is not None and row.id is not None
        thread = await t.bot.turn_places.open_turn(row.id)
        assert thread is not None and str(thread.id) == lost[0]
        named = [str(c.id) for c in t.fake.world.channels.values() if c.name == LABEL]
        assert named == lost
        announced = [m for m in t.fake.messages_in(lost[0]) if f"**{LABEL}**" in m["content"]]
        assert len(announced) == 1
        assert await t.bot.turn_places.stored(row.id, 1) is not None

    run(lambda: table(tmp_path, scenario))
