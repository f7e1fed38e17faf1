"""A counter-offer with a click on the fake Discord (bot/discord/order_words.py): the ping of an offer carries
Accept, Decline and "Counter…"; Counter opens a modal for the words, and the submission is posted as the clicker's
own order, checked like a typed line: a seat the offer is not made to is refused, the party's counter is applied."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.devdiscord.modals import submit_modal
from bot.discord.order_words import WORDS_BUTTON, WORDS_FIELD
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.games import market_day
from tests.games.market_day.ruleset import COUNTER_WORDS

SEATS = {"North": "alice", "South": "bob", "East": "carla"}
COUNTER = f"{WORDS_BUTTON}counter 1 {COUNTER_WORDS}"


def test_a_counter_offer_typed_in_a_modal_is_the_clickers_own_order(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, market_day.RULESET_ID, market_day.load)

    async def scenario(t: Table) -> None:
        await t.slash("gm", "campaign", "create", name="market", gm_role=str(t.dev.roles["GM"].id),
                      ruleset="market-day", randomness="lottery", clock="historical")
        for seat, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))
        assert t.service.summary("market").phase == "market", t.service.status("market")
        assert "✓" in await t.say("alice", "offer 2 money for 1 grain to South")

        def with_counter() -> Any:
            return next((m for m in t.fake.world.messages.values()
                         if any(c.get("custom_id") == COUNTER for row in m.components for c in row["components"])), None)

        ping = await t.fake.wait_until(with_counter, 10, "the ping with the offer's Counter button")
        labels = [c["label"] for row in ping.components for c in row["components"]]
        assert f"<@{t.uid('bob')}>" in ping.content and labels == ["done", "accept 1", "decline 1", "counter 1…"]

        # Carla is no party: her click opens a modal for her alone, and what she submits is refused as her order.
        opened = await t.fake.click(ping.id, "carla", COUNTER)
        await t.fake.wait_until(lambda: opened.record.modal, 10, "the modal")
        assert opened.record.modal["title"] == "counter 1"
        with pytest.raises(AssertionError, match="cannot submit a modal opened for another user"):
            await submit_modal(t.fake, opened, "bob", {WORDS_FIELD: "nothing for 2 money"})
        refused = await submit_modal(t.fake, opened, "carla", {WORDS_FIELD: "nothing for 2 money"})
        answer = await t.answer(refused)
        assert "✗" in answer["content"] and "offer 1 is made to South, not to East" in answer["content"], answer
        assert [o["id"] for o in t.service.state("market")["offers"]] == [1]

        # Bob's counter: "counter 1 " and his words, posted as his own order.
        mine = await t.fake.click(ping.id, "bob", COUNTER)
        await t.fake.wait_until(lambda: mine.record.modal, 10, "Bob's modal")
        applied = await t.answer(await submit_modal(t.fake, mine, "bob", {WORDS_FIELD: "goods.4\nfor 3 money"}))
        assert "✓" in applied["content"], applied
        offers = t.service.state("market")["offers"]
        assert [(o["id"], o["by"], o["to"], o.get("counters")) for o in offers] == [
            (1, "North", "South", None), (2, "South", "North", 1)]

    run(lambda: table(tmp_path, scenario))
