"""The "you are next" heads-up on the fake Discord: when the turn passes to a seat, the player of the seat after it
in the order of play is told once, in the turn's thread, mentioned alone; never after turning it off, never twice for
one turn (an undo that hands the turn back does not repeat it), never in a game without an order of play."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.service.heads_up import heads_up
from bot.service.legatus import Legatus
from bot.store.db import open_engine
from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, set_up_campaign, table
from tests.games import blind_auction


def _heads_ups(t: Table, thread: str) -> list[dict[str, Any]]:
    return [m for m in t.fake.messages_in(thread) if "heads-up, you are next" in m["content"]]


def test_the_player_after_the_one_playing_gets_one_heads_up_unless_turned_off(tmp_path: Path) -> None:
    async def scenario(t: Table) -> None:
        await set_up_campaign(t)
        # max (the Macedonians, third in the order of play below) turns heads-ups off, privately.
        off = await t.slash("max", "settings", "heads-up", value="off")
        assert t.ephemeral and "saved: heads-up off" in off, off
        assert "heads-up on" in await t.slash("carla", "settings", "heads-up")
        opened = await t.slash("gm", "turn", "open", date="2023-01-03")
        assert "Order of play: Seleucids (NA 90), Ptolemaics (GE 80), Macedonians (FI 40)" in opened
        order = t.service.state("mare")["order_of_play"]
        users = {"Romans": "alice", "Gauls": "bob", "Carthaginians": "carla", "Macedonians": "max",
                 "Ptolemaics": "pat", "Seleucids": "sam"}
        thread = await t.fake.wait_until(lambda: next((c for c in t.fake.world.channels.values()
                                                       if c.name == "Turn 1 (290 BC)"), None), 10, "the turn's thread")
        where = str(thread.id)
        # The Seleucids play first: the Ptolemaics' player hears they are next, and only they are notified.
        # The turn's thread gets pings and heads-ups: past Discord's 5 messages per 5 s there, the bot rightly waits
        # its turn (a 429), so a wait shorter than that window fails for nothing.
        first = await t.fake.wait_for_message(where, lambda m: "heads-up, you are next" in m["content"], timeout=20)
        assert first["content"].startswith(f"<@{t.uid('pat')}>: heads-up, you are next (Ptolemaics), after the Seleucids")
        assert [u["id"] for u in first["mentions"]] == [t.uid("pat")]
        assert t.fake.notified(first["id"]) == [t.uid("pat")]
        # sam passes: the Ptolemaics play, the Macedonians are next, but max turned heads-ups off.
        assert "end their turn" in await t.say("sam", "pass")
        # The GM undoes that pass: the Seleucids play again; the Ptolemaics were told already this turn.
        assert "undoes event" in await t.slash("gm", "gm", "undo", reason="misclick")
        assert "end their turn" in await t.say("sam", "pass")
        # pat passes: the Macedonians play; the fourth seat's player is next.
        assert "end their turn" in await t.say("pat", "pass")
        fourth = users[order[3]]
        told = await t.fake.wait_for_message(where, lambda m: f"<@{t.uid(fourth)}>: heads-up" in m["content"], timeout=20)
        assert f"you are next ({order[3]}), after the Macedonians" in told["content"]
        await asyncio.sleep(0.3)
        shown = [m["content"].split(":")[0] for m in _heads_ups(t, where)]
        assert shown == [f"<@{t.uid('pat')}>", f"<@{t.uid(fourth)}>"], shown
        assert not _heads_ups(t, "mare-nostrum"), "everything of a turn goes to its thread"
        # max turns it on again and the setting is stored: a fresh service reads it.
        assert "saved: heads-up on" in await t.slash("max", "settings", "heads-up", value="on")
        refused = await t.slash("max", "order", orders="/settings heads-up maybe")
        assert t.ephemeral and "'maybe' is not a value of heads-up: write on or off" in refused

    run(lambda: table(tmp_path, scenario))


def test_no_heads_up_in_a_game_without_an_order_of_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, blind_auction.RULESET_ID, blind_auction.load)
    service = Legatus(open_engine(tmp_path / "auction.db"))
    changes: list[Any] = []
    service.observers.append(changes.append)
    assert service.create_campaign("auction", blind_auction.RULESET_ID, "gm", {"North": "alice", "South": "bob"}).changed
    for who, text in (("alice", "hand 2 5 9"), ("bob", "hand 3 6 8"), ("alice", "bid 5"), ("bob", "bid 3")):
        assert service.post(who, text, "auction").ok
    assert changes and all(heads_up(c) is None for c in changes)
    assert all(not c.summary.order for c in changes)
