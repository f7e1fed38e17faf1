"""Six rounds by scripted players (4 and 6), every phase on the sealed decks: the export's fold, from the public
log alone, ends in the same civilizations and the same public table as the bot's, every card dealt (those put
back included) is revealed at the end and checked against its seal and its shuffle, and no warehouse choice
breaks a MAY NOT WAREHOUSE."""
from __future__ import annotations

import pytest

from engine.trading_mediterranean import trading
from tests.engine.trading_mediterranean.tm_driver import RULES
from tests.engine.trading_mediterranean.tm_game import play

FOUR = ["Ann", "Bob", "Cat", "Dan"]
SIX = FOUR + ["Eve", "Fay"]


@pytest.mark.parametrize(("seats", "ranking", "scores", "votes", "put_back", "reshuffled"), [
    (FOUR, ["Cat", "Bob", "Ann", "Dan"],
     # Bob and Ann tie on 9 VP and one culture cube each: Bob's five buildings beat Ann's three.
     [("Ann", 9, 1, 3, 1), ("Bob", 9, 1, 5, 1), ("Cat", 13, 1, 3, 1), ("Dan", 6, 1, 3, 1)],
     4, 0, ["salt", "timber", "wool"]),
    (SIX, ["Eve", "Cat", "Fay", "Bob", "Dan", "Ann"],
     [("Ann", 6, 0, 3, 0), ("Bob", 11, 0, 2, 0), ("Cat", 13, 1, 1, 2), ("Dan", 9, 1, 1, 1), ("Eve", 16, 0, 3, 1),
      ("Fay", 11, 1, 4, 1)],
     3, 1, ["civic", "ore", "salt", "timber", "wool"]),
])
def test_six_rounds_replay_to_the_same_game(seats: list[str], ranking: list[str], scores: list[tuple[str, int, int, int, int]],
                                            votes: int, put_back: int, reshuffled: list[str]) -> None:
    g = play(f"six rounds {len(seats)}", seats)
    bot, export = g.d.bot, g.d.export
    assert [vars(c) for c in bot.civs] == [vars(c) for c in export.civs]
    assert bot.table.public() == export.table.public()
    assert export.table.key_revealed
    assert all(h.revealed for hold in export.table.holdings.values() for h in hold.cards)
    assert len(export.dealing.put_back) == put_back and all(h.revealed for h in export.dealing.put_back)
    assert sorted(n for n, d in export.table.decks.items() if len(d.shuffles) > 1) == reshuffled
    assert g.trades_made == 6 * len(seats)
    assert g.votes_held == votes
    assert g.ranking == ranking
    assert [(c.seat, c.vp, c.money, len(c.buildings), c.culture_cubes()) for c in export.civs] == scores
    # Every warehouse choice of the game, checked from the public log once every card is revealed.
    every = trading.Warehouses(history=[h for store in g.stores for h in store.history],
                               spent={i: c for store in g.stores for i, c in store.spent.items()})
    warehoused = {i for _, ids in every.history for i in ids}
    held = {h.id for hold in export.table.holdings.values() for h in hold.cards}
    assert warehoused and warehoused <= set(every.spent) | held  # each card warehoused is known by the end
    assert trading.findings(RULES, export.table, every) == []
