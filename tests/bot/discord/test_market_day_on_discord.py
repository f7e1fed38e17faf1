"""Market Day (tests/games/market_day) on the fake Discord: the bot seals the deck key with the campaign and every
card dealt as soon as the seats are assigned, trades and a sealed promise go in as plain messages, each hand is read in an ephemeral
/private, and no message the bot posts shows a card's bottom or the promise to anyone but its holder or the offer's
two parties before the end."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.discord.hand_menu import HAND_SELECT
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.bot.discord.test_second_game import _readers
from tests.games import market_day

SEATS = {"North": "alice", "South": "bob", "East": "carla"}
PROMISE = "I will vote yes"


def test_market_day_on_discord(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, market_day.RULESET_ID, market_day.load)

    async def scenario(t: Table) -> None:
        gm_role = str(t.dev.roles["GM"].id)
        created = await t.slash("gm", "campaign", "create", name="market", gm_role=gm_role, ruleset="market-day",
                                randomness="lottery", clock="historical")
        assert "Campaign 'market' created (Market Day" in created, created
        for seat, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))
        assert t.service.summary("market").phase == "market", t.service.status("market")

        def board() -> object:  # the window's countdown: the pinned board, edited in place, a live Discord timestamp
            return next((m for m in t.fake.world.messages.values() if m.content.startswith("📋 **Status board")
                         and "trade until" in m.content and ":R>" in m.content), None)

        shown = await t.fake.wait_until(board, 10, "the status board with the window's deadline")
        assert all(f"• {seat} (" in shown.content for seat in SEATS)

        hands = {}
        for user in SEATS.values():
            mine = await t.slash(user, "private")
            assert t.ephemeral, "a hand is shown to its holder alone"
            body = json.loads(mine[mine.index("{"):mine.rindex("}") + 1])
            hands[user] = [(h["id"], h["card"]) for h in body["holding"]["held"]]
        bottoms = {user: [c for _, c in h if c.endswith("star")] for user, h in hands.items()}
        assert any(bottoms.values()), hands

        card, south = hands["alice"][0][0], hands["bob"][0]
        offer = await t.say("alice", f"offer {card}, 1 money for 1 {south[1].split()[0]} to South secretly {PROMISE}")
        assert "✓ line 1 (a sealed order)" in offer and PROMISE not in offer, offer
        # Bob answers from his hand's menu: /private, ephemeral, with a select menu of what he may do now.
        await t.slash("bob", "private")
        menu = max((m for m in t.fake.world.messages.values() if m.ephemeral and m.components
                    and m.interaction_metadata["user"]["id"] == t.uid("bob")), key=lambda m: int(m.id))
        options = [o["value"] for row in menu.components for c in row["components"] for o in c.get("options", [])]
        assert options[:2] == ["accept 1", "decline 1"] and options[-1] == "done", options
        await t.fake.click(menu.id, "bob", HAND_SELECT, values=["accept 1"], component_type=3)
        await t.fake.wait_until(lambda: t.service.state("market")["offers"][0]["status"] == "accepted" or None, 10,
                                "the pick")
        await t.fake.wait_until(lambda: any("South accepts offer 1" in m.content for m in t.fake.world.messages.values())
                                or None, 10, "the pick's answer")
        # Carla's offer to Bob: the ping that follows carries its Accept and Decline buttons, and Bob clicks one.
        await t.say("carla", "offer 1 money for nothing to South")
        def with_buttons() -> object:  # the ping goes to the turn's thread
            return next((m for m in t.fake.world.messages.values() if any(
                c.get("custom_id") == "legatus:choice:decline 2" for row in m.components for c in row["components"])), None)

        ping = await t.fake.wait_until(with_buttons, 10, "the ping with the offer's buttons")
        assert f"<@{t.uid('bob')}>" in ping.content
        await t.fake.click(ping.id, "bob", "legatus:choice:decline 2")
        await t.fake.wait_until(lambda: t.service.state("market")["offers"][1]["status"] == "declined" or None, 10,
                                "the click")
        for user in SEATS.values():
            await t.say(user, "done")
        await t.say("carla", "bid 1")
        await t.say("alice", "pass")
        await t.say("bob", "pass")
        await t.say("alice", "vote no")
        await t.say("bob", "vote no")
        summary = t.service.summary("market")
        assert summary.over, t.service.status("market")

        # Before the reveal, every message the bot posted: a bottom only to its holder (now or before the trade),
        # the promise only to the two parties.
        posted = [m for m in t.fake.world.messages.values() if m.author_id == t.fake.bot_user.id]
        reveal = min(int(m.id) for m in posted if "Every card is revealed now" in m.content)
        holders = {"wine star", "grain star"}
        private = 0
        for message in posted:
            if int(message.id) >= reveal:
                continue
            readers = _readers(t, message)
            if PROMISE in message.content:
                assert readers is not None and readers <= {t.uid("alice"), t.uid("bob")}, (message.content, readers)
            if any(b in message.content for b in holders):
                assert readers is not None and len(readers) == 1, (message.content, readers)
                private += 1
        holding_a_star = sum(1 for b in bottoms.values() if b)
        assert private >= holding_a_star >= 1, "each /private answer showed its bottoms to its holder alone"

    run(lambda: table(tmp_path, scenario))
