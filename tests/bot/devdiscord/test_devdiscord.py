"""The fake Discord (bot/devdiscord) against the real discord.py client: a minimal bot written here connects over
the gateway, registers slash commands, answers messages and interactions, makes threads, forum posts and uploads,
and the fake records every REST call. Each test runs its own fake on a free port, under a hard timeout."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import re
import subprocess
import sys
from typing import Any, AsyncIterator, Awaitable, Callable

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.devdiscord import FakeDiscord, adopt_bot_gateway, point_discord_py, seed_dev_world
from bot.cli.dev_discord import add_commands, cmd_dev_discord
from bot.devdiscord.session import DevConsole
from bot.devdiscord.model import DevWorld

TEST_TIMEOUT = 8.0


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run one async scenario with a hard limit, so a hang fails the test instead of the suite."""
    asyncio.run(asyncio.wait_for(scenario(), TEST_TIMEOUT))


class MiniBot(discord.Client):
    """The smallest bot that exercises what Legatus needs: slash commands (global and guild, with a subcommand and
    autocomplete), replies, threads, forum posts and uploads."""

    def __init__(self, guild_id: int, *, intents: discord.Intents | None = None) -> None:
        if intents is None:
            intents = discord.Intents.default()
            intents.message_content = True
            intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05, allowed_mentions=discord.AllowedMentions.none())
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.ready = asyncio.Event()
        self.seen: list[discord.Message] = []

        @self.tree.command(name="ping", description="Answer pong, then follow up")
        @app_commands.describe(word="what to echo")
        async def ping(interaction: discord.Interaction, word: str = "pong") -> None:
            await interaction.response.send_message(f"pong: {word}")
            await interaction.followup.send(f"and again: {word}")

        @ping.autocomplete("word")
        async def ping_words(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            words = ["legion", "lemures", "latium"]
            return [app_commands.Choice(name=w, value=w) for w in words if w.startswith(current)]

        turn = app_commands.Group(name="turn", description="Turn commands", guild_ids=[guild_id])

        @turn.command(name="status", description="Where the turn stands")
        async def status(interaction: discord.Interaction, detail: bool = False) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(content=f"turn 1 open (detail={detail})")

        self.tree.add_command(turn)

    async def setup_hook(self) -> None:
        await adopt_bot_gateway(self)
        await self.tree.sync()
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_ready(self) -> None:
        self.ready.set()

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        if message.author == self.user:
            return
        if message.content == "hello":
            reply = await message.reply(f"hello {message.author.mention}")
            thread = await reply.create_thread(name="greetings")
            await thread.send("a thread for us")
        elif message.content == "forum":
            assert message.guild is not None
            forum = discord.utils.get(message.guild.forums, name="campaign-forum")
            assert forum is not None
            await forum.create_thread(name="Turn 1 - Romans", content="Orders for turn 1",
                                      embed=discord.Embed(title="Turn 1", description="Post your orders here"))
        elif message.content == "upload":
            await message.channel.send("the log", file=discord.File(io.BytesIO(b"turn 1\nRomans: pass\n"),
                                                                     filename="turn-1.log"))


@contextlib.asynccontextmanager
async def world_and_bot(*, bot_factory: Callable[[DevWorld], MiniBot] | None = None,
                        **fake_options: Any) -> AsyncIterator[tuple[FakeDiscord, DevWorld, MiniBot]]:
    """A fake Discord with the dev world, and a MiniBot connected to it and ready."""
    async with FakeDiscord.start(host="127.0.0.1", port=0, **fake_options) as fake:
        dev = seed_dev_world(fake.world)
        with point_discord_py(fake.api_base):
            bot = bot_factory(dev) if bot_factory else MiniBot(int(dev.guild.id))
            async with bot:
                task = asyncio.create_task(bot.start(fake.token))
                try:
                    await asyncio.wait_for(bot.ready.wait(), 5)
                    yield fake, dev, bot
                finally:
                    await bot.close()
                    await asyncio.wait_for(task, 5)


def text_channel(bot: MiniBot, dev: DevWorld) -> discord.TextChannel:
    channel = bot.get_channel(int(dev.channels["mare-nostrum"].id))
    assert isinstance(channel, discord.TextChannel)
    return channel


def test_bot_connects_identifies_and_caches_the_guild() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            assert [r.path for r in fake.requests[:3]] == ["/users/@me", "/oauth2/applications/@me", "/gateway/bot"]
            assert [e for e, _ in fake.events[:2]] == ["READY", "GUILD_CREATE"]
            session = await fake.wait_for_bot()
            assert session is fake.sessions[0] and session.intents == bot.intents.value
            assert fake.connections[0].compress == "zlib-stream"  # what discord.py asks for; the fake speaks it
            assert bot.user is not None and str(bot.user.id) == fake.app_id and bot.application_id == int(fake.app_id)
            (guild,) = bot.guilds
            assert guild.name == "Legatus Dev" and guild.member_count == 8
            assert isinstance(guild.get_channel(int(dev.channels["campaign-forum"].id)), discord.ForumChannel)
            assert {t.name for t in guild.forums[0].available_tags} == {"orders", "diplomacy", "battle"}
            assert {r.name for r in guild.roles} >= {"@everyone", "GM", "Player", "Legatus"}
            # members came by chunking (op 8 -> GUILD_MEMBERS_CHUNK), with their roles
            alice = guild.get_member(int(dev.users["alice"].id))
            assert alice is not None and [r.name for r in alice.roles] == ["@everyone", "Player"]
            assert guild.chunked

    run(scenario)


def test_commands_are_registered_globally_and_per_guild() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            by_name = {c["name"]: c for c in fake.registered_commands}
            assert set(by_name) == {"ping", "turn"}
            assert "guild_id" not in by_name["ping"] and by_name["turn"]["guild_id"] == dev.guild.id
            assert by_name["ping"]["options"][0]["name"] == "word" and by_name["ping"]["options"][0]["autocomplete"]
            assert [o["name"] for o in by_name["turn"]["options"]] == ["status"]
            puts = [r for r in fake.requests if r.method == "PUT"]
            assert [r.route for r in puts] == ["/applications/{application_id}/commands",
                                              "/applications/{application_id}/guilds/{guild_id}/commands"]
            assert all(r.status == 200 for r in puts)

    run(scenario)


def test_bot_answers_a_message_and_opens_a_thread_on_its_reply() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            channel = dev.channels["mare-nostrum"]
            said = await fake.user_says("mare-nostrum", "alice", "hello")
            note = await fake.wait_for_message("greetings", lambda m: m["content"] == "a thread for us")
            reply = fake.messages_in("mare-nostrum")[-1]
            assert reply["content"] == f"hello <@{dev.users['alice'].id}>"
            assert reply["message_reference"]["message_id"] == said["id"]
            assert reply["mentions"] == []  # allowed_mentions none(): the text names alice but pings nobody
            (post,) = fake.requests_to("POST", f"/channels/{channel.id}/messages")
            assert post.json["content"] == reply["content"]
            assert post.json["allowed_mentions"] == {"parse": []}
            (thread_call,) = fake.requests_to("POST", "/channels/{channel_id}/messages/{message_id}/threads")
            assert thread_call.path == f"/channels/{channel.id}/messages/{reply['id']}/threads"
            assert thread_call.json["name"] == "greetings"
            thread = fake.channel("greetings")
            assert thread.id == reply["id"] and thread.parent_id == channel.id and note["channel_id"] == thread.id
            # the bot sees its own messages come back over the gateway (and does not answer itself)
            await fake.wait_until(lambda: len(bot.seen) == 3, 2, "the bot to see its two messages")
            assert [m.content for m in bot.seen if m.author == bot.user] == [reply["content"], "a thread for us"]
            assert isinstance(bot.get_channel(int(thread.id)), discord.Thread)

    run(scenario)


def test_bot_opens_a_forum_post() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            forum = dev.channels["campaign-forum"]
            await fake.user_says("mare-nostrum", "gm", "forum")
            call = await fake.wait_for_request("POST", f"/channels/{forum.id}/threads")
            assert call.status == 201 and call.query == {"use_nested_fields": "1"}
            assert call.json["name"] == "Turn 1 - Romans" and call.json["type"] == 11
            assert call.json["message"]["content"] == "Orders for turn 1"
            assert call.json["message"]["embeds"][0]["title"] == "Turn 1"
            thread = fake.channel("Turn 1 - Romans")
            (starter,) = fake.messages_in(thread.id)
            assert starter["id"] == thread.id and starter["embeds"][0]["description"] == "Post your orders here"
            assert ("THREAD_CREATE", thread.id) in [(e, d.get("id")) for e, d in fake.events]
            await fake.wait_until(lambda: bot.get_channel(int(thread.id)) is not None, 2, "THREAD_CREATE in cache")
            cached = bot.get_channel(int(thread.id))
            assert isinstance(cached, discord.Thread) and cached.parent_id == int(forum.id)

    run(scenario)


def test_bot_uploads_a_file_as_multipart() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            await fake.user_says("mare-nostrum", "bob", "upload")
            message = await fake.wait_for_message("mare-nostrum", lambda m: m["content"] == "the log")
            (call,) = [r for r in fake.requests_to("POST", "/channels/{channel_id}/messages") if r.files]
            (upload,) = call.files
            assert (upload.field, upload.filename, upload.data) == ("files[0]", "turn-1.log", b"turn 1\nRomans: pass\n")
            assert call.json["content"] == "the log" and call.json["attachments"][0]["filename"] == "turn-1.log"
            (attachment,) = message["attachments"]
            assert attachment["filename"] == "turn-1.log" and attachment["size"] == len(upload.data)
            async with aiohttp.ClientSession() as http:
                async with http.get(attachment["url"]) as response:
                    assert await response.read() == upload.data

    run(scenario)


def test_slash_command_callback_follow_up_and_deferred_subcommand() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            ping = await fake.invoke_slash(None, "mare-nostrum", "carla", "ping", {"word": "ave"})
            assert ping.payload["data"]["id"] == fake.command("ping")["id"]  # type: ignore[index]
            callback = await ping.wait_callback()
            assert callback == {"type": 4, "data": {"tts": False, "content": "pong: ave",
                                                    "allowed_mentions": {"parse": []}}}
            assert (await ping.wait_reply())["content"] == "pong: ave"
            followup = await ping.wait_followup()
            assert followup["content"] == "and again: ave" and followup["webhook_id"] == fake.app_id
            (hook,) = fake.requests_to("POST", f"/webhooks/{fake.app_id}/{ping.token}")
            assert hook.query["wait"] == "1" and hook.json["content"] == "and again: ave"
            assert [m["content"] for m in fake.messages_in("mare-nostrum")] == ["pong: ave", "and again: ave"]

            status = await fake.invoke_slash(None, "mare-nostrum", "gm", "turn", {"detail": True}, subcommand="status")
            assert status.payload["data"]["guild_id"] == dev.guild.id
            assert (await status.wait_callback())["type"] == 5  # deferred ("thinking...")
            reply = await status.wait_reply()
            assert reply["content"] == "turn 1 open (detail=True)" and reply["edited_timestamp"] is not None
            (edit,) = fake.requests_to("PATCH", f"/webhooks/{fake.app_id}/{status.token}/messages/@original")
            assert edit.json["content"] == "turn 1 open (detail=True)"

            with pytest.raises(LookupError, match="registered: ping, turn"):
                await fake.invoke_slash(None, "mare-nostrum", "gm", "battle")

    run(scenario)


def test_autocomplete_returns_the_bots_choices() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            choices = await fake.autocomplete(None, "mare-nostrum", "alice", "ping", "word", {"word": "le"})
            assert choices == [{"name": "legion", "value": "legion"}, {"name": "lemures", "value": "lemures"}]

    run(scenario)


def test_bad_token_is_refused_with_login_failure() -> None:
    async def scenario() -> None:
        async with FakeDiscord.start() as fake:
            with point_discord_py(fake.api_base):
                client = discord.Client(intents=discord.Intents.default())
                async with client:
                    with pytest.raises(discord.LoginFailure):
                        await client.login("not-the-token")
            (call,) = fake.requests
            assert (call.method, call.path, call.status) == ("GET", "/users/@me", 401)
            assert call.response == {"message": "401: Unauthorized", "code": 0}

    run(scenario)


def test_heartbeats_are_acknowledged() -> None:
    async def scenario() -> None:
        async with world_and_bot(heartbeat_interval=0.05) as (fake, dev, bot):
            conn = fake.connections[0]
            await fake.wait_until(lambda: conn.heartbeats >= 4, 3, "four heartbeats")
            assert conn.heartbeat_acks == conn.heartbeats
            assert bot.latency < 1.0  # discord.py measures latency from the ACKs

    run(scenario)


def test_a_429_is_retried_by_discord_py() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            fake.rate_limit_next("POST", "/channels/{channel_id}/messages", retry_after=0.05)
            await fake.user_says("mare-nostrum", "alice", "upload")
            await fake.wait_for_message("mare-nostrum", lambda m: m["content"] == "the log")
            posts = fake.requests_to("POST", "/channels/{channel_id}/messages")
            assert [p.status for p in posts] == [429, 200]
            assert posts[0].response["retry_after"] == 0.05
            assert posts[1].files[0].data == posts[0].files[0].data  # the file was re-sent from the start
            assert len(fake.messages_in("mare-nostrum")) == 2

    run(scenario)


def test_rest_validation_matches_discord() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            channel = text_channel(bot, dev)
            with pytest.raises(discord.HTTPException) as too_long:
                await channel.send("x" * 2001)
            assert too_long.value.status == 400 and too_long.value.code == 50035
            assert "Must be 2000 or fewer in length" in str(too_long.value)
            forum = bot.get_channel(int(dev.channels["campaign-forum"].id))
            with pytest.raises(discord.HTTPException) as not_text:
                assert forum is not None
                await bot.http.send_message(forum.id, params=discord.http.handle_message_parameters("hi"))
            assert not_text.value.code == 50008
            with pytest.raises(discord.NotFound):
                await channel.fetch_message(1)
            fake.fail_next("GET", "/channels/{channel_id}", status=403, code=50001, message="Missing Access")
            with pytest.raises(discord.Forbidden):
                await bot.fetch_channel(channel.id)

    run(scenario)


def test_without_message_content_intent_guild_messages_arrive_empty() -> None:
    def factory(dev: DevWorld) -> MiniBot:
        return MiniBot(int(dev.guild.id), intents=discord.Intents.default())

    async def scenario() -> None:
        async with world_and_bot(bot_factory=factory) as (fake, dev, bot):
            await fake.user_says("mare-nostrum", "alice", "hello")
            await fake.user_says("mare-nostrum", "alice", f"<@{fake.app_id}> hello")
            await fake.wait_until(lambda: len(bot.seen) == 2, 2, "two messages")
            assert [m.content for m in bot.seen] == ["", f"<@{fake.app_id}> hello"]  # a mention lifts the veil

    run(scenario)


def test_reconnect_resumes_the_session() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            await fake.force_reconnect()
            await fake.wait_until(lambda: len(fake.connections) == 2 and fake.sessions[0].connection is not None, 3,
                                  "the bot to RESUME on a new socket")
            assert fake.sessions[0].resumes == 1 and len(fake.sessions) == 1
            assert fake.connections[1].received[0]["op"] in (1, 6)
            await fake.user_says("mare-nostrum", "alice", "upload")
            await fake.wait_for_message("mare-nostrum", lambda m: m["content"] == "the log")

    run(scenario)


def test_clean_shutdown_closes_the_gateway() -> None:
    async def scenario() -> None:
        async with FakeDiscord.start() as fake:
            dev = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base):
                bot = MiniBot(int(dev.guild.id))
                async with bot:
                    task = asyncio.create_task(bot.start(fake.token))
                    await asyncio.wait_for(bot.ready.wait(), 5)
                    await bot.close()
                    await asyncio.wait_for(task, 5)  # start() returns: no reconnect, no exception
                assert bot.is_closed()
                await fake.wait_until(lambda: all(c.closed for c in fake.connections), 2, "the socket to close")
                # discord.py asks to close with 1000, but its reader task gets its own close(4000) on the wire first
                assert fake.connections[0].closed_by == "client" and fake.connections[0].close_code in (1000, 4000)
                assert fake.server.live_sessions() == []

    run(scenario)


def test_privileged_intents_not_granted_close_the_gateway() -> None:
    async def scenario() -> None:
        async with FakeDiscord.start(privileged_intents=0) as fake:
            dev = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base):
                bot = MiniBot(int(dev.guild.id))
                async with bot:
                    with pytest.raises(discord.PrivilegedIntentsRequired):
                        await bot.start(fake.token)
            assert (fake.connections[0].closed_by, fake.connections[0].close_code) == ("server", 4014)

    run(scenario)


def test_dev_world_ids_are_deterministic() -> None:
    async def ids() -> list[str]:
        async with FakeDiscord.start() as fake:
            dev = seed_dev_world(fake.world)
            return [fake.app_id, fake.token, dev.guild.id, *(c.id for c in dev.channels.values()),
                    *(u.id for u in dev.users.values())]

    first, second = asyncio.run(ids()), asyncio.run(ids())
    assert first == second and len(set(first)) == len(first)


def test_dev_console_drives_the_bot_and_prints_its_calls() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            out = io.StringIO()
            console = DevConsole(fake, dev, out)
            console.banner()
            assert f"DISCORD_TOKEN={fake.token}\nDISCORD_API_BASE={fake.api_base}\n" in out.getvalue()
            await console.handle("alice: upload")
            await fake.wait_for_message("mare-nostrum", lambda m: m["content"] == "the log")
            await console.handle("/carla ping ave caesar")
            await fake.wait_for_message("mare-nostrum", lambda m: m["content"] == "and again: ave caesar")
            await console.handle("/gm turn status detail=yes")
            await fake.wait_for_message("mare-nostrum", lambda m: m["content"].startswith("turn 1 open"))
            await console.handle("bob #campaign-forum: hi")
            await console.handle(":post bob Turn 1 - Gauls | we pass")
            assert await console.handle(":quit") is False
            text = out.getvalue()
            assert "[#mare-nostrum] Legatus:\n    the log\n    [file turn-1.log, 20 bytes: http://" in text
            assert "[#mare-nostrum] Legatus:\n    pong: ave caesar\n" in text
            assert "[#mare-nostrum] Legatus (edited):\n    turn 1 open (detail=True)\n" in text
            assert "!! #campaign-forum is a forum" in text
            assert "bob opened #Turn 1 - Gauls in #campaign-forum" in text
            assert fake.channel("Turn 1 - Gauls").owner_id == dev.users["bob"].id

    run(scenario)


def test_dev_discord_command_line_options() -> None:
    parser = argparse.ArgumentParser(prog="legatus")
    add_commands(parser.add_subparsers())
    args = parser.parse_args(["dev-discord", "--port", "9000"])
    assert (args.host, args.port, args.token, args.func) == ("127.0.0.1", 9000, None, cmd_dev_discord)


def test_dev_discord_process_prints_the_env_lines_and_quits() -> None:
    done = subprocess.run([sys.executable, "-m", "bot.devdiscord.session", "--port", "0"], input=":quit\n",
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^DISCORD_TOKEN=\S+$", done.stdout, re.M)
    assert re.search(r"^DISCORD_API_BASE=http://127\.0\.0\.1:\d+/api/v10$", done.stdout, re.M)


def test_interaction_rules_deadline_single_answer_follow_up_after_answer() -> None:
    """At the HTTP level, as Discord: one answer per interaction, within the deadline; follow-ups only after it."""
    async def scenario() -> None:
        async with FakeDiscord.start(interaction_deadline=0.2) as fake:
            dev = seed_dev_world(fake.world)
            fake.server.commands[None] = {"1:ping": {"id": "42", "name": "ping", "type": 1, "options": []}}
            api = fake.api_base
            async with aiohttp.ClientSession() as http:
                first = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
                async with http.post(f"{api}/webhooks/{fake.app_id}/{first.token}?wait=1",
                                     json={"content": "too early"}) as early:
                    assert early.status == 404 and (await early.json())["code"] == 10015
                answer = {"type": 4, "data": {"content": "pong"}}
                async with http.post(f"{api}/interactions/{first.id}/{first.token}/callback?with_response=1",
                                     json=answer) as ok:
                    body = await ok.json()
                    assert ok.status == 200 and ok.headers["Content-Type"] == "application/json"
                    assert body["resource"]["message"]["content"] == "pong"
                    assert body["interaction"]["response_message_id"] == body["resource"]["message"]["id"]
                async with http.post(f"{api}/interactions/{first.id}/{first.token}/callback", json=answer) as again:
                    assert again.status == 400 and (await again.json())["code"] == 40060
                late = await fake.invoke_slash(None, "mare-nostrum", "alice", "ping")
                await asyncio.sleep(0.25)
                async with http.post(f"{api}/interactions/{late.id}/{late.token}/callback", json=answer) as expired:
                    assert expired.status == 404 and (await expired.json())["code"] == 10062
                async with http.get(f"{api}/users/@me", headers={"Authorization": "Bot nope"}) as refused:
                    assert refused.status == 401
                assert [m["content"] for m in fake.messages_in(dev.channels["mare-nostrum"].id)] == ["pong"]

    run(scenario)


def test_direct_messages_edits_and_deletes_reach_the_bot() -> None:
    async def scenario() -> None:
        async with world_and_bot() as (fake, dev, bot):
            await fake.user_dms("alice", "upload")
            dm = fake.world.dm_channel(dev.users["alice"].id)
            sent = await fake.wait_for_message(dm.id, lambda m: m["content"] == "the log")
            assert "guild_id" not in sent and sent["attachments"][0]["filename"] == "turn-1.log"

            said = await fake.user_says("mare-nostrum", "bob", "build temple in Latium")
            edited = asyncio.create_task(bot.wait_for("message_edit", timeout=2))
            await fake.user_edits(said["id"], "build fortification in Latium")
            before, after = await edited
            assert (before.content, after.content) == ("build temple in Latium", "build fortification in Latium")
            deleted = asyncio.create_task(bot.wait_for("message_delete", timeout=2))
            await fake.user_deletes(said["id"])
            assert (await deleted).id == int(said["id"])
            assert [m["id"] for m in fake.messages_in("mare-nostrum")] == []

    run(scenario)
