"""Trading in the Mediterranean on the fake Discord, a live campaign: the seats assigned, the bot seals the deck key
and every card dealt; the civic window closes when all say done; the trading window's countdown is on the status
board, edited in place; an offer in plain words pings its recipient with Accept and Decline buttons and a click
accepts it; another is declined from the hand's select menu in the ephemeral /private; no message the bot posts
shows a card's bottom to anyone but its holder."""
from __future__ import annotations

import json
from pathlib import Path

from bot.discord.hand_menu import HAND_SELECT
from tests.bot.discord.test_discord_bot import Table, create_by_slash, run, table
from tests.bot.discord.test_second_game import _readers
from tests.counted_salts import counted_salts

SEATS = {"Phoenicia": "alice", "Egypt": "bob", "Greece": "carla", "Carthage": "max"}


async def create_trading(t: Table, name: str, seats: dict[str, str], options: str) -> None:
    await create_by_slash(t, name, "trading-mediterranean", "Trading in the Mediterranean", seats, options)


def test_a_live_trading_window_on_discord(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        t.service.salt = counted_salts("live window on discord")  # the deck key is a seal's salt: fixed, so are the hands
        await create_trading(t, "trade", SEATS, "live 4-players")
        assert t.service.summary("trade").phase == "civic", t.service.status("trade")
        for user in SEATS.values():
            await t.say(user, "done")
        assert t.service.summary("trade").phase == "trading", t.service.status("trade")

        def board() -> object:  # the window's countdown: the pinned board, edited in place, a live Discord timestamp
            return next((m for m in t.fake.world.messages.values() if m.content.startswith("📋 **Status board")
                         and "trading until" in m.content and ":R>" in m.content), None)

        await t.fake.wait_until(board, 10, "the status board with the trading window's deadline")
        hands = {}
        for user in SEATS.values():
            mine = await t.slash(user, "private")
            assert t.ephemeral, "a hand is shown to its holder alone"
            body = json.loads(mine[mine.index("{"):mine.rindex("}") + 1])
            hands[user] = [(h["id"], h["face"], h["card"]) for h in body["holding"]["held"]]
        assert hands == {
            "alice": [("salt.4", "salt", "salt depression"), ("timber.4", "timber", "timber democracy"),
                      ("wool.4", "wool", "wool poverty"), ("grain.4", "grain", "grain poverty"), ("ore.4", "ore", "ore poverty")],
            "bob": [("salt.2", "salt", "salt venus"), ("timber.2", "timber", "timber poverty"),
                    ("wool.2", "wool", "wool democracy"), ("grain.2", "grain", "grain dictatorship"),
                    ("ore.2", "ore", "ore poverty")],
            "carla": [("salt.1", "salt", "salt mars"), ("timber.1", "timber", "timber democracy"),
                      ("wool.1", "wool", "wool poverty"), ("grain.1", "grain", "grain venus"), ("ore.1", "ore", "ore venus")],
            "max": [("salt.3", "salt", "salt democracy"), ("timber.3", "timber", "timber poverty"),
                    ("wool.3", "wool", "wool poverty"), ("grain.3", "grain", "grain poverty"), ("ore.3", "ore", "ore mars")]}

        # Alice offers one of her goods for one of Bob's; the ping that follows carries the buttons; Bob clicks.
        give, want = hands["alice"][0], hands["bob"][1]
        offer = await t.say("alice", f"offer 1 {give[1]} for 1 {want[1]} to Egypt")
        assert "✓" in offer, offer

        def with_buttons(n: int) -> object:
            return next((m for m in t.fake.world.messages.values() if any(
                c.get("custom_id") == f"legatus:choice:accept {n}" for row in m.components for c in row["components"])),
                None)

        ping = await t.fake.wait_until(lambda: with_buttons(1), 10, "the ping with the offer's buttons")
        assert f"<@{t.uid('bob')}>" in ping.content
        await t.fake.click(ping.id, "bob", "legatus:choice:accept 1")
        await t.fake.wait_until(lambda: t.service.state("trade")["offers"][0]["status"] == "accepted" or None, 10,
                                "the click")
        bob = json.loads((m := await t.slash("bob", "private"))[m.index("{"):m.rindex("}") + 1])
        assert give[0] in [h["id"] for h in bob["holding"]["held"]]

        # Carla's offer to Bob is declined from his hand's select menu.
        assert "✓" in await t.say("carla", f"offer 1 {hands['carla'][0][1]} for 1 vp to Egypt")
        await t.slash("bob", "private")
        menu = max((m for m in t.fake.world.messages.values() if m.ephemeral and m.components
                    and m.interaction_metadata["user"]["id"] == t.uid("bob")), key=lambda m: int(m.id))
        options = [o["value"] for row in menu.components for c in row["components"] for o in c.get("options", [])]
        assert options == ["accept 2", "decline 2", "done"], options
        await t.fake.click(menu.id, "bob", HAND_SELECT, values=["decline 2"], component_type=3)
        await t.fake.wait_until(lambda: t.service.state("trade")["offers"][1]["status"] == "declined" or None, 10,
                                "the pick")

        # No message the bot posted shows a bottom to more than one reader (its holder's /private).
        bottoms = {card for h in hands.values() for _, _, card in h}
        posted = [m for m in t.fake.world.messages.values() if m.author_id == t.fake.bot_user.id]
        private = 0
        for message in posted:
            if any(b in message.content for b in bottoms):
                readers = _readers(t, message)
                assert readers is not None and len(readers) == 1, (message.content[:200], readers)
                private += 1
        assert private == 6  # the six /private answers: one each, then Bob's twice more

    run(lambda: table(tmp_path, scenario))
