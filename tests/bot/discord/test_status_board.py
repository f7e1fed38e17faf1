"""The status board on the fake Discord: posted and pinned once, then edited in place (one message, its id
stored), coalesced so a burst of changes is one edit, showing who is to play with their deadline as a Discord
timestamp and who has finished."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sqlmodel import Session

from bot.store.discord_places import status_board
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def test_the_status_board_is_pinned_once_and_edited_in_place(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        t.bot.boards.coalesce = 1.0  # both passes below fall in one window (each is answered in ~0.1 s)
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")

        def board() -> dict | None:  # type: ignore[type-arg]
            found = [m for m in t.fake.messages_in("mare-nostrum") if m["content"].startswith("📋 **Status board")]
            return found[-1] if found else None

        first = await t.fake.wait_until(lambda: (b := board()) and "Seleucids" in b["content"] and b["pinned"] and b, 10, "the pinned board")
        assert first["pinned"]
        assert "• Seleucids (<@" in first["content"] and "until <t:" in first["content"]
        edits_before = len(t.fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}"))
        # Three moves in a row: sam finishes, pat and max play; the board follows with a single edit.
        assert "end their turn" in await t.say("sam", "pass")
        assert "end their turn" in await t.say("pat", "pass")
        await t.fake.wait_until(lambda: "✓ Ptolemaics" in (board() or {}).get("content", ""), 10, "the board to follow")
        after = board()
        assert after is not None and after["id"] == first["id"], "edited in place, never posted again"
        assert "✓ Seleucids" in after["content"] and "• Macedonians (<@" in after["content"]
        assert "• Seleucids" not in after["content"]
        await asyncio.sleep(1.3)  # longer than a window: a second edit would be in
        edits = len(t.fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")) - edits_before
        assert edits == 1, f"two quick changes, one edit (got {edits})"
        assert len([m for m in t.fake.messages_in("mare-nostrum") if m["content"].startswith("📋")]) == 1
        row = t.service.campaign_for_channel_name("mare")
        assert row is not None and row.id is not None
        with Session(t.service.engine) as session:
            stored = status_board(session, row.id)
        assert stored is not None and stored.message_id == first["id"]

    run(lambda: table(tmp_path, scenario))


def test_a_choice_button_posts_the_choice_as_the_clicker_checked_like_a_typed_order(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        thread = await t.fake.wait_until(lambda: next((c for c in t.fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's thread")
        ping = await t.fake.wait_for_message(str(thread.id), lambda m: "it is your turn" in m["content"])
        buttons = [c for row in ping.get("components", []) for c in row.get("components", [])]
        assert [b["label"] for b in buttons] == ["pass"]
        # Someone else clicks the Seleucids' pass: refused as their typed "pass" would be, to them alone.
        refused = await t.fake.click(ping["id"], "bob", buttons[0]["custom_id"])
        answer = await t.answer(refused)
        assert t.ephemeral and "✗" in answer["content"], answer["content"]
        assert t.service.state("mare")["order_of_play"][0] == "Seleucids"
        acting_before = t.service.summary("mare")
        # The Seleucids' player clicks it: the pass is theirs, answered in public, and the next player is up.
        done = await t.fake.click(ping["id"], "sam", buttons[0]["custom_id"])
        assert "end their turn" in (await t.answer(done))["content"] and not t.ephemeral
        assert t.service.summary("mare").turn == acting_before.turn
        await t.fake.wait_for_message(str(thread.id), lambda m: m["content"] == f"<@{t.uid('pat')}>: it is your turn.")

    run(lambda: table(tmp_path, scenario))


def test_a_board_sent_but_never_saved_is_not_posted_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies between sending the board and saving its id (here: the save fails once). Its claim is still
    open at the next refresh, which finds the board in the channel and saves that one (a restart after Discord's nonce
    window, with real processes: tests/bot/discord/test_created_once.py)."""
    from bot.discord import status_board as boards

    saved = boards.save_status_board
    lost: list[str] = []

    def dies_first(engine: Any, campaign_id: int, channel_id: str, message_id: str, claimed: str | None = None) -> None:
        if not lost:
            lost.append(message_id)
            raise RuntimeError("killed between the send and the save")
        saved(engine, campaign_id, channel_id, message_id, claimed)

    monkeypatch.setattr(boards, "save_status_board", dies_first)

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        row = t.service.campaign_for_channel_name("mare")
        assert row is not None and row.id is not None
        await t.fake.wait_until(lambda: lost, 10, "the board sent, its save lost")
        message = await t.bot.boards.refresh(row.id)
        assert [m["id"] for m in t.fake.messages_in("mare-nostrum") if m["content"].startswith("📋")] == lost
        assert str(message.id) == lost[0]
        with Session(t.service.engine) as session:
            stored = status_board(session, row.id)
        assert stored is not None and stored.message_id == lost[0]

    run(lambda: table(tmp_path, scenario))


def test_a_boards_id_is_saved_by_the_writer_thread_between_rounds_of_posts(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """From a worker thread of its own, the save waited for SQLite's lock behind a burst's rounds of posts, past the
    busy timeout on a busy machine ("database is locked", the board sent and its id lost)."""
    import threading

    from bot.discord import status_board as boards

    saved = boards.save_status_board
    threads: list[str] = []

    def on_which_thread(engine: Any, campaign_id: int, channel_id: str, message_id: str,
                        claimed: str | None = None) -> None:
        saved(engine, campaign_id, channel_id, message_id, claimed)
        threads.append(threading.current_thread().name)  # once saved: the test then reads it back

    monkeypatch.setattr(boards, "save_status_board", on_which_thread)

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        row = t.service.campaign_for_channel_name("mare")
        assert row is not None and row.id is not None
        await t.fake.wait_until(lambda: threads, 10, "the board sent and saved")
        assert threads == ["legatus-posts"]
        board = [m["id"] for m in t.fake.messages_in("mare-nostrum") if m["content"].startswith("📋")]
        with Session(t.service.engine) as session:
            stored = status_board(session, row.id)
        assert stored is not None and [stored.message_id] == board

    run(lambda: table(tmp_path, scenario))
