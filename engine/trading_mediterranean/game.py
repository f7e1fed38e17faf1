"""The state a campaign of Trading in the Mediterranean folds to: the civilizations, the table (the seven goods
decks, sealed, and the five open decks of developments and calamities), the phase, the window and what each
phase has collected."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.chance.book import ChanceBook
from engine.tabletop import decks as dk
from engine.tabletop import table as tb
from engine.tabletop.trades import Market
from engine.tabletop.votes import Vote
from engine.tabletop.windows import Window
from engine.trading_mediterranean.dealing import Dealing
from engine.trading_mediterranean.rules_data import AGES, CALAMITY_KINDS, Rules
from engine.trading_mediterranean.state import Civ
from engine.trading_mediterranean.trading import Warehouses

SETUP, PRODUCTION, CIVIC, TRADING, SPENDING, CALAMITY, PURCHASING, ENDING, OVER = (
    "set-up", "production", "civic", "trading", "resolution", "calamity", "purchasing", "ending", "over")
WINDOWS = (CIVIC, TRADING, PURCHASING)


BOARD = "the board"  # the holding a turn's developments and calamities are drawn to, sealed, then revealed


def open_decks(rules: Rules, hidden: bool = False) -> list[dk.DeckSpec]:
    """The development deck by age and the calamities by kind. Rules version 1: open decks, each shuffled once from
    the public randomness, their order public from then on; version 2: face down, keyed by the deck key like the
    goods decks, each turn's cards drawn to ``BOARD``, sealed and revealed in the civic phase (flow.py)."""
    specs = [dk.spec_from_data(age, {"cards": {d.name: 1 for d in rules.developments if d.age == age}, "hidden": hidden})
             for age in AGES]
    specs += [dk.spec_from_data(kind, {"cards": {c.name: 1 for c in rules.calamities if c.kind == kind}, "hidden": hidden})
              for kind in CALAMITY_KINDS]
    return specs


@dataclass
class Game:
    gm: str
    players: dict[str, str | None]  # seat -> player
    book: ChanceBook
    table: tb.Table
    civs: dict[str, Civ]
    mode: str  # live or forum
    forum_hours: int
    order: list[str] = field(default_factory=list)
    order_roll: int | None = None
    turn: int = 0
    phase: str = SETUP
    dealing: Dealing = field(default_factory=Dealing)
    shown: list[str] = field(default_factory=list)  # this turn's developments
    calamities: list[str] = field(default_factory=list)  # this turn's calamities still to resolve
    window: Window | None = None
    market: Market = field(default_factory=Market)
    store: Warehouses = field(default_factory=Warehouses)  # this turn's warehouse choices
    every_store: Warehouses = field(default_factory=Warehouses)  # every choice and every card spent, for verify
    give: dict[str, dict[str, str | None]] = field(default_factory=dict)  # seat -> building -> target
    spending: dict[str, list[str]] = field(default_factory=dict)  # seat -> card ids spent, waiting for reveals
    piracy: bool = False
    vote: Vote | None = None
    vote_on: str = ""  # the calamity the vote names a victim of
    tie_rolls: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # (binding, tied seats)
    ranking: list[str] = field(default_factory=list)
    outcome: str = ""
    history: list[str] = field(default_factory=list)  # what each turn's resolution said, turn by turn
    rules_version: int = 1  # the reading of the seed this campaign follows (rules_version.py)
    loss_due: tuple[str, str] | None = None  # (victim, calamity) waiting for the victim to name its losses
    bank: dict[str, str | None] = field(default_factory=dict)  # seat -> its Bank's use this turn (None: asked)
    unstored: dict[str, list[str]] = field(default_factory=dict)  # seat -> warehoused card ids to discard, revealed
    board_dealt: bool = False  # version 2: this turn's developments and calamities are drawn face down to BOARD

    def seats(self) -> list[str]:
        return list(self.civs)

    def public(self) -> dict[str, Any]:
        return {
            "turn": self.turn, "phase": self.phase, "order": list(self.order), "players": dict(self.players),
            "civilizations": {s: civ_public(c) for s, c in self.civs.items()},
            "developments": list(self.shown), "calamities": list(self.calamities),
            "window": self.window.public() if self.window else None,
            "offers": [o.public() for o in self.market.offers],
            "warehoused": {s: len(ids) for s, ids in self.store.stored.items()},
            "vote": self.vote.public() if self.vote else None, "table": self.table.public(),
            "ranking": list(self.ranking), "outcome": self.outcome, "chance": self.book.to_dict(),
            **({"rules_version": self.rules_version, "losses_asked_of": list(self.loss_due) if self.loss_due else None,
                "bank_asked": dict(self.bank)} if self.rules_version > 1 else {}),
        }


def civ_public(c: Civ) -> dict[str, Any]:
    return {"vp": c.vp, "money": c.money, "government": f"{c.government.side} {c.government.level}",
            "religion": f"{c.religion.side} {c.religion.level}", "happiness": c.happiness, "safety": c.safety,
            "industry": c.industry, "cubes": dict(sorted(c.cubes.items())), "buildings": list(c.buildings),
            "culture": dict(sorted(c.culture.items())), "bought": list(c.bought)}
