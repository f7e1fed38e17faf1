"""An offer with a hidden part on the fake Discord (bot/discord/party_notices.py): its recipient gets it by DM, the
promise with its Accept, Decline and Counter… buttons; the public answer says an offer was made between the two
with its public part, and the public ping carries none of its buttons. Nobody else reads the promise in any
message, nor can click the DM's buttons; the recipient's click (and the counter typed in its modal) is posted as
their own order."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.devdiscord.modals import submit_modal
from bot.discord.order_words import WORDS_FIELD
from bot.discord.party_notices import party_id
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.bot.discord.test_second_game import _readers
from tests.games import market_day
from tests.games.market_day.ruleset import COUNTER_WORDS

SEATS = {"North": "alice", "South": "bob", "East": "carla"}
PROMISE, SECOND = "I will vote yes", "I will not bid"


def buttons(message: Any) -> list[str]:
    return [c.get("custom_id", "") for row in message.components for c in row["components"]]


def test_an_offer_with_a_hidden_part_reaches_its_parties_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, market_day.RULESET_ID, market_day.load)

    async def scenario(t: Table) -> None:
        await t.slash("gm", "campaign", "create", name="market", gm_role=str(t.dev.roles["GM"].id),
                      ruleset="market-day", randomness="lottery", clock="historical")
        for seat, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))
        cid = t.service.campaign_for_channel_name("market").id
        answer = await t.say("alice", f"offer 1 money for nothing to South secretly {PROMISE}")
        assert "North gives 1 money to South for nothing (with a sealed promise for the other party)" in answer, answer

        def dm_of(user: str, text: str) -> Any:
            return lambda: next((m for m in t.fake.world.messages.values() if text in m.content
                                 and t.fake.world.channels[m.channel_id].recipients == [t.uid(user)]), None)

        dm = await t.fake.wait_until(dm_of("bob", PROMISE), 10, "Bob's DM with the promise")
        assert buttons(dm) == [party_id(cid, "accept 1"), party_id(cid, "decline 1"),
                               party_id(cid, f"counter 1 {COUNTER_WORDS}")]
        ping = await t.fake.wait_until(lambda: next((m for m in t.fake.world.messages.values()
                                                     if m.content.startswith(f"<@{t.uid('bob')}>")), None), 10, "the ping")
        assert buttons(ping) == ["legatus:choice:done"]  # the offer's answers went to Bob alone

        # Carla cannot click Bob's DM, and reads the promise nowhere.
        with pytest.raises(ValueError, match="carla is not in this direct message"):
            await t.fake.click(dm.id, "carla", party_id(cid, "accept 1"))
        for message in t.fake.world.messages.values():
            readers = _readers(t, message)
            if message.deleted:  # Alice's own post: the bot took it down (bot/discord/typed_secrets.py)
                continue
            if readers is None or t.uid("carla") in readers:
                assert PROMISE not in message.content, message.content
                assert not any(b.endswith(":accept 1") or b.endswith(":decline 1") for b in buttons(message))

        # Bob accepts from his DM: his own order, answered to him alone.
        clicked = await t.fake.click(dm.id, "bob", party_id(cid, "accept 1"))
        await t.fake.wait_until(lambda: t.service.state("market")["offers"][0]["status"] == "accepted" or None, 10,
                                "the acceptance")
        answer = await t.answer(clicked)
        assert "✓" in answer["content"] and "South: accept offer 1" in answer["content"], answer

        # A second promise, countered from the DM's modal.
        await t.say("carla", f"offer 2 money for nothing to South secretly {SECOND}")
        second = await t.fake.wait_until(dm_of("bob", SECOND), 10, "Bob's second DM")
        opened = await t.fake.click(second.id, "bob", party_id(cid, f"counter 2 {COUNTER_WORDS}"))
        await t.fake.wait_until(lambda: opened.record.modal, 10, "the modal")
        countered = await submit_modal(t.fake, opened, "bob", {WORDS_FIELD: "nothing for 3 money"})
        await t.fake.wait_until(lambda: len(t.service.state("market")["offers"]) == 3 or None, 10, "the counter")
        assert [(o["by"], o["to"], o.get("counters")) for o in t.service.state("market")["offers"]][2] == (
            "South", "East", 2)
        assert "✓" in (await t.answer(countered))["content"]

    run(lambda: table(tmp_path, scenario))
