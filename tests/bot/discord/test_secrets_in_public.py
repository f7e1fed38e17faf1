"""Secrets never shown in public (issue 22, hole 7, and hole 6's refusals), on the fake Discord with the real
discord.py client: a sealed order typed as a plain channel message, /private typed as a message, and a GM's order
for a seat whose refusal would read its hand.

The measure of a leak is what each other member can read at the end (``FakeDiscord.view_of``: every channel and
thread of the guild, the ephemeral answers to that member, and that member's DMs), plus the order of the bot's
requests: a typed secret is deleted before the bot posts anything about it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.devdiscord import model
from bot.discord import bot as discord_bot
from bot.discord.typed_secrets import DELETED, NOT_DELETABLE, STILL_THERE
from bot.service.hidden_refusals import HIDDEN, OWNER_TOLD
from bot.service.replies import PRIVATE_ELSEWHERE
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.games import blind_auction

CHANNEL = "mare-nostrum"


def _cards(text: str, cards: tuple[int, ...]) -> bool:
    """The cards written out in any of the ways a user or the bot writes a list: "2 5 9", "2, 5, 9", JSON."""
    return re.search(r"[\s,\[]+".join(map(str, cards)), text) is not None


def _readable_by(t: Table, user: str) -> list[str]:
    """Everything ``user`` can read now: each channel and thread of the guild, and their DMs with the bot."""
    world = t.fake.world
    places = [c.id for c in world.guild_channels(t.dev.guild.id) if c.type in model.MESSAGEABLE_TYPES]
    texts = [m["content"] for place in places for m in t.fake.view_of(user, place)]
    texts += [m.content for m in world.channel_messages(world.dm_channel(t.uid(user)).id)]
    return texts


async def _auction(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, blind_auction.RULESET_ID, blind_auction.load)
    created = await t.slash("gm", "campaign", "create", name="auction", gm_role=str(t.dev.roles["GM"].id),
                            ruleset="blind-auction", randomness="commit-reveal")
    assert "Campaign 'auction' created" in created, created
    for seat, user in (("North", "alice"), ("South", "bob")):
        assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))


async def _dm(t: Table, user: str, *words: str) -> str:
    dm = t.fake.world.dm_channel(t.uid(user)).id
    found = await t.fake.wait_for_message(dm, lambda m: all(w in m["content"] for w in words), timeout=10)
    return str(found["content"])


def _request_index(t: Table, method: str, pattern: str) -> int:
    return next(i for i, r in enumerate(t.fake.requests) if r.method == method and re.fullmatch(pattern, r.path))


def test_a_sealed_hand_typed_in_the_channel_is_deleted_applied_and_its_author_told_privately(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: every other member of the server (a player, a spectator) reading the channel where North's player
    typed a sealed hand as a plain message."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        sent = await t.fake.user_says(CHANNEL, "alice", "hand 2 5 9")
        answer = await t.fake.wait_for_message(CHANNEL, lambda m: "(a sealed order)" in m["content"], timeout=10)
        assert "✓ line 1 (a sealed order)" in answer["content"] and not _cards(answer["content"], (2, 5, 9))
        for other in ("bob", "carla", "gm"):
            assert not any(_cards(text, (2, 5, 9)) for text in _readable_by(t, other)), other
        told = await _dm(t, "alice", DELETED)
        assert "hand 2 5 9" in told, "its author gets the whole answer, the order quoted"
        # Gone for everyone, and deleted before the bot said anything of it in the channel.
        assert sent["id"] not in [m["id"] for m in t.fake.messages_in(CHANNEL)]
        deleted = _request_index(t, "DELETE", rf"/channels/\d+/messages/{sent['id']}")
        answered = next(i for i, r in enumerate(t.fake.requests) if r.method == "POST"
                        and r.path.endswith("/messages") and "(a sealed order)" in str((r.json or {}).get("content")))
        assert deleted < answered
        # Applied: North's private view holds the hand.
        assert '"hand": [\n    2,\n    5,\n    9\n  ]' in await t.slash("alice", "private") and t.ephemeral

    run(lambda: table(tmp_path, scenario))


def test_a_sealed_hand_typed_where_the_bot_may_not_delete_it_is_refused_and_quoted_nowhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the other members again, where an admin took Manage Messages from Legatus in the campaign's channel:
    the typed hand stays for all to read, so it must not become South's sealed hand."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        await t.fake.set_overwrite(CHANNEL, t.fake.bot_user.id, deny=model.MANAGE_MESSAGES)
        sent = await t.fake.user_says(CHANNEL, "bob", "hand 3 6 8")
        answer = await t.fake.wait_for_message(CHANNEL, lambda m: "(a sealed order)" in m["content"], timeout=10)
        assert answer["content"].startswith("✗ line 1 (a sealed order): refused (the reason goes to its author "
                                            "privately)"), answer["content"]
        assert not _cards(answer["content"], (3, 6, 8))
        told = await _dm(t, "bob", NOT_DELETABLE)
        assert "hand 3 6 8" in told and "✗" in told
        assert not t.fake.requests_to("DELETE", re.compile(rf"/channels/\d+/messages/{sent['id']}")), \
            "the permission is checked, not tried"
        assert '"hand": null' in await t.slash("bob", "private"), "not applied"
        bot_said = [m.content for m in t.fake.world.messages.values() if m.author_id == t.fake.bot_user.id
                    and not t.fake.world.channels[m.channel_id].recipients]
        assert not any(_cards(text, (3, 6, 8)) for text in bot_said), "the bot quotes it nowhere public"

    run(lambda: table(tmp_path, scenario))


def test_private_typed_in_the_channel_reaches_only_its_author(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the other members, reading the channel where North's player typed /private as a plain message."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        await t.slash("alice", "order", orders="hand 2 5 9")
        await t.fake.user_says(CHANNEL, "alice", "/private")
        answer = await t.fake.wait_for_message(CHANNEL, lambda m: "/private" in m["content"], timeout=10)
        for other in ("bob", "carla", "gm"):
            assert not any(_cards(text, (2, 5, 9)) or '"hand"' in text for text in _readable_by(t, other)), other
        assert answer["content"] == f"✓ line 1 \u201c/private\u201d: {PRIVATE_ELSEWHERE}", answer["content"]
        view = await _dm(t, "alice", '"hand"')
        assert _cards(view, (2, 5, 9))

    run(lambda: table(tmp_path, scenario))


def test_a_gms_order_for_a_seat_is_refused_without_reading_its_hand(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the GM with Discord, ordering a bid for North (typed, then by the slash command) to read North's
    sealed hand in the refusal ("bid one of 2, 5, 9")."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        await t.slash("alice", "order", orders="hand 2 5 9")
        await t.slash("bob", "order", orders="hand 3 6 8")
        hidden = HIDDEN.format(seat="North")
        await t.fake.user_says(CHANNEL, "gm", "/order North bid 7")
        told = await _dm(t, "gm", "/order North bid 7")
        assert not any(_cards(text, (2, 5, 9)) for text in _readable_by(t, "gm"))
        assert DELETED in told, "the GM typed a sealed bid in the channel: deleted too"
        assert told.splitlines()[1] == f"✗ line 1 \u201c/order North bid 7\u201d: North: a sealed bid for round 1: " \
                                       f"refused: {hidden}", told
        slashed = await t.slash("gm", "order", orders="/order North bid 7")
        assert t.ephemeral and slashed.splitlines()[0].endswith(f"refused: {hidden}"), slashed
        assert not any(_cards(text, (2, 5, 9)) for text in _readable_by(t, "gm"))
        # North's player is told the precise reason, by DM: the order was given for their seat.
        owner = await _dm(t, "alice", "/order North bid 7", "7 is not a card you still hold: bid one of 2, 5, 9")
        assert owner.startswith(OWNER_TOLD.format(seat="North")), owner
        # North's player, bidding it, is told why, privately.
        answer = await t.slash("alice", "order", orders="bid 7")
        assert t.ephemeral and "7 is not a card you still hold: bid one of 2, 5, 9" in answer, answer

    run(lambda: table(tmp_path, scenario))


def test_an_author_with_closed_dms_gets_the_sealed_answer_with_their_next_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: the other members, when North's player allows no DMs: the fallback must not be the channel. The
    channel says only where to look; the whole answer comes with the player's next command's ephemeral answer."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        t.fake.user("alice").dms_closed = True
        await t.fake.user_says(CHANNEL, "alice", "hand 2 5 9")
        where = await t.fake.wait_for_message(CHANNEL, lambda m: "direct message" in m["content"], timeout=10)
        assert not _cards(where["content"], (2, 5, 9)) and "/private" in where["content"]
        for other in ("bob", "carla", "gm"):
            assert not any(_cards(text, (2, 5, 9)) for text in _readable_by(t, other)), other
        invocation = await t.fake.invoke_slash(None, CHANNEL, "alice", "private")
        await t.answer(invocation)
        notice = await t.fake.wait_until(
            lambda: next((f for f in invocation.followups if DELETED in f["content"]), None), 10, "the notice")
        assert notice["flags"] & model.FLAG_EPHEMERAL and "hand 2 5 9" in notice["content"]
        # Given once: the next command has no notice any more.
        again = await t.fake.invoke_slash(None, CHANNEL, "alice", "private")
        await t.answer(again)
        assert not any(DELETED in f["content"] for f in again.followups)

    run(lambda: table(tmp_path, scenario))


def test_a_delete_discord_refuses_after_the_check_tells_the_author_it_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attacker: an admin who takes Manage Messages away between the bot's check and its delete (here: the check is
    made to say yes where Discord says no). The order was applied; its author must learn the message stays, and the
    channel's answer still quotes nothing."""
    async def scenario(t: Table) -> None:
        await _auction(t, monkeypatch)
        await t.fake.set_overwrite(CHANNEL, t.fake.bot_user.id, deny=model.MANAGE_MESSAGES)
        monkeypatch.setattr(discord_bot, "may_delete", lambda channel: True)
        await t.fake.user_says(CHANNEL, "alice", "hand 2 5 9")
        told = await _dm(t, "alice", STILL_THERE)
        assert "hand 2 5 9" in told and "✓" in told
        answer = await t.fake.wait_for_message(CHANNEL, lambda m: "(a sealed order)" in m["content"], timeout=10)
        assert not _cards(answer["content"], (2, 5, 9))

    run(lambda: table(tmp_path, scenario))
