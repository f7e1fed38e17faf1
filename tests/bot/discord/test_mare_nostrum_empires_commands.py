"""Mare Nostrum: Empires' slash commands on the fake Discord: every command that takes a province, a resource or an
empire autocompletes it from the game's own names, and each reaches the game as the order line a player would
type, with its receipt or a precise refusal."""
from __future__ import annotations

from pathlib import Path

from tests.bot.discord.test_discord_bot import Table, create_by_slash, run, table

SEATS = {"Romans": "alice", "Greeks": "bob", "Carthaginians": "carla"}


async def ok(t: Table, user: str, text: str) -> str:
    answer = await t.say(user, text)
    assert "✓" in answer and "✗" not in answer, (text, answer)
    return answer


def test_the_games_orders_as_slash_commands_with_autocomplete(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        async def complete(user: str, command: str, focused: str, typed: str, **given: str) -> list[str]:
            found = await t.fake.autocomplete(None, "mare-nostrum", user, command, focused, {**given, focused: typed})
            return [c["value"] for c in found]

        await create_by_slash(t, "mne", "mare-nostrum-empires", "Mare Nostrum: Empires", SEATS, "three-players")

        for command, given in (("pillage", {"building": "city"}), ("occupy", {"buildings": "city"}), ("stand", {}),
                               ("convert-marker", {}), ("extra", {"choice": "tax"})):
            assert await complete("alice", command, "province", "juda", **given) == ["Judaea"], command
        assert await complete("alice", "march", "to", "gallia", **{"from": "Latium"}) == ["Gallia Narbonensis", "Gallia Cisalpina"]
        assert await complete("alice", "give", "token", "papy") == ["papyrus"]
        assert await complete("alice", "name", "empire", "carth", title="politics") == ["Carthaginians"]
        # A precise refusal per command, quoting the order it stands for.
        for options, said in (
                (("give", {"token": "tax"}), "Romans: give tax: refused: only the player who opened the exchange gives "
                                             "the unequal exchange's token"),
                (("extra", {"province": "Judaea", "choice": "tax"}),
                 "Romans: extra Judaea tax: refused: the choice of a temple's extra belongs to the production phase; "
                 "this is the commerce phase"),
                (("pillage", {"building": "city", "province": "Etruria"}),
                 "Romans: pillage city in Etruria: refused: pillaging belongs to the military phase; this is the "
                 "commerce phase"),
                (("occupy", {"province": "Etruria", "buildings": "city, market"}),
                 "Romans: occupy city, market in Etruria: refused: occupying belongs to the military phase"),
                (("convert-marker", {"province": "Etruria"}),
                 "Romans: convert Etruria: refused: converting an influence marker belongs to the military phase"),
                (("name", {"empire": "Romans", "title": "politics"}),
                 "Romans: name Romans politics: refused: naming a successor belongs to the claims phase")):
            answer = await t.slash("alice", options[0], **options[1])
            assert "✗" in answer and said in answer, answer

        # Round 1 to its Claims, the picks, a march and the naming as slash commands, each with its receipt.
        await ok(t, "carla", "token II 2")
        for user, offer in (("alice", "wine, tax"), ("bob", "oil, tax"), ("carla", "wheat, tax")):
            await ok(t, user, f"offer {offer}")
        for user, token, empire in (("carla", "wine", "Romans"), ("alice", "oil", "Greeks"),
                                    ("bob", "wheat", "Carthaginians"), ("carla", "tax", "Greeks"),
                                    ("bob", "tax", "Romans"), ("alice", "tax", "Carthaginians")):
            answer = await t.slash(user, "take", token=token, empire=empire)
            assert "✓" in answer and f"take {token} from {empire}" in answer, answer
        for empire, user in SEATS.items():
            await ok(t, "bob", f"next {empire}")
            await ok(t, user, "done")
        assert t.service.summary("mne").phase == "military", t.service.status("mne")
        await ok(t, "alice", "next Romans")
        marched = await t.slash("alice", "march", **{"from": "Latium", "to": "Etruria", "count": 1})
        assert "✓" in marched and "The Romans move 1 legion from Latium to Etruria." in marched, marched
        refused = await t.slash("alice", "stand", province="Etruria")
        assert "✗" in refused and "Romans: stand Etruria: refused:" in refused, refused
        await ok(t, "alice", "done")
        for empire, user in list(SEATS.items())[1:]:
            await ok(t, "alice", f"next {empire}")
            await ok(t, user, "done")
        for user, empire, title, leader in (("carla", "Carthaginians", "commerce", "Trade master"),
                                            ("bob", "Greeks", "politics", "Political leader"),
                                            ("alice", "Romans", "military", "Military leader")):
            named = await t.slash(user, "name", empire=empire, title=title)
            assert "✓" in named and f"The {empire} name the {empire} {leader}." in named, named
        assert t.service.summary("mne").phase == "commerce", t.service.status("mne")

    run(lambda: table(tmp_path, scenario))
