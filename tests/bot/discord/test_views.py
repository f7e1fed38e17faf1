"""The bot's buttons are not kept by discord.py (bot/discord/views.py), and work all the same."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def test_no_view_is_kept_after_messages_with_buttons(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        store = t.bot._connection._view_store
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        sent = await t.fake.user_says("mare-nostrum", "sam", "build suburbs in Syria")
        built = await t.fake.wait_for_message(
            "mare-nostrum", lambda m: (m.get("message_reference") or {}).get("message_id") == sent["id"])
        [undo] = _buttons(built)
        question = await t.answer(await t.fake.click(built["id"], "sam", undo["custom_id"]))
        assert [b["label"] for b in _buttons(question)][1] == "Keep it"
        passed = await t.say("sam", "pass")
        assert "✓" in passed
        # The next seat's ping carries its "pass" button: clicked, it is that seat's pass.
        ping = await t.fake.wait_for_message("Turn 1 (290 BC)",
                                            lambda m: f"<@{t.uid('pat')}>" in m["content"] and _buttons(m))
        [choice] = _buttons(ping)
        clicked = await t.answer(await t.fake.click(ping["id"], "pat", choice["custom_id"]))
        assert "✓" in clicked["content"], clicked["content"]
        assert store._views == {} and list(store.persistent_views) == []

    run(lambda: table(tmp_path, scenario))
