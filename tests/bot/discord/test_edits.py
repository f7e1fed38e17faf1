"""An edited post (bot/discord/edits.py): its author is told once that edits are not read; table talk is left alone."""
from __future__ import annotations

from pathlib import Path

from bot.discord.edits import EDITS_NOT_READ
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def test_an_answered_post_edited_gets_one_note_and_table_talk_none(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        order = await t.fake.user_says("mare-nostrum", "sam", "build fortification in Syria")
        await t.fake.wait_for_message("mare-nostrum", lambda m: (m.get("message_reference") or {}).get(
            "message_id") == order["id"] and "✓" in m["content"], timeout=10)
        talk = await t.fake.user_says("mare-nostrum", "bob", "nice move")
        await t.fake.user_edits(order["id"], "build temple in Syria")
        note = await t.fake.wait_for_message(
            "mare-nostrum", lambda m: EDITS_NOT_READ in m["content"], timeout=10)
        assert note["content"] == f"<@{t.uid('sam')}>, {EDITS_NOT_READ}"
        assert note["message_reference"]["message_id"] == order["id"]
        assert note["mentions"] == []  # the author is named, not pinged
        await t.fake.user_edits(order["id"], "build suburbs in Syria")  # a second edit: no second note
        await t.fake.user_edits(talk["id"], "great move")
        # An answer after both edits: had either been noted, its note would have come before.
        await t.say("sam", "/status")
        notes = [m for m in t.fake.messages_in("mare-nostrum") if EDITS_NOT_READ in m["content"]]
        assert [n["id"] for n in notes] == [note["id"]]
        # The order applied is the one first sent: its building in the log, the edits' in no event.
        log = t.service.export("mare")
        assert '"fortification"' in log and '"temple"' not in log and '"suburbs"' not in log

    run(lambda: table(tmp_path, scenario))
