"""/verify's verdict longer than one Discord message arrives whole: every part, in order, the log with the first."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.discord.bot import LegatusBot
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from tests.bot.discord.test_turn_threads import driven_scheduler, with_bot  # noqa: F401  (a fixture)

# 120 numbered lines of 38 characters: 4,679 characters, three Discord messages of 51, 51 and 18 lines (each cut
# at a line end, its newline trimmed as Discord does); a cut at 2,000 characters used to drop the last 69 lines.
LINES = [f"mismatch {i:03d}: " + "x" * 24 for i in range(120)]


def test_a_verify_verdict_over_2000_characters_is_sent_whole_in_order(
        tmp_path: Path, driven_scheduler: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.verify_text.verification_text", lambda result, unread=0: "\n".join(LINES))
    service = Legatus(open_engine(tmp_path / "live.db"))
    parts: list[dict[str, Any]] = []

    async def scenario() -> None:
        async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
            world = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base, fake.gateway_url):

                async def run(bot: LegatusBot) -> None:
                    channel = str(world.channels["mare-nostrum"].id)
                    made = await fake.invoke_slash(None, channel, "gm", "campaign",
                                                   {"name": "live", "gm_role": str(world.roles["GM"].id)},
                                                   subcommand="create")
                    assert "created" in (await made.wait_reply(timeout=10))["content"]
                    asked = await fake.invoke_slash(None, channel, "gm", "verify", {})
                    # The first part takes the place of the deferral's "thinking", the others follow it.
                    parts.append(await asked.wait_reply(timeout=20))
                    await asked.wait_followup(1, timeout=10)
                    await asyncio.sleep(0.3)  # a fourth part, were one sent, would be here by now
                    parts.extend(asked.followups)

                await with_bot(fake, world, service, run)

    asyncio.run(asyncio.wait_for(scenario(), 60))
    assert [p["content"].splitlines() for p in parts] == [LINES[:51], LINES[51:102], LINES[102:]]
    assert [a["filename"] for a in parts[0]["attachments"]] == ["live.log"]
    assert [p["attachments"] for p in parts[1:]] == [[], []]


def test_a_sealed_answer_over_2000_characters_reaches_its_author_whole_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An accepted /order whose author's copy (the sealed lines quoted) runs to three messages: all three, to the
    author alone, in order; the channel's answer is unchanged."""
    from bot.service.replies import Reply
    from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table

    plain = Reply.render
    monkeypatch.setattr(Reply, "sealed", property(lambda self: True))
    monkeypatch.setattr(Reply, "render", lambda self, for_author=True: "\n".join(LINES) if for_author
                        else plain(self, for_author=False))
    private: list[dict[str, Any]] = []

    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        ordered = await t.fake.invoke_slash(None, "mare-nostrum", "sam", "order",
                                            {"orders": "build suburbs in Syria"})
        shown = await t.answer(ordered)
        assert not t.ephemeral and "✓" in shown["content"] and "mismatch" not in shown["content"], shown["content"]
        await ordered.wait_followup(2, timeout=10)
        await asyncio.sleep(0.3)  # a fourth part, were one sent, would be here by now
        private.extend(m for m in ordered.followups if m.get("flags", 0) & 64)

    run(lambda: table(tmp_path, scenario))
    assert [m["content"].splitlines() for m in private] == [LINES[:51], LINES[51:102], LINES[102:]]
