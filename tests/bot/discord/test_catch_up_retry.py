"""A catch-up that fails (the database busy past its timeout) is run again after a pause, a bounded number of times:
otherwise the posts made while the bot was away stayed unread until the next gateway resume or restart."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.discord import catch_up as catch_up_module
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def _failing(times: int, calls: list[str]) -> Any:
    real = catch_up_module.places_to_read

    def places(engine: Any, shard: Any) -> Any:
        calls.append("read")
        if len(calls) <= times:
            raise sqlite3.OperationalError("database is locked")
        return real(engine, shard)
    return places


def test_a_failed_catch_up_is_run_again_and_then_reads_the_campaign(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(catch_up_module, "RETRY_PAUSE", 0.01)

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        monkeypatch.setattr(catch_up_module, "places_to_read", _failing(2, calls))
        t.bot.catch_up.start("a test")
        await t.fake.wait_until(lambda: len(calls) == 3 and t.bot.catch_up._running.done(), 20,
                                "the catch-up tried again")
    run(lambda: table(tmp_path, scenario))
    assert calls == ["read", "read", "read"]  # failed, failed, then read


def test_a_catch_up_that_keeps_failing_is_given_up_after_its_retries(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(catch_up_module, "RETRY_PAUSE", 0.01)

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        monkeypatch.setattr(catch_up_module, "places_to_read", _failing(100, calls))
        t.bot.catch_up.start("a test")
        await t.fake.wait_until(lambda: t.bot.catch_up._running.done(), 20, "the catch-up given up")
    run(lambda: table(tmp_path, scenario))
    assert len(calls) == 1 + catch_up_module.RETRIES
