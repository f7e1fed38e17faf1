"""The whole game as the fold holds it: the board, the phase and whose turn it is, the commerce in progress, the
row of Heroes and Wonders, the battles waiting for their dice, the chance book."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.chance.book import ChanceBook
from engine.mare_nostrum_empires.commerce import Exchange, Tokens
from engine.mare_nostrum_empires.state import Board
from engine.mare_nostrum_empires.tiles import Row
from engine.tabletop.table import Table

PRODUCTION, COMMERCE, PURCHASE, MILITARY, CLAIMS, OVER = "production", "commerce", "purchase", "military", "claims", "over"
PHASE_NAMES = {PRODUCTION: "Production", COMMERCE: "Commerce", PURCHASE: "Purchase and placement",
               MILITARY: "Military", CLAIMS: "Claims", OVER: "Game over"}


@dataclass
class Offer:
    """A commerce offer sealed: its digest now, its tokens once revealed (or at once in the bot's own fold)."""

    seq: int
    sealed: str
    known: list[str] | None = None  # the bot's fold, which has the content from the start
    revealed: list[str] | None = None

    def public(self) -> dict[str, Any]:
        return {"seq": self.seq, "sealed": self.sealed, "tokens": self.revealed}


@dataclass
class Battle:
    """A battle waiting for its dice: who attacks where, how many units on each side."""

    place: str
    attacker: str
    defender: str
    attackers: int
    defenders: int
    at_sea: bool
    roll: int | None = None  # the chance book's binding id
    by_sea: bool = False  # the attackers came along their trireme chain
    extra_dice: int = 0  # the defenders' dice beyond one per unit (a tile's), fixed when the dice are bound


@dataclass
class Commerce:
    master: str
    count: int | None = None  # tokens each participant puts forward, once the token is chosen
    taking_part: list[str] = field(default_factory=list)
    offers: dict[str, Offer] = field(default_factory=dict)
    exchange: Exchange | None = None


@dataclass
class Turns:
    """A phase played one player at a time in the order a leader names: who plays, who has played."""

    leader: str
    current: str | None = None
    done: list[str] = field(default_factory=list)
    moved_legions: bool = False  # in the Military phase: triremes move first
    arrived: dict[str, int] = field(default_factory=dict)  # area -> units that moved there this turn (they stay)
    long_march: bool = False  # a tile's once-a-phase longer legion move is used


@dataclass
class Game:
    ruleset: str
    gm: str
    players: dict[str, str | None]  # empire -> user
    board: Board
    book: ChanceBook
    phase: str = COMMERCE  # round 1 skips Production
    tokens: Tokens = field(default_factory=Tokens)
    commerce: Commerce | None = None
    turns: Turns | None = None
    row: Row | None = None
    row_roll: int | None = None
    battles: list[Battle] = field(default_factory=list)
    legendary_rolls: list[tuple[str, int]] = field(default_factory=list)  # (empire, binding id) to draw
    extra_choices: dict[str, dict[str, str]] = field(default_factory=dict)  # empire -> province -> choice
    claims_choices: dict[str, str] = field(default_factory=dict)
    standing: dict[str, int] = field(default_factory=dict)  # province -> the round a conqueror stood on its marker
    swapped: dict[str, int] = field(default_factory=dict)  # empire -> the round it last swapped a good by its tile
    winners: list[tuple[str, str]] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # one line per round's claims, for the status
    commitment: str | None = None  # commit-reveal: the commitment published at creation
    seed: str | None = None
    table: Table | None = None  # from rules version 2: the hidden decks, the row's (hidden_row.py)
    spent: list[str] = field(default_factory=list)  # from version 3: legendary cards gone back, discarded once shown

    @property
    def round(self) -> int:
        return self.board.round
