"""Undo by button on the fake Discord: an accepted order its author may still take back carries "Undo my last
order"; the click first says, to the clicker alone, which order it would take back (its number and words), and only
the confirmation takes it back, checked like a typed /undo. No button where no undo is possible (a refusal, a turn
that ended), and an old button clicked later is refused with the reason."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


async def _reply_to(t: Table, user: str, text: str, channel: str) -> dict[str, Any]:
    sent = await t.fake.user_says(channel, user, text)
    return await t.fake.wait_for_message(channel, lambda m: m.get("message_reference", {}).get("message_id") == sent["id"])


def test_undo_asks_first_naming_the_order_and_only_while_it_is_possible(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        events = lambda: len(t.service.export("mare").splitlines())  # noqa: E731
        built = await _reply_to(t, "sam", "build suburbs in Syria", "mare-nostrum")
        assert "✓ line 1" in built["content"]
        [button] = _buttons(built)
        assert button["label"] == "Undo my last order"
        # A refused order gets no button: nothing of it could be taken back.
        refused = await _reply_to(t, "sam", "build temple in Atlantis", "mare-nostrum")
        assert "✗" in refused["content"] and _buttons(refused) == []
        # Someone else's click: refused, to them alone, with the reason; nothing changes.
        before = events()
        other = await t.fake.click(built["id"], "bob", button["custom_id"])
        answer = await t.answer(other)
        assert t.ephemeral and "the latest decision is not yours" in answer["content"], answer["content"]
        # The author's click asks first, privately, naming the order and its number.
        asked = await t.fake.click(built["id"], "sam", button["custom_id"])
        question = await t.answer(asked)
        assert t.ephemeral and "build suburbs in Syria" in question["content"], question["content"]
        confirm, keep = _buttons(question)
        assert confirm["label"].startswith("Undo #") and keep["label"] == "Keep it"
        number = confirm["label"].removeprefix("Undo #")
        assert f"Take back order #{number}" in question["content"]
        kept = await t.fake.click(question["id"], "sam", keep["custom_id"])
        assert "nothing was taken back" in (await kept.wait_reply(timeout=10))["content"]
        assert events() == before, "asking and keeping change nothing"
        done = await t.fake.click(question["id"], "sam", confirm["custom_id"])
        said = (await t.answer(done))["content"]
        assert not t.ephemeral and f"takes back their order #{number}" in said and "build suburbs in Syria" in said
        assert events() == before + 1
        # Taken back: the same order is accepted again (suburbs are built once), and the console's /undo agrees.
        again = await _reply_to(t, "sam", "build suburbs in Syria", "mare-nostrum")
        assert "✓ line 1" in again["content"] and _buttons(again)
        preview = t.service.post(f"<@{t.uid('sam')}>", "/undo", "mare").render()
        assert "your latest order is #" in preview and "confirm with /undo" in preview
        wrong = t.service.post(f"<@{t.uid('sam')}>", "/undo 2", "mare").render()
        assert "✗" in wrong and "not #2" in wrong
        # The turn ends with a click on pass: no undo button any more, and the old one is refused with the reason.
        ended = await _reply_to(t, "sam", "pass", "mare-nostrum")
        assert "end their turn" in ended["content"] and _buttons(ended) == []
        late = await t.fake.click(again["id"], "sam", _buttons(again)[0]["custom_id"])
        assert t.ephemeral is not None
        late_answer = await t.answer(late)
        assert t.ephemeral and "your turn has passed" in late_answer["content"], late_answer["content"]
        # /order carries the button too, for the player now to play.
        ordered = await t.fake.invoke_slash(None, "mare-nostrum", "pat", "order", {"orders": "build suburbs in Aegyptus"})
        shown = await t.answer(ordered)
        assert "✓" in shown["content"] and [b["label"] for b in _buttons(shown)] == ["Undo my last order"]
        # The slash /undo: without a number it names the order to its author alone; with it, it takes it back.
        named = await t.slash("pat", "undo")
        assert t.ephemeral and "build suburbs in Aegyptus" in named, named
        seq = named.split("#")[1].split(":")[0]
        taken = await t.slash("pat", "undo", order=int(seq))
        assert not t.ephemeral and f"takes back their order #{seq}" in taken, taken

    run(lambda: table(tmp_path, scenario))
