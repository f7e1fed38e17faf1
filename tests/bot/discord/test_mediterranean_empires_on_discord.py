"""Issue 15 on Discord: Mediterranean Empires played through the fake Discord by two player accounts and a GM.

The same scripted players as the console game (tests/games/mediterranean_empires_players.py) decide every move from
what they may know; here each move reaches Legatus the way people would make it on Discord: orders typed in the game
turn's thread, some as slash commands picked with autocomplete (/activate, /recruit, /attempt), reaction questions
answered with their buttons, one question left to run out (the scheduler's deadline applies its stated default) and
the others answered by the GM's /order, sealed initiative bids typed in the thread (their content goes to the bidder
alone), rolls recorded by the bot itself when their drand round comes (a relay on 127.0.0.1), /state and /map.
Every message the bot posts is checked: no traceback, no internal error, each post answered line by line. The whole
game, seven game turns, takes some 7 s on one core.
"""
from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session

from bot.devdiscord import FakeDiscord, point_discord_py, seed_dev_world
from bot.devdiscord.model import DevWorld
from bot.discord.bot import LegatusBot
from bot.drand.beacons import BeaconSource
from bot.drand.client import DrandClient
from bot.schedule import scheduler as S
from bot.schedule.clock import FixedClock
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from bot.store.discord_places import turn_thread
from engine.events import Event
from engine.log import replay
from engine.ruleset import BID, REACTION
from engine.rulesets import load_ruleset
from tests.bot.discord.test_discord_bot import Table, answers
from tests.bot.drand.drand_fakes import TEST_CHAIN, FakeRelay, serving
from tests.bot.schedule import scheduler_drive as drive
from tests.games.mediterranean_empires_players import START, STANDING, decide

NAME = "middle-sea"
USERS = {"Player A": "alice", "Player B": "bob"}
CONSOLE_NAMES = {"ann": "alice", "bob": "bob"}  # the console players' names -> the fake Discord's accounts
MAX_STEPS = 3000
TIMEOUT = 600.0


@pytest.fixture
def driven_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's scheduler paused: the test runs its jobs (beacons, deadlines) with ``run_due`` on its clock."""
    real = S.start_scheduler

    async def paused(service: Any, poster: Any, clock: Any = None, **kw: Any) -> Any:
        kw.update(fetch=drive.fake_fetch, run=False)
        return await real(service, poster, clock, **kw)

    monkeypatch.setattr(S, "start_scheduler", paused)


@dataclass
class Game:
    fake: FakeDiscord
    bot: LegatusBot
    service: Legatus
    world: DevWorld
    clock: FixedClock
    plan: dict[str, Any] = field(default_factory=dict)
    posts: list[tuple[str, str, str]] = field(default_factory=list)  # (who, what, the bot's answer)
    used: dict[str, int] = field(default_factory=dict)  # how each kind of move was made: "slash /activate", ...

    def uid(self, name: str) -> str:
        return str(self.fake.user(name).id)

    @property
    def campaign_id(self) -> int:
        row = self.service.campaign_for_channel_name(NAME)
        assert row is not None and row.id is not None
        return row.id

    def count(self, how: str) -> None:
        self.used[how] = self.used.get(how, 0) + 1

    async def run_due(self) -> list[str]:
        return await S.run_due(self.bot.scheduler, self.clock.now(), self.clock)

    async def where(self) -> str:
        """The current game turn's thread (waiting for it when the turn has just opened)."""
        turn = self.service.summary(NAME).turn

        def stored() -> str | None:
            with Session(self.service.engine) as session:
                return turn_thread(session, self.campaign_id, turn)

        return str(await self.fake.wait_until(stored, 10, f"the thread of game turn {turn}"))

    async def say(self, user: str, text: str) -> str:
        """A post in the turn's thread, a quarter of a minute after the last, and the bot's answer to it."""
        self.clock.advance(timedelta(seconds=15))
        channel = await self.where()
        sent = await self.fake.user_says(channel, user, text)
        answer = await self.fake.wait_for_message(channel, answers(sent), timeout=10)
        self.posts.append((user, text, answer["content"]))
        return str(answer["content"])

    async def slash(self, user: str, command: str, options: dict[str, Any]) -> str:
        self.clock.advance(timedelta(seconds=15))
        invocation = await self.fake.invoke_slash(None, await self.where(), user, command, options)
        answer = str((await invocation.wait_reply(timeout=10))["content"])
        self.posts.append((user, f"/{command} {options}", answer))
        return answer


async def with_game(tmp_path: Path, body: Callable[[Game], Awaitable[None]]) -> None:
    clock = FixedClock(START)
    with serving(FakeRelay()) as relay:
        service = Legatus(open_engine(tmp_path / "me.db"), clock=clock)
        # The relay is on this machine: a long timeout costs nothing when it answers, and a loaded machine (the whole
        # suite on every core) may take more than a second or two to.
        service.beacons = BeaconSource(DrandClient(TEST_CHAIN, [relay.url], timeout=30, attempts=1),
                                       test_chain=True,  # the tests hold its key: an explicit opt-in
                                       clock=lambda: clock.now().timestamp())
        # Repeatable salts (the pick key is one): the same markers every run, so the same game; a live bot draws them
        # from the OS. With random ones the game took another path each run, and failed once in a full run.
        salts = itertools.count(1)
        service.salt = lambda: hashlib.sha256(f"discord salt {next(salts)}".encode()).hexdigest()[:32]
        # No per-channel message bucket: hundreds of posts in one thread would otherwise wait 1 s each. Nor the
        # fake's general 50 requests per route per second: the game posts faster than that in a turn's thread, and
        # discord.py sat out the rest of the second each time (~6 s of the test). This test is about the game, not
        # the limits: the bot meets those in tests/bot/devdiscord/test_strictness.py and test_discord_bot.py.
        async with FakeDiscord.start(host="127.0.0.1", port=0, channel_message_limit=None,
                                     rate_limit=(100_000, 1.0)) as fake:
            world = seed_dev_world(fake.world)
            with point_discord_py(fake.api_base, fake.gateway_url):
                bot = LegatusBot(service, guild_id=int(world.guild.id), guild_ready_timeout=0.05)
                runner = asyncio.create_task(bot.start(fake.token))
                try:
                    await fake.wait_until(lambda: bot.is_ready() and fake.registered_commands, 10, "the bot to be ready")
                    await body(Game(fake, bot, service, world, clock))
                finally:
                    await bot.close()
                    runner.cancel()
                    await asyncio.gather(runner, return_exceptions=True)


async def set_up(g: Game) -> None:
    t = Table(g.fake, g.bot, g.service, g.world)
    gm_role = str(g.world.roles["GM"].id)
    offered = await g.fake.autocomplete(None, "mare-nostrum", "gm", "campaign", "ruleset",
                                        {"name": NAME, "gm_role": gm_role, "ruleset": "medit"}, subcommand="create")
    # Every registered game whose id or title holds the typed text, in the registry's order.
    assert [c["value"] for c in offered] == ["mediterranean-empires", "trading-mediterranean"]
    created = await t.slash("gm", "campaign", "create", name=NAME, gm_role=gm_role, ruleset="mediterranean-empires")
    assert "Campaign 'middle-sea' created (Mediterranean Empires" in created, created
    seats = await g.fake.autocomplete(None, "mare-nostrum", "gm", "campaign", "seat", {"player": g.uid("alice")},
                                      subcommand="assign")
    assert [c["value"] for c in seats] == ["Player A", "Player B"]
    for seat, user in USERS.items():
        assigned = await t.slash("gm", "campaign", "assign", seat=seat, player=g.uid(user))
        assert "✓" in assigned, assigned
    for seat, rules in STANDING.items():
        for rule in rules:
            assert "✓ line 1" in await g.say(USERS[seat], rule)
    for seat in USERS:  # 3.1-3.2: Player A, then Player B, takes the documented set-up in one line
        assert "✓ line 1" in await g.say(USERS[seat], "standard set-up")


async def autocomplete_checks(g: Game) -> None:
    """Areas and powers are picked, not spelt: the game's commands autocomplete from its own vocabularies."""
    where = await g.where()
    areas = await g.fake.autocomplete(None, where, "alice", "activate", "area", {"power": "France", "area": "prov"})
    assert "Provence County" in [c["value"] for c in areas], areas
    powers = await g.fake.autocomplete(None, where, "bob", "recruit", "power", {"units": "a fleet", "power": "arag", "area": "Balearic Sea"})
    assert [c["value"] for c in powers] == ["Aragon"]
    targets = await g.fake.autocomplete(None, where, "bob", "attempt", "target", {"kind": "alliance", "target": "gen"})
    assert "Genoa" in [c["value"] for c in targets]


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


async def answer_by_button(g: Game, user: str, line: str) -> str | None:
    """Click ``line`` on the newest message asking ``user`` a question; None if no such button is shown."""
    where = await g.where()

    def asked() -> dict[str, Any] | None:
        found = [m for m in g.fake.messages_in(where) if f"<@{g.uid(user)}>" in m["content"]
                 and any(b["label"] == line for b in _buttons(m))]
        return found[-1] if found else None

    message = await g.fake.wait_until(asked, 10, f"the question to {user} with a '{line}' button")
    button = next(b for b in _buttons(message) if b["label"] == line)
    g.clock.advance(timedelta(seconds=15))
    click = await g.fake.click(message["id"], user, button["custom_id"])
    answer = str((await click.wait_reply(timeout=10))["content"])
    g.posts.append((user, f"[button {line}]", answer))
    return answer


async def as_slash(g: Game, user: str, line: str) -> str | None:
    """The first activation, recruitment and attempt of each player go in as slash commands (the rest typed)."""
    ruleset = g.service.ruleset_of(NAME)
    order = ruleset.read_post(g.service.folded(NAME)[1], f"<@{g.uid(user)}>", line)[0].data.get("order") or {}
    kind = order.get("order")
    if kind not in ("activate", "recruit", "attempt") or g.used.get(f"slash /{kind} {user}"):
        return None
    if kind == "activate" and order.get("count") is None and order.get("markers") == 0 and order.get("king"):
        options = {"power": order["power"], "area": order["area"]}
    elif kind == "recruit":
        options = {"units": line.split(" of ")[0].removeprefix("recruit "), "power": order["power"], "area": order["area"]}
    elif kind == "attempt" and order.get("king") is None and not order.get("pope"):
        options = {"kind": order["kind"], "target": order["power"], **({"using": "1 TP"} if order.get("tp") else {})}
    else:
        return None
    g.count(f"slash /{kind} {user}")
    g.count("slash")
    return await g.slash(user, kind, options)


async def play(g: Game, until_turn: int) -> None:
    ruleset = g.service.ruleset_of(NAME)
    timed_out = False
    for _ in range(MAX_STEPS):
        _, st = g.service.folded(NAME)
        if st.phase == "over" or st.turn >= until_turn:
            return
        prompts = ruleset.prompts(st)
        if not prompts:
            # A roll waits for its drand round: the bot records it by itself when the round comes.
            g.clock.advance(timedelta(seconds=5))
            await g.run_due()
            g.count("beacon job")
            continue
        p = prompts[0]
        who, line = decide(ruleset, st, p, g.plan)
        if who == "gm":
            if not timed_out and p.mode == REACTION:
                # Nobody answers: the deadline runs out and the bot applies the question's stated default.
                timed_out = True
                before = len(g.service.export(NAME).splitlines())
                g.clock.advance(timedelta(hours=49))
                await g.run_due()
                assert len(g.service.export(NAME).splitlines()) > before, "the timeout applied the default"
                g.count("timeout")
                continue
            answer = await g.say("gm", f'/order "{p.seat}" {p.on_timeout}')
            assert "✓" in answer, answer
            g.count("gm default")
            continue
        user = CONSOLE_NAMES[who]
        if p.mode == REACTION and line in p.choices:
            answer = await answer_by_button(g, user, line)
            g.count("button")
        else:
            answer = await as_slash(g, user, line) or await g.say(user, line)
            if p.mode == BID:
                g.count("sealed bid")
                assert "(a sealed order)" in answer and f"“{line}”" not in answer, answer
        assert answer is not None and "✗" not in answer, (user, line, answer)
    raise AssertionError(f"the game did not reach game turn {until_turn} in {MAX_STEPS} steps: {ruleset.status(st)}")


def check_every_bot_message(g: Game) -> None:
    bot_id = str(g.fake.bot_user.id)
    said = [m for m in g.fake.world.messages.values() if str(m.author_id) == bot_id]
    assert said
    for message in said:
        text = message.content + json.dumps([e for e in getattr(message, "embeds", [])], default=str)
        assert "Traceback" not in text and "internal error" not in text, text
    # Each post was answered with one verdict per line (a ✓ or a ✗ quoting it), and none was refused.
    for who, what, answer in g.posts:
        assert answer.startswith(("✓", "✗")) or "line 1" in answer, (who, what, answer)
        assert "✗" not in answer, (who, what, answer)


def test_a_whole_game_of_mediterranean_empires_on_discord(tmp_path: Path, driven_scheduler: None) -> None:
    async def body(g: Game) -> None:
        await set_up(g)
        await autocomplete_checks(g)
        await play(g, until_turn=8)
        check_every_bot_message(g)
        summary = g.service.summary(NAME)
        assert summary.over and summary.turn == 7 and summary.winner in ("Player A", "Player B", "draw"), summary
        said = "\n".join(m.content for m in g.fake.world.messages.values())
        # Every phase of every game turn went by, each on Discord, in its own thread.
        for seen in ("draws a stratagem marker", "attempts alliance with", "recruits", "OP roll", "Initiative in",
                     "Table in", "dies", "Game turn 2 (1291–1300) begins", "Game turn 7 (1341–1350) begins",
                     "The game ends:"):
            assert seen in said, seen
        threads = sorted(c.name for c in g.fake.world.channels.values() if c.name.startswith("Game turn"))
        assert threads == [f"Game turn {n} ({1271 + 10 * n}–{1280 + 10 * n})" for n in range(1, 8)], threads
        assert g.used.get("button") and g.used.get("timeout") == 1 and g.used.get("beacon job"), g.used
        assert all(g.used.get(f"slash /{kind} {user}") for kind in ("activate", "recruit", "attempt")
                   for user in ("alice", "bob")), g.used
        assert g.used.get("sealed bid"), g.used
        # /state: a card and the whole public state as a file; /map: the picture of the areas.
        invocation = await g.fake.invoke_slash(None, await g.where(), "bob", "state")
        card = await invocation.wait_reply(timeout=10)
        fields = {f["name"]: f["value"] for f in card["embeds"][0]["fields"]}
        assert card["embeds"][0]["title"] == "Game turn 7 (1341–1350)" and fields["Status"].startswith("over: ")
        assert card["attachments"][0]["filename"] == "state.json"
        sent = [f for r in g.fake.requests for f in r.files if f.filename == "state.json"]
        assert json.loads(sent[-1].data) == g.service.state(NAME)
        shown = await g.fake.invoke_slash(None, await g.where(), "alice", "map")
        picture = await shown.wait_reply(timeout=30)
        assert picture["attachments"] and picture["attachments"][0]["filename"].endswith(".png")
        uploads = [f for r in g.fake.requests for f in r.files if f.filename == picture["attachments"][0]["filename"]]
        assert uploads[-1].data.startswith(b"\x89PNG")
        # /verify: every roll re-derived from its beacon, and the log attached replays to the same state; never
        # "ok" on the tests' own chain, whose key they hold: its one mismatch says so, and nothing else is wrong.
        checked = await g.fake.invoke_slash(None, await g.where(), "alice", "verify")
        verdict = await checked.wait_reply(timeout=60)
        assert verdict["content"].startswith("✗ 1 mismatch(es)"), verdict["content"]
        assert "test chain: not verifiable" in verdict["content"], verdict["content"]
        assert "--draws" not in verdict["content"]
        exported = [f for r in g.fake.requests for f in r.files if f.filename == f"{NAME}.log"][-1].data.decode()
        ruleset = load_ruleset("mediterranean-empires", g.service.data_dir)
        events = [Event.from_dict(json.loads(line)) for line in exported.splitlines()]
        assert json.dumps(ruleset.public_view(replay(ruleset, events).state), sort_keys=True) == \
            json.dumps(g.service.state(NAME), sort_keys=True)
        # Two sides alternate: no order of play, so no "you are next" heads-up.
        assert "heads-up, you are next" not in said

    asyncio.run(asyncio.wait_for(with_game(tmp_path, body), TIMEOUT))
