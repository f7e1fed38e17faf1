"""The fake Discord is as strict as Discord where a bot can get it wrong: channel permission overwrites (403/50013),
role mentions that do not ping, per-channel message buckets (429), threads that auto-archive, interaction tokens
that expire. Each test talks HTTP to the fake as a bot would, on a free port, under a hard timeout."""
from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, AsyncIterator, Awaitable, Callable

import aiohttp

from bot.devdiscord import FakeDiscord, seed_dev_world
from bot.devdiscord import model
from bot.devdiscord.model import DevWorld

TEST_TIMEOUT = 8.0


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), TEST_TIMEOUT))


class Bot:
    """REST calls with the bot's token, answering (status, JSON body, headers)."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http

    async def call(self, method: str, path: str, body: Any = None, *, files: dict[str, bytes] | None = None,
                   auth: bool = True) -> tuple[int, Any, Any]:
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kwargs: dict[str, Any] = {}
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
            for i, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{i}]", data, filename=name, content_type="application/octet-stream")
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        async with self.http.request(method, self.fake.api_base + path, headers=headers, **kwargs) as answer:
            payload = await answer.json() if answer.content_type == "application/json" else None
            return answer.status, payload, answer.headers

    async def post(self, channel_id: str, body: dict[str, Any], **kw: Any) -> tuple[int, Any, Any]:
        return await self.call("POST", f"/channels/{channel_id}/messages", body, **kw)


@contextlib.asynccontextmanager
async def fake_and_bot(**options: Any) -> AsyncIterator[tuple[FakeDiscord, DevWorld, Bot]]:
    async with FakeDiscord.start(**options) as fake:
        dev = seed_dev_world(fake.world)
        async with aiohttp.ClientSession() as http:
            yield fake, dev, Bot(fake, http)


def test_channel_overwrites_refuse_threads_uploads_and_embeds_with_50013() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            forum = dev.channels["campaign-forum"].id
            # Allowed by default: the dev world's bot role has them all.
            assert (await bot.post(channel, {"content": "ok", "embeds": [{"title": "t"}]}))[0] == 200
            # An admin takes them away from @everyone (which the bot role does not grant back) and from the bot.
            denied = model.CREATE_PUBLIC_THREADS | model.ATTACH_FILES | model.EMBED_LINKS
            await fake.set_overwrite("mare-nostrum", "@everyone", deny=denied)
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=denied)
            await fake.set_overwrite("campaign-forum", fake.bot_user.id, deny=model.EMBED_LINKS)
            assert ("CHANNEL_UPDATE" in [e for e, _ in fake.events])
            refused = [
                await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11}),
                await bot.post(channel, {"content": "log"}, files={"turn.log": b"pass"}),
                await bot.post(channel, {"content": "x", "embeds": [{"title": "Turn 1"}]}),
                await bot.call("POST", f"/channels/{forum}/threads",
                               {"name": "Turn 1", "message": {"embeds": [{"title": "Turn 1"}]}}),
            ]
            for status, body, _ in refused:
                assert (status, body) == (403, {"message": "Missing Permissions", "code": 50013})
            status, message, _ = await bot.post(channel, {"content": "plain text still goes"})
            assert status == 200
            thread_from_message = await bot.call("POST", f"/channels/{channel}/messages/{message['id']}/threads",
                                                 {"name": "talk"})
            assert thread_from_message[0] == 403
            # A member overwrite that allows wins over the role's deny.
            await fake.set_overwrite("mare-nostrum", fake.bot_user.id, allow=model.CREATE_PUBLIC_THREADS)
            assert (await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11}))[0] == 201
            # Nothing refused was stored.
            assert [m["content"] for m in fake.messages_in("mare-nostrum")] == ["ok", "plain text still goes"]

    run(scenario)


def test_threads_inherit_their_parents_overwrites() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            status, thread, _ = await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11})
            assert status == 201
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=model.SEND_MESSAGES_IN_THREADS)
            await fake.set_overwrite("mare-nostrum", "@everyone", deny=model.SEND_MESSAGES_IN_THREADS)
            assert (await bot.post(thread["id"], {"content": "hi"}))[0] == 403
            assert (await bot.post(channel, {"content": "hi"}))[0] == 200  # Send Messages still holds outside

    run(scenario)


def test_role_mentions_ping_only_mentionable_roles_unless_the_author_may_mention_everyone() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            players = fake.world.role(dev.guild.id, "Player")
            player_ids = sorted(m.user_id for m in dev.guild.members.values() if players.id in m.roles)
            assert player_ids and players.mentionable
            status, sent, _ = await bot.post(channel, {"content": f"<@&{players.id}> your turn"})
            assert status == 200 and sent["mention_roles"] == [players.id]
            assert sorted(fake.notified(sent["id"])) == player_ids
            players.mentionable = False
            # The dev world's bot has Mention @everyone, which pings any role: still notified.
            status, sent, _ = await bot.post(channel, {"content": f"<@&{players.id}> your turn"})
            assert sorted(fake.notified(sent["id"])) == player_ids
            # Without it (an overwrite on the channel), the role is text only, and so is @everyone.
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=model.MENTION_EVERYONE)
            await fake.set_overwrite("mare-nostrum", "@everyone", deny=model.MENTION_EVERYONE)
            alice = dev.users["alice"].id
            status, sent, _ = await bot.post(channel, {"content": f"<@&{players.id}> @everyone and <@{alice}>"})
            assert sent["mention_roles"] == [] and sent["mention_everyone"] is False
            assert fake.notified(sent["id"]) == [alice]
            # Users are held to the same rule: alice cannot ping a role that is not mentionable.
            said = await fake.user_says("mare-nostrum", "alice", f"<@&{players.id}> hurry")
            assert said["mention_roles"] == [] and fake.notified(said["id"]) == []

    run(scenario)


def test_messages_have_a_per_channel_bucket_with_discords_headers() -> None:
    async def scenario() -> None:
        async with fake_and_bot(channel_message_limit=(3, 0.5)) as (fake, dev, bot):
            channel, other = dev.channels["mare-nostrum"].id, dev.channels["campaign-forum"].id
            answers = [await bot.post(channel, {"content": f"m{i}"}) for i in range(4)]
            assert [a[0] for a in answers] == [200, 200, 200, 429]
            headers = answers[2][2]
            assert headers["X-RateLimit-Limit"] == "3" and headers["X-RateLimit-Remaining"] == "0"
            assert float(headers["X-RateLimit-Reset-After"]) <= 0.5 and headers["X-RateLimit-Bucket"]
            status, body, limited = answers[3]
            assert body["global"] is False and 0 < body["retry_after"] <= 0.5
            assert float(limited["Retry-After"]) == body["retry_after"] and limited["Via"]
            # Another channel has its own bucket (the forum refuses messages, but not for a rate limit).
            assert (await bot.post(other, {"content": "x"}))[0] == 400
            await asyncio.sleep(body["retry_after"] + 0.05)
            assert (await bot.post(channel, {"content": "after the reset"}))[0] == 200
            assert len(fake.messages_in("mare-nostrum")) == 4

    run(scenario)


def test_default_channel_bucket_is_discords_five_per_five_seconds() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            answers = [await bot.post(dev.channels["mare-nostrum"].id, {"content": f"m{i}"}) for i in range(6)]
            assert [a[0] for a in answers] == [200] * 5 + [429]
            assert answers[0][2]["X-RateLimit-Limit"] == "5"

    run(scenario)


def test_threads_auto_archive_and_a_post_by_the_bot_unarchives_them() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            status, thread, _ = await bot.call("POST", f"/channels/{channel}/threads",
                                               {"name": "talk", "type": 11, "auto_archive_duration": 60})
            assert status == 201 and thread["thread_metadata"]["archived"] is False
            await fake.advance_clock(59 * 60)
            assert fake.channel(thread["id"]).archived is False
            await bot.post(thread["id"], {"content": "activity resets the idle clock"})
            await fake.advance_clock(59 * 60)
            assert fake.channel(thread["id"]).archived is False
            await fake.advance_clock(2 * 60)
            assert fake.channel(thread["id"]).archived is True
            updates = [d for e, d in fake.events if e == "THREAD_UPDATE" and d["id"] == thread["id"]]
            assert updates[-1]["thread_metadata"]["archived"] is True
            status, _, _ = await bot.post(thread["id"], {"content": "back"})
            assert status == 200 and fake.channel(thread["id"]).archived is False
            updates = [d for e, d in fake.events if e == "THREAD_UPDATE" and d["id"] == thread["id"]]
            assert updates[-1]["thread_metadata"]["archived"] is False
            # Without Send Messages in Threads the bot can neither post nor so unarchive.
            await fake.archive_thread(thread["id"])
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=model.SEND_MESSAGES_IN_THREADS)
            await fake.set_overwrite("mare-nostrum", "@everyone", deny=model.SEND_MESSAGES_IN_THREADS)
            assert (await bot.post(thread["id"], {"content": "no"}))[0] == 403
            assert fake.channel(thread["id"]).archived is True

    run(scenario)


def test_a_locked_archived_thread_takes_posts_only_with_manage_threads() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"].id
            _, thread, _ = await bot.call("POST", f"/channels/{channel}/threads", {"name": "talk", "type": 11})
            await fake.archive_thread(thread["id"], locked=True)
            await fake.set_overwrite("mare-nostrum", "Legatus", deny=model.MANAGE_THREADS)
            status, body, _ = await bot.post(thread["id"], {"content": "let me in"})
            assert (status, body["code"]) == (400, 50083)
            await fake.set_overwrite("mare-nostrum", "Legatus")
            assert (await bot.post(thread["id"], {"content": "moderator"}))[0] == 200
            assert fake.channel(thread["id"]).archived is False

    run(scenario)


def test_interaction_tokens_expire_3_seconds_for_the_answer_15_minutes_for_follow_ups() -> None:
    async def scenario() -> None:
        async with fake_and_bot() as (fake, dev, bot):
            fake.server.commands[None] = {"1:ping": {"id": "42", "name": "ping", "type": 1, "options": []}}
            answer = {"type": 5}
            late = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
            await fake.advance_clock(3.1)  # the default deadline is Discord's 3 seconds
            status, body, _ = await bot.call("POST", f"/interactions/{late.id}/{late.token}/callback", answer,
                                             auth=False)
            assert (status, body["code"]) == (404, 10062)
            used = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
            assert (await bot.call("POST", f"/interactions/{used.id}/{used.token}/callback", answer,
                                   auth=False))[0] == 204
            hook = f"/webhooks/{fake.app_id}/{used.token}"
            await fake.advance_clock(14 * 60)
            status, _, _ = await bot.call("PATCH", f"{hook}/messages/@original", {"content": "done"}, auth=False)
            assert status == 200
            await fake.advance_clock(61)
            for method, path, body in (("POST", f"{hook}?wait=1", {"content": "too late"}),
                                       ("PATCH", f"{hook}/messages/@original", {"content": "too late"}),
                                       ("DELETE", f"{hook}/messages/@original", None)):
                status, answer_body, _ = await bot.call(method, path, body, auth=False)
                assert (status, answer_body["code"]) == (401, 50027)

    run(scenario)


def test_interaction_deadline_is_configurable() -> None:
    async def scenario() -> None:
        async with fake_and_bot(interaction_deadline=60.0, followup_lifetime=5.0) as (fake, dev, bot):
            fake.server.commands[None] = {"1:ping": {"id": "42", "name": "ping", "type": 1, "options": []}}
            slow = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
            await fake.advance_clock(30)
            assert (await bot.call("POST", f"/interactions/{slow.id}/{slow.token}/callback",
                                   {"type": 4, "data": {"content": "pong"}}, auth=False))[0] == 204
            status, body, _ = await bot.call("POST", f"/webhooks/{fake.app_id}/{slow.token}", {"content": "x"},
                                             auth=False)
            assert (status, body["code"]) == (401, 50027)  # 30 s > the 5 s follow-up lifetime given

    run(scenario)
