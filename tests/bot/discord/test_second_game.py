"""The tests' second game, Blind Auction (tests/games/blind_auction), played end to end on the fake Discord: the
transport builds its /concede, /campaign create picks it, sealed hands and bids go in as plain messages, and no
message the bot posts shows a seat's sealed cards to anyone but that seat."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine import rulesets
from tests.bot.discord.test_discord_bot import Table, run, table
from tests.games import blind_auction

HANDS = {"alice": (2, 5, 9), "bob": (3, 6, 8)}
BIDS = [(5, 3), (9, 8), (2, 6)]  # distinct in every round: no tie, so no drand round is needed


def _cards_shown(text: str, cards: tuple[int, ...]) -> bool:
    """The hand written out in any of the ways the bot writes lists: "2 5 9", "2, 5, 9", a JSON list."""
    return re.search(r"[\s,\[]+".join(map(str, cards)), text) is not None


def test_blind_auction_on_discord(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rulesets.LOADERS, blind_auction.RULESET_ID, blind_auction.load)

    async def scenario(t: Table) -> None:
        gm_role = str(t.dev.roles["GM"].id)
        offered = await t.fake.autocomplete(None, "mare-nostrum", "gm", "campaign", "ruleset",
                                            {"name": "auction", "gm_role": gm_role, "ruleset": "blind"}, subcommand="create")
        assert [c["value"] for c in offered] == ["blind-auction"]
        created = await t.slash("gm", "campaign", "create", name="auction", gm_role=gm_role, ruleset="blind-auction",
                                randomness="commit-reveal")
        assert "Campaign 'auction' created (Blind Auction" in created
        assert t.fake.command("concede", t.dev.guild.id) is not None, "the game's own command, built from its spec"
        seats = await t.fake.autocomplete(None, "mare-nostrum", "gm", "campaign", "seat",
                                          {"player": t.uid("alice")}, subcommand="assign")
        assert [c["value"] for c in seats] == ["North", "South"]
        for seat, user in (("North", "alice"), ("South", "bob")):
            assert "✓" in await t.slash("gm", "campaign", "assign", seat=seat, player=t.uid(user))

        for user, cards in HANDS.items():
            answer = await t.say(user, "hand " + " ".join(map(str, cards)))
            assert "✓ line 1 (a sealed order)" in answer and not _cards_shown(answer, cards)
        mine = await t.slash("alice", "private")
        assert t.ephemeral and '"hand": [\n    2,\n    5,\n    9\n  ]' in mine
        refused = await t.say("alice", "bid 7")
        assert "✗ line 1 (a sealed order): refused" in refused and "2, 5, 9" not in refused
        told = await t.fake.wait_for_message(t.fake.world.dm_channel(t.uid("alice")).id,
                                             lambda m: "7 is not a card you still hold" in m["content"])
        assert "bid one of 2, 5, 9" in told["content"]
        for north, south in BIDS:
            await t.say("alice", f"bid {north}")
            await t.say("bob", f"bid {south}")
        summary = t.service.summary("auction")
        assert summary.over and summary.winner == "North", t.service.status("auction")
        assert "The game is over: North wins" in "\n".join(m["content"] for m in t.fake.messages_in("mare-nostrum"))

        # Every message the bot posted while the hands were sealed, whoever could see it: a hand is shown only to
        # its seat's player (the ephemeral /private, the DM), until the reveal at the end.
        reveal = min(int(m["id"]) for m in t.fake.messages_in("mare-nostrum") if "Sealed content of event" in m["content"]
                     and "hand" in m["content"])
        for message in t.fake.world.messages.values():
            if message.author_id != t.fake.bot_user.id or int(message.id) >= reveal:
                continue
            readers = _readers(t, message)
            for user, cards in HANDS.items():
                if _cards_shown(message.content, cards):
                    assert readers == {t.uid(user)}, (message.content, readers)

    run(lambda: table(tmp_path, scenario))


def _readers(t: Table, message: Any) -> set[str] | None:
    """Who can read a message: its interaction's user if ephemeral, the recipient of a DM, else everyone (None)."""
    channel = t.fake.world.channels[message.channel_id]
    if message.ephemeral:
        return {str(message.interaction_metadata["user"]["id"])}
    if channel.recipients:
        return set(channel.recipients)
    return None
