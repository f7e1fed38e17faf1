"""Mare Nostrum: Empires on the fake Discord: three players assigned by the GM, a whole game to the three titles
played as plain messages, sealed commerce offers answered without their tokens, the leaders' naming prompts as
choices, and the game over with the Romans' victory."""
from __future__ import annotations

from pathlib import Path

from tests.bot.discord.test_discord_bot import Table, create_by_slash, run, table

SEATS = {"Romans": "alice", "Greeks": "bob", "Carthaginians": "carla"}


async def ok(t: Table, user: str, text: str) -> str:
    answer = await t.say(user, text)
    assert "✓" in answer and "✗" not in answer, (text, answer)
    return answer


async def everyone(t: Table, leader: str, plays: dict[str, str]) -> None:
    for empire, user in SEATS.items():
        await ok(t, leader, f"next {empire}")
        await ok(t, user, "\n".join([*plays.get(empire, "").splitlines(), "done"]))


def test_mare_nostrum_empires_on_discord(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await create_by_slash(t, "mne", "mare-nostrum-empires", "Mare Nostrum: Empires", SEATS, "three-players")
        await ok(t, "carla", "token II 2")
        for user, offer in (("alice", "wine, tax"), ("bob", "oil, tax")):
            answer = await ok(t, user, f"offer {offer}")
            assert offer.split(",")[0] not in answer, answer  # the offer's tokens stay sealed
        await ok(t, "carla", "offer wheat, tax")
        assert t.service.state("mne")["commerce"]["offers"]["Romans"]["tokens"] == ["wine", "tax"]
        refused = await t.say("alice", "take oil from Greeks")
        assert "✗" in refused and "Carthaginians picks now, not Romans" in refused
        for user, line in (("carla", "take wine from Romans"), ("alice", "take oil from Greeks"),
                           ("bob", "take wheat from Carthaginians"), ("carla", "take tax from Greeks"),
                           ("bob", "take tax from Romans"), ("alice", "take tax from Carthaginians")):
            await ok(t, user, line)
        await everyone(t, "bob", {"Romans": "buy legion in Rome with taxes\n"
                                            "buy influence in Gallia Cisalpina with gladiators, marble, wine"})
        await everyone(t, "alice", {})
        await ok(t, "carla", "name Carthaginians commerce")
        await ok(t, "carla", "token I 1")
        for user in SEATS.values():
            await ok(t, user, "offer tax")
        for user, line in (("carla", "take tax from Romans"), ("alice", "take tax from Greeks"),
                           ("bob", "take tax from Carthaginians")):
            await ok(t, user, line)
        await everyone(t, "alice", {"Romans": "buy caravan in Gallia Cisalpina with taxes"})
        await everyone(t, "alice", {})
        summary = t.service.summary("mne")
        assert summary.over and summary.winner == "Romans", t.service.status("mne")

    run(lambda: table(tmp_path, scenario))
