"""/state on the fake Discord: a readable card (an embed with the turn, its phase, who is to play and the standings,
all through the ruleset boundary) with the whole public state attached as state.json, never pages of JSON in the
channel; typed as a message it gives the same card. The console keeps its text output."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.service.state_card import FIELD_LIMIT, _fit
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table


def _uploaded(t: Table, filename: str) -> list[Any]:
    return [f for method in ("POST", "PATCH") for r in t.fake.requests if r.method == method for f in r.files
            if f.filename == filename]


def test_state_is_an_embed_with_the_public_state_attached(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        invocation = await t.fake.invoke_slash(None, "mare-nostrum", "carla", "state")
        card = await t.answer(invocation)
        assert not t.ephemeral and len(card["content"]) < 200, "a card, not a dump"
        embed = card["embeds"][0]
        assert embed["title"] == "Turn 1 (290 BC)"
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Phase"] == "orders" and fields["Status"] == "playing"
        assert fields["To play"].startswith(f"Seleucids (<@{t.uid('sam')}>): ")
        standings = fields["Standings"].splitlines()
        assert any(line.startswith("Romans: ") and f"<@{t.uid('alice')}>" in line and "province" in line
                   for line in standings), standings
        [attachment] = card["attachments"]
        assert attachment["filename"] == "state.json"
        sent = _uploaded(t, "state.json")
        assert sent and json.loads(sent[-1].data) == t.service.state("mare")
        # Typed as a message: the same card, as a reply, with the file; the channel gets no JSON text.
        said = await t.fake.user_says("mare-nostrum", "bob", "/state")
        reply = await t.fake.wait_for_message("mare-nostrum", lambda m: m.get("message_reference", {}).get("message_id") == said["id"])
        assert reply["embeds"][0]["title"] == "Turn 1 (290 BC)" and reply["attachments"][0]["filename"] == "state.json"
        assert '"order_of_play"' not in "".join(m["content"] for m in t.fake.messages_in("mare-nostrum"))
        assert len(_uploaded(t, "state.json")) == 2 and json.loads(_uploaded(t, "state.json")[-1].data) == t.service.state("mare")
        # The console's /state stays the JSON text.
        assert json.loads(t.service.post("<@1>", "/state", "mare").answers[0].details[0]) == t.service.state("mare")

    run(lambda: table(tmp_path, scenario))


def test_a_long_list_is_cut_within_discords_field_limit_and_says_how_many_were_left_out() -> None:
    lines = tuple(f"Seat {i} (<@{10**17 + i}>): orders" for i in range(80))
    shown = _fit(lines)
    assert len(shown) <= FIELD_LIMIT and shown.endswith("more (see state.json)")
    kept = shown.count("\n")
    assert f"… and {80 - kept} more" in shown
    assert _fit(lines[:3]) == "\n".join(lines[:3])
