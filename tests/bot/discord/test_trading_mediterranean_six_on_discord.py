"""Six civilizations in a live trading window on the fake Discord: the six seats assigned, the civic window closed
by all six saying done, three offers each accepted by its recipient's click on the ping's button, the window
closed when all six are done; the bot's salts are fixed, so the hands and what they earn are the same every run;
the campaign's export replays to the same chain head and public view and ``verify`` finds nothing wrong with it."""
from __future__ import annotations

import json
from pathlib import Path

from engine.events import Event
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.counted_salts import counted_salts
from tests.engine.trading_mediterranean.tm_table import RULES, replay
from tests.bot.discord.test_trading_mediterranean_on_discord import create_trading

SEATS = {"Phoenicia": "alice", "Egypt": "bob", "Greece": "carla", "Carthage": "max", "Etruria": "pat",
         "Persia": "sam"}
PAIRS = (("alice", "Egypt", "bob"), ("carla", "Carthage", "max"), ("pat", "Persia", "sam"))


def test_a_live_trading_window_of_six_on_discord(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        t.service.salt = counted_salts("six on discord")  # the deck key is a seal's salt: fixed, so are the hands
        await create_trading(t, "six", SEATS, "live")
        state = t.service.folded("six")[1]
        assert (state.phase, state.rules_version, sorted(state.civs)) == ("civic", 2, sorted(SEATS))
        for user in SEATS.values():
            assert "✓" in await t.say(user, "done")
        assert t.service.summary("six").phase == "trading", t.service.status("six")

        hands = {}
        for user in SEATS.values():
            mine = await t.slash(user, "private")
            body = json.loads(mine[mine.index("{"):mine.rindex("}") + 1])
            hands[user] = [(h["id"], h["face"], h["card"]) for h in body["holding"]["held"]]
        assert hands == {
            "alice": [("salt.3", "salt", "salt depression"), ("timber.3", "timber", "timber dictatorship"),
                      ("wool.3", "wool", "wool venus"), ("grain.3", "grain", "grain democracy"), ("ore.3", "ore", "ore mars")],
            "bob": [("salt.5", "salt", "salt dictatorship"), ("timber.5", "timber", "timber poverty"),
                    ("wool.5", "wool", "wool democracy"), ("grain.5", "grain", "grain democracy"),
                    ("ore.5", "ore", "ore democracy")],
            "carla": [("salt.4", "salt", "salt poverty"), ("timber.4", "timber", "timber mars"),
                      ("wool.4", "wool", "wool democracy"), ("grain.4", "grain", "grain depression"),
                      ("ore.4", "ore", "ore venus")],
            "max": [("salt.6", "salt", "salt democracy"), ("timber.6", "timber", "timber poverty"),
                    ("wool.6", "wool", "wool poverty"), ("grain.6", "grain", "grain mars"), ("ore.6", "ore", "ore prosperity")],
            "pat": [("salt.1", "salt", "salt dictatorship"), ("timber.1", "timber", "timber venus"),
                    ("wool.1", "wool", "wool prosperity"), ("grain.1", "grain", "grain democracy"),
                    ("ore.1", "ore", "ore poverty")],
            "sam": [("salt.2", "salt", "salt dictatorship"), ("timber.2", "timber", "timber venus"),
                    ("wool.2", "wool", "wool venus"), ("grain.2", "grain", "grain prosperity"),
                    ("ore.2", "ore", "ore prosperity")]}

        def with_buttons(n: int) -> object:
            return next((m for m in t.fake.world.messages.values() if any(
                c.get("custom_id") == f"legatus:choice:accept {n}" for row in m.components for c in row["components"])),
                None)

        for n, (user, seat, to) in enumerate(PAIRS, start=1):
            give, want = hands[user][0], hands[to][0]
            assert "✓" in await t.say(user, f"offer 1 {give[1]} for 1 {want[1]} to {seat}")
            ping = await t.fake.wait_until(lambda n=n: with_buttons(n), 10, f"the ping with offer {n}'s buttons")
            assert f"<@{t.uid(to)}>" in ping.content
            await t.fake.click(ping.id, to, f"legatus:choice:accept {n}")
            await t.fake.wait_until(
                lambda n=n: t.service.state("six")["offers"][n - 1]["status"] == "accepted" or None, 10, "the click")
            moved = t.service.folded("six")[1].table.holdings[seat].find(give[0])
            assert moved is not None and moved.face == give[1]
        for user in SEATS.values():
            assert "✓" in await t.say(user, "done")
        g = t.service.folded("six")[1]
        assert (g.phase, g.turn) == ("purchasing", 1), t.service.status("six")
        # Each trade swapped two salt cards; the six hands spent, their money and VP are these.
        assert [(o["by"], o["to"], o["status"]) for o in t.service.state("six")["offers"]] == [
            ("Phoenicia", "Egypt", "accepted"), ("Greece", "Carthage", "accepted"), ("Etruria", "Persia", "accepted")]
        assert {s: (c.money, c.vp) for s, c in g.civs.items()} == {
            "Phoenicia": (5, 5), "Egypt": (5, 5), "Greece": (5, 5), "Carthage": (5, 6), "Etruria": (5, 6), "Persia": (5, 7)}

        events = [Event.from_dict(json.loads(line)) for line in t.service.export("six").splitlines()]
        again = replay(events)
        assert again.head == events[-1].hash
        assert RULES.public_view(again.state) == RULES.public_view(t.service.folded("six")[1])
        result, _ = t.service.verify("six")
        assert [str(f) for f in result.findings] == []

    run(lambda: table(tmp_path, scenario))
