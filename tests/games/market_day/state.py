"""Market Day's state and data: the decks as data (engine/tabletop/decks.py), the phases, the card values."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.chance.book import ChanceBook
from engine.tabletop import decks, table as tb
from engine.tabletop.auctions import Auction
from engine.tabletop.trades import Market
from engine.tabletop.votes import Vote
from engine.tabletop.windows import Window

SEATS = ("North", "South", "East")
MONEY = 10
DECKS = {
    # The goods' bottoms (a star) are hidden: everyone sees only grain or wine.
    "goods": {"cards": {"grain": 4, "grain star": 2, "wine": 4, "wine star": 2}, "hidden": True,
              "faces": {"grain": "grain", "grain star": "grain", "wine": "wine", "wine star": "wine"}},
    "relics": {"cards": {"Golden Cup": 1, "Silver Lamp": 1, "Bronze Mirror": 1}, "hidden": False},
}
DEAL = ("top", "top", "bottom")  # each seat's three goods: the third from the bottom of the deck
VALUES = {"grain": 1, "wine": 2}
STAR, RELIC, FESTIVAL_WINE = 3, 5, 4
WINDOW_SECONDS, AUCTION_SECONDS, EXTEND = 3600, 600, 60
DEALING, MARKET, AUCTION, VOTE, ENDING, OVER = "dealing", "market", "auction", "vote", "ending", "over"


def specs() -> list[decks.DeckSpec]:
    return [decks.spec_from_data(name, data) for name, data in DECKS.items()]


def value(card: str, festival: bool) -> int:
    """A card's worth at the end: grain 1, wine 2 (4 with the festival), a star 3 more; a relic 5."""
    if card.split()[0] not in VALUES:
        return RELIC
    good = card.split()[0]
    return (FESTIVAL_WINE if festival and good == "wine" else VALUES[good]) + (STAR if card.endswith("star") else 0)


@dataclass
class State:
    gm: str
    players: dict[str, str | None]
    book: ChanceBook
    table: tb.Table
    phase: str = DEALING
    market: Market = field(default_factory=Market)
    window: Window | None = None
    auction: Auction | None = None
    vote: Vote | None = None
    sales: list[tuple[str, str]] = field(default_factory=list)  # (seat, card id) waiting for the card's reveal
    festival: bool = False
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    outcome: str = ""
    commitment: str | None = None  # commit-reveal: the seed's SHA-256, published at the creation
    seed: str | None = None  # revealed by the GM at the end

    def public(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "players": dict(self.players), "table": self.table.public(),
            "offers": [o.public() for o in self.market.offers],
            "window": self.window.public() if self.window else None,
            "auction": self.auction.public() if self.auction else None,
            "vote": self.vote.public() if self.vote else None, "festival": self.festival,
            "scores": dict(self.scores), "winner": self.winner, "outcome": self.outcome,
            "chance": self.book.to_dict(), "seed": self.seed,
        }
