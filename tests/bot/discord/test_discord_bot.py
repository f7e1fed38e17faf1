"""Legatus on Discord, end to end: the real discord.py client against the fake Discord API on 127.0.0.1.

A whole turn: the campaign is set up with slash commands, three players give orders as plain messages, a battle
is reported, the turn closes. Plus every permission refusal and mention injection.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from bot.schedule.clock import FixedClock
from bot.store.db import open_engine
from bot.devdiscord import FakeDiscord, model, point_discord_py, seed_dev_world
from bot.devdiscord.api import Invocation
from bot.devdiscord.model import DevWorld
from bot.discord.bot import LegatusBot
from bot.service.legatus import Legatus
from tests.conftest import LOTTO

TIMEOUT = 30.0
SEATS = {"Romans": "alice", "Gauls": "bob", "Carthaginians": "carla", "Macedonians": "max", "Ptolemaics": "pat", "Seleucids": "sam"}


def answers(sent: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """Whether a bot message answers the user's message ``sent``: a reply to it, or, the post deleted because it
    held a sealed order, the answer that names its author instead."""
    gone = f"<@{sent['author']['id']}>, your message (deleted"
    return lambda m: (m.get("message_reference", {}).get("message_id") == sent["id"]
                      or (int(m["id"]) > int(sent["id"]) and m["content"].startswith(gone)))


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), TIMEOUT))


class Table:
    """A running fake Discord with the dev world, and Legatus connected to it."""

    def __init__(self, fake: FakeDiscord, bot: LegatusBot, service: Legatus, dev: DevWorld) -> None:
        self.fake, self.bot, self.service, self.dev = fake, bot, service, dev
        self.ephemeral = False  # whether the last answer read by ``answer`` was shown to its author alone

    def uid(self, name: str) -> str:
        return str(self.fake.user(name).id)

    async def say(self, user: str, text: str, channel: str = "mare-nostrum") -> str:
        sent = await self.fake.user_says(channel, user, text)
        answer = await self.fake.wait_for_message(channel, answers(sent), timeout=10)
        return answer["content"]

    async def slash(self, user: str, command: str, subcommand: str | None = None, *, where: str = "mare-nostrum", **options: Any) -> str:
        invocation = await self.fake.invoke_slash(None, where, user, command, options or None, subcommand=subcommand)
        return str((await self.answer(invocation))["content"])

    async def answer(self, invocation: Invocation, timeout: float = 10) -> dict[str, Any]:
        """What the user sees of a deferred command: the deferral's message once filled in (a public answer), or,
        when the bot deleted it to answer privately, its first follow-up. Remembers whether it was ephemeral."""
        world = self.fake.world

        def ready() -> dict[str, Any] | None:
            original = world.messages.get(invocation.record.original_message_id or "")
            if original is not None and not original.deleted and not original.flags & model.FLAG_LOADING:
                self.ephemeral = original.ephemeral
                return invocation.original
            if original is not None and original.deleted and invocation.followups:
                self.ephemeral = world.messages[invocation.record.followup_ids[0]].ephemeral
                return invocation.followups[0]
            return None

        return await self.fake.wait_until(ready, timeout, f"the answer to {invocation.record.command_name}")


# Discord's 5 messages per channel, in a window of 0.25 s instead of its 5 s: the bot meets the limit and its 429s as
# on Discord (its bursts in a turn's thread are faster than that), and a test of a game's flow waits a twentieth of
# the time (1 s windows cost these tests ~8 s of waiting a run). The limit's own tests keep Discord's window
# (tests/bot/devdiscord/test_strictness.py).
GAME_FLOW_LIMIT = (5, 0.25)


async def table(tmp_path: Path, scenario: Callable[[Table], Awaitable[None]]) -> None:
    # The service's clock stands at the real hour: the scheduler fires jobs by the real clock, so a table clock in
    # the past made every deadline (48 h on) due at once, its job claimed, found early by the table's clock and
    # rescheduled for a moment already past, in a loop (since 2026-11-24 12:00 UTC with a clock of 2026-11-22).
    now = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0)
    service = Legatus(open_engine(tmp_path / "discord.db"), clock=FixedClock(now))
    service.import_draws((LOTTO / "draws-2023-01.txt").read_text(encoding="utf-8"), "draws-2023-01.txt")
    async with FakeDiscord.start(host="127.0.0.1", port=0, channel_message_limit=GAME_FLOW_LIMIT) as fake:
        world = seed_dev_world(fake.world)
        with point_discord_py(fake.api_base, fake.gateway_url):
            bot = LegatusBot(service, guild_id=int(world.guild.id), guild_ready_timeout=0.05)
            runner = asyncio.create_task(bot.start(fake.token))
            try:
                await fake.wait_until(lambda: bot.is_ready() and fake.registered_commands, 10, "the bot to be ready")
                await scenario(Table(fake, bot, service, world))
            finally:
                await bot.close()
                runner.cancel()
                await asyncio.gather(runner, return_exceptions=True)


async def set_up_campaign(t: Table) -> None:
    created = await t.slash("gm", "campaign", "create", name="mare", gm_role=_role(t, "GM"), clock="historical")
    assert "Campaign 'mare' created" in created
    for nation, user in SEATS.items():
        answer = await t.slash("gm", "campaign", "assign", seat=nation, player=t.uid(user))
        assert "✓" in answer, answer


async def create_by_slash(t: Table, name: str, ruleset: str, title: str, seats: dict[str, str], options: str) -> None:
    """A historical lottery campaign of ``ruleset`` made by the GM's slash commands, each seat given its player."""
    created = await t.slash("gm", "campaign", "create", name=name, gm_role=_role(t, "GM"), ruleset=ruleset,
                            randomness="lottery", clock="historical", options=options)
    assert f"Campaign '{name}' created ({title}" in created, created
    for seat, user in seats.items():
        assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))


def _role(t: Table, name: str) -> str:
    return str(t.dev.roles[name].id)


def test_a_whole_turn_on_discord(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        opened = await t.slash("gm", "turn", "open", date="2023-01-03")
        assert "Order of play: Seleucids (NA 90), Ptolemaics (GE 80), Macedonians (FI 40)" in opened
        thread = await t.fake.wait_until(lambda: next((c for c in t.fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's thread")
        announcement = await t.fake.wait_for_message(str(thread.id), lambda m: "**Turn 1 (290 BC)**" in m["content"])
        assert "1. Seleucids — <@" in announcement["content"] and "• Romans: Invasion (38) (Bruttium)" in announcement["content"]
        in_thread = await t.say("sam", "build suburbs in Syria", channel=str(thread.id))
        assert "✓ line 1" in in_thread
        first = await t.say("sam", "Hail, friends!\nbuild fortification in Syria")
        assert "✓ line 2" in first and "line 1 " not in first
        # Everything of a turn goes to its thread, and the first player is pinged once there, not again in the channel.
        turn_thread = str(thread.id)
        sam_pinged = f"<@{t.uid('sam')}>: it is your turn."
        # Sent after the thread's other messages, within its rate limit: waited for, then counted.
        await t.fake.wait_for_message(turn_thread, lambda m: m["content"] == sam_pinged, timeout=20)
        assert [m["content"] for m in t.fake.messages_in(turn_thread) if "it is your turn" in m["content"]] == [sam_pinged]
        assert not [m for m in t.fake.messages_in("mare-nostrum") if "it is your turn" in m["content"]]
        ping = await t.fake.wait_for_message(turn_thread, lambda m: m["content"] == f"<@{t.uid('pat')}>: it is your turn.")
        assert [u["id"] for u in ping["mentions"]] == [t.uid("pat")]
        second = await t.say("pat", "build suburbs in Aegyptus\npass")
        assert "Completed: suburbs in Aegyptus" in second
        third = await t.say("max", "build temple in Macedonia\nattack Epirus from Thessalia\nbuild suburbs in Macedonia\npass")
        assert "a temple needs suburbs" in third and "Battle #" in third
        assert "your turn stays open" in third  # a refused order keeps the turn: the pass waits for max
        for user in ("max", "alice", "carla", "bob"):
            assert "end their turn" in await t.say(user, "pass")
        board = await t.fake.invoke_slash(None, "mare-nostrum", "carla", "turn", subcommand="status")
        card = (await board.wait_reply(timeout=10))["embeds"][0]
        assert card["title"] == "Status board" and "✓ Seleucids" in card["description"] and "Deadlines:" in card["description"]
        invocation = await t.fake.invoke_slash(None, "mare-nostrum", "bob", "battle",
                                               {"province": "Bruttium", "winner": "Romans", "screenshot": ("fog.png", b"\x89PNG fake")})
        assert "Bruttium holds" in (await invocation.wait_reply(timeout=10))["content"]
        shot = await invocation.wait_followup(0, timeout=10)
        # The screenshot is the bot's own upload, never Discord's expiring link to the user's attachment.
        assert shot["attachments"][0]["filename"] == "fog.png" and "/attachments/" not in shot["content"]
        uploads = [f for r in t.fake.requests_to("POST", "/webhooks/{webhook_id}/{token}") for f in r.files]
        assert [(f.filename, f.data) for f in uploads] == [("fog.png", b"\x89PNG fake")]
        refused = await t.fake.invoke_slash(None, "mare-nostrum", "sam", "battle",
                                            {"province": "Epirus", "winner": "Macedonians", "screenshot": ("no.png", b"x")})
        assert "only the two players of battle" in (await t.answer(refused))["content"] and t.ephemeral
        await asyncio.sleep(0.2)
        assert len(refused.followups) == 1, "nothing is uploaded with a refused report"
        assert "Epirus falls to the Macedonians" in await t.slash("gm", "battle", province="Epirus", winner="Macedonians")
        closed = await t.slash("gm", "turn", "close")
        assert "Turn 1 (290 BC) is closed" in closed
        results = await t.fake.wait_for_message(turn_thread, lambda m: "the map and the provinces so far" in m["content"], timeout=15)
        assert not [m for m in t.fake.messages_in("mare-nostrum") if "the map and the provinces" in m["content"]]
        names = [a["filename"] for a in results["attachments"]]
        assert names == ["map-turn-1.png", "provinces-turn-1.png"]
        uploads = [f for r in t.fake.requests_to("POST", "/channels/{channel_id}/messages") for f in r.files]
        assert any(f.filename == "map-turn-1.png" and f.data.startswith(b"\x89PNG") for f in uploads)
        checked = await t.fake.invoke_slash(None, "mare-nostrum", "carla", "verify")
        verdict = await checked.wait_reply(timeout=15)
        assert "✓ Every number matches the stored draws" in verdict["content"]
        assert verdict["attachments"][0]["filename"] == "mare.log"
        assert "is for the GM" in await t.slash("carla", "roll", dice="2d6", label="a ruling")
        rolled = await t.slash("gm", "roll", dice="2d6", label="siege of Numantia")
        assert "bound to the draw of" in rolled and "2d6 siege of Numantia" in rolled
        picture = await t.fake.invoke_slash(None, "mare-nostrum", "sam", "map", {"turn": 1})
        shown = await picture.wait_reply(timeout=15)
        assert "Turn 1 (290 BC)" in shown["content"] and shown["attachments"][0]["filename"] == "map-turn-1.png"
        state = t.service.state("mare")
        assert state["provinces"]["Epirus"]["owner"] == "Macedonians"
        assert state["provinces"]["Syria"]["fortification"] is True
        # Every message the bot sent had mentions off unless it opted in for one player.
        for request in t.fake.requests_to("POST", "/channels/{channel_id}/messages"):
            body = request.json or {}
            allowed = body.get("allowed_mentions", {})
            assert allowed.get("parse", []) == [] and not allowed.get("roles") and not allowed.get("replied_user")

    run(lambda: table(tmp_path, scenario))


def test_permission_refusals(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        refused = await t.slash("alice", "campaign", "create", name="x", gm_role=_role(t, "Player"))
        assert "Only members who can manage this server can start a campaign" in refused
        await set_up_campaign(t)
        for name, sub, options in (("turn", "open", {"date": "2023-01-03"}), ("turn", "close", {}), ("gm", "undo", {}),
                                    ("gm", "pass", {"nation": "Romans"})):
            answer = await t.slash("alice", name, sub, **options)
            assert "is for the GM" in answer and t.ephemeral, (name, sub, answer)
        everyone = await t.slash("gm", "campaign", "create", name="y", gm_role=str(t.dev.guild.id))
        assert "the GM role cannot be @everyone" in everyone and t.ephemeral
        assert "is for the GM" in await t.slash("alice", "campaign", "assign", seat="Romans", player=t.uid("bob"))
        await t.slash("gm", "turn", "open", date="2023-01-03")
        other = await t.slash("alice", "order", orders="build suburbs in Syria")
        assert "it is not your turn: the Seleucids" in other
        for_another = await t.say("sam", "/order Romans build suburbs in Latium")
        assert "you can give orders only for your own seat (Seleucids), not for the Romans" in for_another
        not_your_turn = await t.say("alice", "build suburbs in Latium")
        assert "it is not your turn: the Seleucids" in not_your_turn
        stranger = await t.say("gm", "build suburbs in Latium")
        assert "play no nation" in stranger
        assert t.service.state("mare")["nations"]["Romans"]["actions"] == 2

    run(lambda: table(tmp_path, scenario))


def test_nothing_a_user_types_pings_anyone(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        evil = f"attack @everyone from Syria\nbuild temple in <@{t.uid('alice')}> <@&{_role(t, 'GM')}> @here"
        answer = await t.say("sam", evil)
        assert "@everyone" in answer
        sent = [r for r in t.fake.requests_to("POST", "/channels/{channel_id}/messages") if "@everyone" in (r.json or {}).get("content", "")]
        assert sent
        for request in sent:
            body = request.json
            assert body["allowed_mentions"]["parse"] == []
            assert not body["allowed_mentions"].get("users") and not body["allowed_mentions"].get("roles")
        posted = [m for m in t.fake.messages_in("mare-nostrum") if "@everyone" in m["content"] and m["author"]["bot"]]
        assert posted and all(not m["mention_everyone"] and not m["mentions"] and not m["mention_roles"] for m in posted)
        assert await t.slash("sam", "order", orders=f"<@{t.uid('alice')}> pass")

    run(lambda: table(tmp_path, scenario))


def test_table_talk_is_left_alone_and_long_answers_are_split(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        await t.slash("gm", "turn", "open", date="2023-01-03")
        talk = await t.fake.user_says("mare-nostrum", "bob", "who is up for a game tonight?")
        long_post = "\n".join(["build suburbs in Latium"] * 60)
        await t.say("sam", long_post)
        await asyncio.sleep(0.3)
        answers_to_talk = [m for m in t.fake.messages_in("mare-nostrum") if m.get("message_reference", {}).get("message_id") == talk["id"]]
        assert answers_to_talk == []
        assert sum("line 60" in m["content"] or "line 1 " in m["content"] for m in t.fake.messages_in("mare-nostrum")) >= 2
        for message in t.fake.messages_in("mare-nostrum"):
            assert len(message["content"]) <= 2000

    run(lambda: table(tmp_path, scenario))


def test_a_rejected_token_is_one_line_and_a_non_zero_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from bot.discord.bot import run_bot

    ready = threading.Event()
    holder: dict[str, Any] = {}

    def serve() -> None:
        async def main() -> None:
            async with FakeDiscord.start(host="127.0.0.1", port=0) as fake:
                seed_dev_world(fake.world)
                holder["fake"] = fake
                holder["stop"] = asyncio.Event()
                ready.set()
                await holder["stop"].wait()

        holder["loop"] = asyncio.new_event_loop()
        holder["loop"].run_until_complete(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    fake = holder["fake"]
    monkeypatch.setenv("DISCORD_API_BASE", fake.api_base)
    try:
        code = run_bot("not-the-token", str(tmp_path / "bot.store.db"))
    finally:
        holder["loop"].call_soon_threadsafe(holder["stop"].set)
        thread.join(10)
        import discord

        discord.http.Route.BASE = "https://discord.com/api/v10"
    out = capsys.readouterr()
    assert code == 1
    assert out.out.strip() == "legatus: Discord refused the token in DISCORD_TOKEN (check the bot's token in the Developer Portal)"
    assert "not-the-token" not in out.out + out.err and "Traceback" not in out.out + out.err


def test_a_forum_campaign_gets_a_post_per_turn_and_its_results_there(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        setup, _ = await t.fake.user_posts("campaign-forum", "gm", "Mare Nostrum: setup", "Sign-ups here")
        here = str(setup["id"])
        created = await t.slash("gm", "campaign", "create", where=here, name="forum", gm_role=_role(t, "GM"), clock="historical")
        assert "Campaign 'forum' created" in created
        for nation, user in SEATS.items():
            assert "✓" in await t.slash("gm", "campaign", "assign", where=here, seat=nation, player=t.uid(user))
        await t.slash("gm", "turn", "open", where=here, date="2023-01-05")
        post = await t.fake.wait_until(lambda: next((c for c in t.fake.world.channels.values() if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's forum post")
        assert str(post.parent_id) == str(t.dev.channels["campaign-forum"].id)
        turn_post = str(post.id)
        for nation in t.service.state("forum")["order_of_play"]:
            assert "end their turn" in await t.say(SEATS[nation], "pass", channel=turn_post)
        assert "is closed" in await t.slash("gm", "turn", "close", where=turn_post)
        results = await t.fake.wait_for_message(turn_post, lambda m: "the map and the provinces so far" in m["content"], timeout=15)
        assert [a["filename"] for a in results["attachments"]] == ["map-turn-1.png", "provinces-turn-1.png"]

    run(lambda: table(tmp_path, scenario))
