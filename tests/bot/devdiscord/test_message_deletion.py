"""Deleting a message on the fake Discord is as strict as on Discord: another user's message needs Manage Messages in
its channel (computed with the overwrites; 403 Missing Permissions 50013 without), a bot's own message needs none,
an archived thread refuses it (400 50083), and a deleted message is gone for every member at once (REST, the
gateway's MESSAGE_DELETE, each member's view of the channel)."""
from __future__ import annotations

from bot.devdiscord import model
from tests.bot.devdiscord.test_strictness import fake_and_bot, run


def test_deleting_another_users_message_needs_manage_messages_in_that_channel() -> None:
    """Attacker: a bot (Legatus itself, misconfigured) that would believe a secret it could not remove is gone. The
    fake must refuse the delete exactly as Discord does, or a test of "delete the typed secret" proves nothing."""
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            said = await fake.user_says("mare-nostrum", "alice", "bid 7")
            own = (await bot.post(channel, {"content": "the bot's own note"}))[1]
            await fake.set_overwrite("mare-nostrum", fake.bot_user.id, deny=model.MANAGE_MESSAGES)
            status, body, _ = await bot.call("DELETE", f"/channels/{channel}/messages/{said['id']}")
            assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
            status, body, _ = await bot.call("POST", f"/channels/{channel}/messages/bulk-delete",
                                             {"messages": [said["id"], own["id"]]})
            assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
            assert "bid 7" in [m["content"] for m in fake.view_of("bob", "mare-nostrum")], "still there for bob"
            # Its own message needs no Manage Messages.
            assert (await bot.call("DELETE", f"/channels/{channel}/messages/{own['id']}"))[0] == 204
            # Granted back, the other user's message goes.
            await fake.set_overwrite("mare-nostrum", fake.bot_user.id)
            assert (await bot.call("DELETE", f"/channels/{channel}/messages/{said['id']}"))[0] == 204
            deleted = [d for e, d in fake.events if e == "MESSAGE_DELETE"]
            assert {d["id"] for d in deleted} == {own["id"], said["id"]}
            for member in ("alice", "bob", "carla"):
                assert "bid 7" not in [m["content"] for m in fake.view_of(member, "mare-nostrum")]
            status, body, _ = await bot.call("GET", f"/channels/{channel}/messages/{said['id']}")
            assert (status, body["code"]) == (404, 10008)
            status, body, _ = await bot.call("DELETE", f"/channels/{channel}/messages/{said['id']}")
            assert (status, body["code"]) == (404, 10008), "deleted once, gone: a second delete finds nothing"

    run(scenario)


def test_a_thread_takes_its_parents_manage_messages_and_refuses_deletes_once_archived() -> None:
    """Attacker: the same bot in a turn's thread: the parent's overwrite rules the thread, and an archived thread
    keeps its messages whatever the bot's permissions (Discord: 400 Thread is archived, 50083)."""
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            thread = fake.world.add_thread(dev.channels["mare-nostrum"].id, "Turn 1", owner_id=fake.bot_user.id)
            first = await fake.user_says(thread.id, "alice", "bid 3")
            second = await fake.user_says(thread.id, "alice", "bid 4")
            await fake.set_overwrite("mare-nostrum", fake.bot_user.id, deny=model.MANAGE_MESSAGES)
            status, body, _ = await bot.call("DELETE", f"/channels/{thread.id}/messages/{first['id']}")
            assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
            await fake.set_overwrite("mare-nostrum", fake.bot_user.id)
            assert (await bot.call("DELETE", f"/channels/{thread.id}/messages/{first['id']}"))[0] == 204
            await fake.archive_thread(thread.id)
            status, body, _ = await bot.call("DELETE", f"/channels/{thread.id}/messages/{second['id']}")
            assert (status, body) == (400, {"message": "Thread is archived", "code": 50083})
            assert [m["content"] for m in fake.view_of("bob", thread.id)] == ["bid 4"]

    run(scenario)


def test_a_members_view_holds_the_ephemeral_answers_to_that_member_only() -> None:
    """What each member can read of a channel (the tests' measure of a leak): its messages, and the ephemeral
    answers to that member's own interactions, never another member's."""
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            fake.server.commands[None] = {"1:ping": {"id": "42", "name": "ping", "type": 1, "options": []}}
            asked = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
            await bot.call("POST", f"/interactions/{asked.id}/{asked.token}/callback",
                           {"type": 4, "data": {"content": "for alice alone", "flags": model.FLAG_EPHEMERAL}})
            assert "for alice alone" in [m["content"] for m in fake.view_of("alice", "mare-nostrum")]
            assert "for alice alone" not in [m["content"] for m in fake.view_of("bob", "mare-nostrum")]

    run(scenario)


def test_a_user_with_closed_dms_refuses_the_bots_direct_message_with_50007() -> None:
    """Discord refuses a bot's DM to a member who allows none (403 Cannot send messages to this user, 50007): the
    fake too, or a test of "told privately" would pass where Discord drops the message."""
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            alice = fake.user("alice")
            status, channel, _ = await bot.call("POST", "/users/@me/channels", {"recipient_id": alice.id})
            assert status == 200 and (await bot.post(channel["id"], {"content": "hello"}))[0] == 200
            alice.dms_closed = True
            status, body, _ = await bot.post(channel["id"], {"content": "your sealed hand"})
            assert (status, body) == (403, {"message": "Cannot send messages to this user", "code": 50007})
            assert [m["content"] for m in fake.view_of("alice", channel["id"])] == ["hello"]

    run(scenario)
