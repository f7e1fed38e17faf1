"""A forum that requires a tag (Discord refuses an untagged post there, 40067): the fake refuses it too, and the
bot's turn post carries a tag the bot may apply (bot/discord/turn_threads.py, ``forum_tags``)."""
from __future__ import annotations

from pathlib import Path

from bot.devdiscord import model
from tests.bot.devdiscord.test_strictness import fake_and_bot
from tests.bot.devdiscord.test_strictness import run as run_fake
from tests.bot.discord.test_discord_bot import SEATS, Table, _role, run, table


def test_the_fake_refuses_an_untagged_post_in_a_forum_that_requires_a_tag() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            forum = dev.channels["campaign-forum"]
            forum.flags = model.REQUIRE_TAG
            post = {"name": "Turn 1", "message": {"content": "orders here"}}
            status, body, _ = await bot.call("POST", f"/channels/{forum.id}/threads", post)
            assert (status, body["code"]) == (400, 40067)
            tag = forum.available_tags[0]["id"]
            status, thread, _ = await bot.call("POST", f"/channels/{forum.id}/threads", {**post, "applied_tags": [tag]})
            assert status == 201 and thread["applied_tags"] == [tag]

    run_fake(scenario)


def test_the_turn_post_carries_a_tag_the_bot_may_apply_where_the_forum_requires_one(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        forum = t.dev.channels["campaign-forum"]
        forum.available_tags[0]["moderated"] = True  # "orders": the moderators' alone
        status, body, _ = await _as_admin(t, "PATCH", f"/channels/{forum.id}", {"flags": model.REQUIRE_TAG})
        assert status == 200 and body["flags"] == model.REQUIRE_TAG
        await t.fake.wait_until(lambda: t.bot.get_channel(int(forum.id)).flags.require_tag, 10, "the bot to see it")
        await t.fake.set_overwrite("campaign-forum", "Legatus", deny=model.MANAGE_THREADS)
        setup, _ = await t.fake.user_posts("campaign-forum", "gm", "Mare Nostrum: setup", "Sign-ups here",
                                          tags=["diplomacy"])
        here = str(setup["id"])
        created = await t.slash("gm", "campaign", "create", where=here, name="forum", gm_role=_role(t, "GM"),
                                clock="historical")
        assert "Campaign 'forum' created" in created
        for nation, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", where=here, seat=nation, player=t.uid(user))
        await t.slash("gm", "turn", "open", where=here, date="2023-01-05")
        post = await t.fake.wait_until(lambda: next((c for c in t.fake.world.channels.values()
                                                     if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's post")
        by_id = {tag["id"]: tag["name"] for tag in forum.available_tags}
        assert [by_id[tag] for tag in post.applied_tags] == ["diplomacy"]  # the first tag not moderated

    run(lambda: table(tmp_path, scenario))


async def _as_admin(t: Table, method: str, path: str, body: dict[str, object]) -> tuple[int, dict[str, object], object]:
    """A REST call with the bot's token (it may manage channels): as the server's admin would change the forum."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {t.fake.token}"}
        async with http.request(method, t.fake.api_base + path, headers=headers, json=body) as answer:
            return answer.status, await answer.json(), answer.headers
