"""Archived and locked threads in the fake, as on Discord: an edit never reopens an archived thread, and a locked
thread, open or archived, takes posts only from those who may manage threads."""
from __future__ import annotations

from bot.devdiscord import model
from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_a_message_in_an_archived_thread_cannot_be_edited_locked_or_not() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            _, thread, _ = await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11})
            _, said, _ = await bot.post(thread["id"], {"content": "first"})
            for locked in (False, True):
                await fake.archive_thread(thread["id"], locked=locked)
                status, body, _ = await bot.call("PATCH", f"/channels/{thread['id']}/messages/{said['id']}",
                                                 {"content": "changed"})
                assert (status, body["code"]) == (400, 50083)
                assert fake.world.messages[said["id"]].content == "first"
                assert fake.channel(thread["id"]).archived is True  # an edit does not reopen it

    run(scenario)


def test_an_open_locked_thread_takes_posts_only_with_manage_threads() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            _, thread, _ = await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11})
            status, _, _ = await bot.call("PATCH", f"/channels/{thread['id']}", {"locked": True})
            assert status == 200 and fake.channel(thread["id"]).locked and not fake.channel(thread["id"]).archived
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=model.MANAGE_THREADS)
            status, body, _ = await bot.post(thread["id"], {"content": "let me in"})
            assert (status, body["code"]) == (403, 160005)
            await fake.set_overwrite("mare-nostrum", "Legatus")
            assert (await bot.post(thread["id"], {"content": "moderator"}))[0] == 200

    run(scenario)
