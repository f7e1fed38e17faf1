"""Trading in the Mediterranean's slash commands on the fake Discord: the commands come from the game's
CommandSpecs (engine/trading_mediterranean/commands.py), their arguments autocomplete from the game's goods,
civilizations, buildings and developments, and each reaches the game as the order line a player would type, with
the same receipt or refusal."""
from __future__ import annotations

import json
from pathlib import Path

from tests.bot.discord.test_discord_bot import Table, run, table
from tests.bot.discord.test_trading_mediterranean_on_discord import create_trading
from tests.counted_salts import counted_salts

SEATS = {"Phoenicia": "alice", "Egypt": "bob", "Greece": "carla", "Carthage": "max"}


def test_the_games_orders_as_slash_commands_with_autocomplete(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        # The deck key is a seal's salt: fixed, so that the hands are these every run (with a random one, Greece's
        # first card was now and then one whose bottom says it may not be warehoused, and the warehousing below
        # was refused).
        t.service.salt = counted_salts("commands on discord")
        await create_trading(t, "trade", SEATS, "live 4-players")
        assert t.service.summary("trade").phase == "civic", t.service.status("trade")

        async def complete(user: str, command: str, focused: str, typed: str, **given: str) -> list[str]:
            found = await t.fake.autocomplete(None, "mare-nostrum", user, command, focused, {**given, focused: typed})
            return [c["value"] for c in found]

        assert await complete("alice", "use", "seat", "eg", building="Assembly") == ["Egypt"]
        assert await complete("alice", "build", "building", "temple") == [
            "Temple of Mars", "Temple of Venus", "War Temple"]
        assert await complete("alice", "develop", "development", "port") == ["Fishing Port"]
        assert await complete("alice", "offer", "get", "w", give="1 grain", to="Egypt") == ["wool", "wine"]

        picture = await t.fake.invoke_slash(None, "mare-nostrum", "carla", "map")  # the status picture, as a map
        shown = await picture.wait_reply(timeout=15)
        (attached,) = shown["attachments"]
        assert attached["filename"] == "map-turn-1.png", shown
        refused = await t.slash("alice", "use", building="Assembly", seat="Egypt")
        assert "Phoenicia has no building 'Assembly': it has none" in refused, refused
        assert "✓" in await t.slash("alice", "revolt")
        assert t.service.folded("trade")[1].civs["Phoenicia"].government.side == "dictatorship"
        for user in SEATS.values():
            assert "✓" in await t.slash(user, "done")
        assert t.service.summary("trade").phase == "trading", t.service.status("trade")

        hands = {}
        for user in SEATS.values():
            mine = await t.slash(user, "private")
            body = json.loads(mine[mine.index("{"):mine.rindex("}") + 1])
            hands[user] = [(h["id"], h["face"]) for h in body["holding"]["held"]]
        give, want = hands["alice"][0], hands["bob"][0]
        offered = await t.slash("alice", "offer", give=f"1 {give[1]}", get=f"1 {want[1]}", to="Egypt")
        assert "✓" in offered, offered
        (offer,) = t.service.state("trade")["offers"]
        assert (offer["by"], offer["to"], offer["status"]) == ("Phoenicia", "Egypt", "open")
        assert "✓" in await t.slash("bob", "accept", offer=1)
        assert t.service.state("trade")["offers"][0]["status"] == "accepted"
        bob = json.loads((m := await t.slash("bob", "private"))[m.index("{"):m.rindex("}") + 1])
        assert give[0] in [h["id"] for h in bob["holding"]["held"]]
        refused = await t.slash("carla", "decline", offer=7)
        assert "there is no offer 7" in refused, refused
        kept = hands["carla"][0][0]
        answer = await t.slash("carla", "warehouse", cards=kept)
        assert "✓" in answer and t.service.folded("trade")[1].store.stored["Greece"] == [kept], answer
        refused = await t.slash("max", "points", count=1)
        assert "that is an order of the purchasing phase; the game is in the trading phase" in refused, refused
        help_text = t.service.post("alice", "/help", "trade").render()  # the typed help lists the game's commands
        assert "/offer <give> <get> <to>" in help_text and "/develop <development>" in help_text, help_text

    run(lambda: table(tmp_path, scenario))
