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


def test_a_heads_up_whose_playing_seat_already_played_is_not_sent(tmp_path: Path) -> None:
    """A burst of passes: by the time a heads-up's turn on the event loop comes, the seat it names as playing may
    have played already (the campaign's latest change says who plays now). It is then dropped unclaimed, neither
    written nor sent; one still true is claimed and sent."""
    from types import SimpleNamespace

    from bot.discord.heads_up import HeadsUps
    from bot.discord.status_board import BoardView
    from bot.service.heads_up import HeadsUp

    told = HeadsUp(7, 1, "Turn 1 (290 BC)", "Seleucids", "Ptolemaics", "<@2>")
    views: dict[int, BoardView] = {}
    claimed: list[Any] = []
    sent: list[str] = []

    class Thread:
        id = 55

        async def send(self, text: str, **_: Any) -> Any:
            sent.append(text)
            return SimpleNamespace(id=99)

    class Posts:
        def call_many(self, function: Any, item: Any) -> Any:
            claimed.append(item)
            future: Any = asyncio.get_running_loop().create_future()
            future.set_result(True)
            return future

    async def settled(campaign_id: int, turn: int) -> Thread:
        return Thread()

    bot = SimpleNamespace(service=SimpleNamespace(engine=None), posts=Posts(),
                          boards=SimpleNamespace(current=views.get), turn_places=SimpleNamespace(settled=settled))
    heads_ups = HeadsUps(bot)

    def view(turn: int, *playing: str) -> BoardView:
        return BoardView(turn, f"Turn {turn}", "orders", False, tuple((seat, "orders", ()) for seat in playing), {})

    async def scenario() -> None:
        views[7] = view(1, "Ptolemaics")  # the Seleucids passed meanwhile
        assert await heads_ups.send(told) is None
        views[7] = view(2, "Seleucids")  # another turn
        assert await heads_ups.send(told) is None
        assert claimed == [] and sent == []
        views[7] = view(1, "Seleucids")  # still true
        assert await heads_ups.send(told) is not None
        assert sent == [told.text()] and claimed == [told, (told, "99", "55")]

    asyncio.run(scenario())
