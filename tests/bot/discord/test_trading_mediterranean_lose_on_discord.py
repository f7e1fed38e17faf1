"""A calamity's victim names its losses by slash command on the fake Discord: four civilizations played by the
scripted players through the service up to the first calamity that strikes someone, then the victim's `/lose`
refused, quoting what was wrong, for a place it has no cube in, and taken for the cubes it names."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from engine.trading_mediterranean import game as gm
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.engine.trading_mediterranean.tm_players import play
from tests.bot.discord.test_trading_mediterranean_on_discord import create_trading
from tests.counted_salts import counted_salts

SEATS = {"Phoenicia": "alice", "Egypt": "bob", "Greece": "carla", "Carthage": "max"}


class Posts:
    """What the scripted players need of a table: the bot's fold, and their orders posted to the service."""

    def __init__(self, t: Table, campaign: str) -> None:
        self.t, self.campaign = t, campaign

    @property
    def state(self) -> Any:
        return self.t.service.folded(self.campaign)[1]

    def wait(self) -> None:
        clock = self.t.service.clock
        clock.advance(timedelta(seconds=30))  # type: ignore[attr-defined]
        self.t.service.pump(self.campaign)

    def order(self, user: str, text: str) -> list[str]:
        reply = self.t.service.post(user, text, self.campaign)
        return [a.message for a in reply.answers if not a.ok]


def test_a_victim_names_its_losses_by_slash_command(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        t.service.salt = counted_salts("lose on discord")  # the deck key is a seal's salt: fixed here, so that the game is this one
        await create_trading(t, "trade", SEATS, "live 4-players")
        posts = Posts(t, "trade")
        play(posts, posts.state.players, until=lambda g: g.loss_due is not None)
        g = posts.state
        assert (g.turn, g.phase, g.loss_due) == (2, gm.CALAMITY, ("Phoenicia", "Riots"))
        before = {p: n for p, n in g.civs["Phoenicia"].cubes.items() if n}
        assert before == {"city": 1, "farm:salt": 1, "farm:timber": 1, "farm:wool": 1, "industry": 1, "warehouse": 1}
        other = await t.slash("bob", "lose", losses="city, salt farm")
        assert other == ('✗ line 1 “/lose "city, salt farm"”: Egypt loses city, farm:salt: refused: no calamity asks '
                         "Egypt to name its losses; Phoenicia names its losses to Riots"), other
        refusals = {
            "harbour": "Phoenicia loses harbour: refused: Riots takes 2 population cube(s): name 2 places, not 1",
            "harbour, city": "Phoenicia loses harbour, city: refused: Phoenicia has no cube on 'harbour' to lose; its "
                             "cubes are city 1, farm:salt 1, farm:timber 1, farm:wool 1, industry 1, warehouse 1",
            "city, Forum": "'lose city, Forum': 'Forum' is neither a place of Phoenicia's cubes (city, farm:salt, "
                           "farm:timber, farm:wool, industry, warehouse) nor one of its buildings (none)",
        }
        for wrong, why in refusals.items():
            answer = await t.slash("alice", "lose", losses=wrong)
            assert answer == f'✗ line 1 “/lose "{wrong}"”: {why}', answer
            g = posts.state  # nothing half-applied: the victim still owes the same losses from the same cubes
            assert g.loss_due == ("Phoenicia", "Riots") and {p: n for p, n in g.civs["Phoenicia"].cubes.items() if n} == before
        taken = await t.slash("alice", "lose", losses="city, salt farm")
        assert [line.strip() for line in taken.splitlines()[:3]] == [
            '✓ line 1 “/lose "city, salt farm"”: Phoenicia loses city, farm:salt',
            "Riots strikes Phoenicia: Phoenicia loses city, farm:salt", "Burning strikes Carthage: Carthage loses nothing"], taken
        g = posts.state
        assert g.loss_due is None and g.phase == gm.PURCHASING
        assert {p: n for p, n in g.civs["Phoenicia"].cubes.items() if n} == {
            "farm:timber": 1, "farm:wool": 1, "industry": 1, "warehouse": 1}

    run(lambda: table(tmp_path, scenario))
